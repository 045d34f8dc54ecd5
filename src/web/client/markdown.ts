import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { dressCodeBlock } from './code-block.js';

const marked = new Marked({ gfm: true, breaks: false, async: false });

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
 * works on the text of the already safe elements).
 */
export function renderMarkdown(text: string): HTMLElement {
  const container = document.createElement('div');
  container.className = 'markdown';
  const html = marked.parse(text) as string;
  container.append(
    DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true, FORBID_TAGS: ['style', 'form'] }),
  );
  for (const block of container.querySelectorAll<HTMLElement>('pre code')) {
    dressCodeBlock(block);
  }
  return container;
}
