/**
 * Keys for reading without the mouse: `/` to search, `j`/`k` (or the arrows once on an item) to
 * move between results, conversations and messages, Enter to open (links do), Esc to go back.
 */

// What j and k move between on the page shown: search hits, listed conversations, messages.
const ITEMS = 'a.hit, a.conversation-link, article.message';

function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

function move(step: 1 | -1): void {
  const items = [...document.querySelectorAll<HTMLElement>(ITEMS)];
  if (items.length === 0) return;
  const at = items.findIndex((item) => item === document.activeElement);
  const next = items[at < 0 ? (step > 0 ? 0 : items.length - 1) : at + step];
  if (!next) return;
  // A message is not a control: it takes focus from a script only.
  if (next.tagName === 'ARTICLE' && !next.hasAttribute('tabindex')) next.tabIndex = -1;
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

function focusSearch(): void {
  const input = document.getElementById('search-input');
  if (input) {
    input.focus();
    return;
  }
  location.hash = '#/search';
  // The search page loads as a module of its own: its box appears after the hash change.
  const waiting = new MutationObserver(() => {
    const box = document.getElementById('search-input');
    if (!box) return;
    waiting.disconnect();
    box.focus();
  });
  waiting.observe(document.body, { childList: true, subtree: true });
  window.setTimeout(() => {
    waiting.disconnect();
  }, 5000);
}

/** Listens for the app's keys on the whole page. */
export function setUpKeyboard(): void {
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (typing(event.target)) {
      if (event.key === 'Escape' && event.target instanceof HTMLElement) event.target.blur();
      return;
    }
    const onItem = document.activeElement?.matches(ITEMS) === true;
    if (event.key === '/') {
      event.preventDefault();
      focusSearch();
    } else if (event.key === 'j' || (onItem && event.key === 'ArrowDown')) {
      event.preventDefault();
      move(1);
    } else if (event.key === 'k' || (onItem && event.key === 'ArrowUp')) {
      event.preventDefault();
      move(-1);
    } else if (event.key === 'Escape' && location.hash.replace(/^#\/?/, '') !== '') {
      history.back();
    }
  });
}
