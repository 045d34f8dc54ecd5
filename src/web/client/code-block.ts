import hljs from '@highlightjs/cdn-assets/es/highlight.min.js';
import { h } from './dom.js';

/** The language a `language-…` class names, or null. */
function languageOfClass(code: HTMLElement): string | null {
  for (const name of code.classList) if (name.startsWith('language-')) return name.slice(9);
  return null;
}

// A button that puts the block's text on the clipboard and says so for a moment.
function copyButton(code: HTMLElement): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'copy-code' }, 'Copy');
  button.addEventListener('click', () => {
    void navigator.clipboard.writeText(code.textContent).then(
      () => {
        button.textContent = 'Copied';
        window.setTimeout(() => (button.textContent = 'Copy'), 1500);
      },
      () => (button.textContent = 'Copy failed'),
    );
  });
  return button;
}

/**
 * Dresses a `<pre><code>` in place: highlighted when highlight.js knows its language, under a
 * bar with the language's name and a copy button; the block scrolls sideways, never wraps code.
 */
export function dressCodeBlock(code: HTMLElement): void {
  const pre = code.parentElement;
  if (!pre || pre.tagName !== 'PRE') return;
  const language = languageOfClass(code);
  if (language && hljs.getLanguage(language)) hljs.highlightElement(code);
  else code.classList.add('nohighlight');
  const figure = h(
    'figure',
    { class: 'code-block' },
    h(
      'figcaption',
      {},
      h('span', { class: 'code-language' }, language ?? 'text'),
      copyButton(code),
    ),
  );
  pre.replaceWith(figure);
  pre.tabIndex = 0;
  figure.append(pre);
}

/** A block of code (a code-interpreter cell, a tool's input) drawn as code, never as Markdown. */
export function codeBlock(text: string, language: string | null): HTMLElement {
  const code = h('code', language ? { class: `language-${language}` } : {}, text);
  const holder = h('div', {}, h('pre', {}, code));
  dressCodeBlock(code);
  return holder.firstElementChild as HTMLElement;
}
