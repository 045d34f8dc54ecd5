import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { dressCodeBlock } from './code-block.js';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// The same Markdown with the HTML in it shown as the text it is: a memory is a note someone
// (or an agent) wrote, where `<img …>` is something said, not something to draw.
const markedHtmlAsText = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: { html: ({ text }) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c) },
});

// Links from chat text open elsewhere, and never tell the target where they came from.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * Chat text as HTML: Markdown rendered, then sanitised by DOMPurify (scripts, event handlers,
 * `javascript:` links and the like removed), then code blocks highlighted and labelled (highlight.js
 * works on the text of the already safe elements). With `htmlAsText`, HTML in the text is shown
 * as text rather than drawn.
 */
export function renderMarkdown(text: string, options: { htmlAsText?: boolean } = {}): HTMLElement {
  const container = document.createElement('div');
  container.className = 'markdown';
  const html = (options.htmlAsText === true ? markedHtmlAsText : marked).parse(text) as string;
  container.append(
    DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true, FORBID_TAGS: ['style', 'form'] }),
  );
  for (const block of container.querySelectorAll<HTMLElement>('pre code')) {
    dressCodeBlock(block);
  }
  return container;
}
