import { get } from './api.js';
import { changeCount } from './answers.js';

/** How often the page asks whether the store changed (only when the server follows sessions). */
const POLL_MILLISECONDS = 2000;

/**
 * With `serve --watch`, new messages arrive while the page is open: the list and an open
 * conversation are drawn again when the server's change count moves (keeping the scroll
 * position, and never while something is being typed). A server without `--watch` answers
 * null, and the page stops asking; a failed request is tried again at the next period.
 */
export function followChanges(render: () => Promise<void>): void {
  let seen: number | undefined;
  const poll = async (): Promise<boolean> => {
    const { changes } = await get('/api/changes', changeCount);
    if (changes === null) return false;
    const path = location.hash.slice(1) || '/';
    const redrawn = /^\/(c\/|\?|$)/.test(path);
    const typing = document.activeElement?.matches('input, textarea, select') === true;
    if (seen !== undefined && changes !== seen && redrawn && !typing) {
      const scroll = window.scrollY;
      await render();
      window.scrollTo(0, scroll);
    }
    seen = changes;
    return true;
  };
  const loop = (): void => {
    poll().then(
      (again) => {
        if (again) setTimeout(loop, POLL_MILLISECONDS);
      },
      () => setTimeout(loop, POLL_MILLISECONDS),
    );
  };
  loop();
}
