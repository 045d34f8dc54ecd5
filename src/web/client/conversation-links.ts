import type { ConversationInfo as Conversation } from './api.js';
import { h } from './dom.js';

// The conversation as one file, rendered by the server as `chatgraph export` renders it.
export function downloadLink(
  conversation: Conversation,
  format: 'markdown' | 'html',
  label: string,
): HTMLElement {
  return h(
    'a',
    {
      class: 'download',
      'data-format': format,
      download: '',
      href: `/api/conversations/${encodeURIComponent(conversation.id)}/export?format=${format}`,
    },
    label,
  );
}

// Back to where the conversation lives: a link the person follows, opened apart, and the page
// tells the platform nothing of where it came from.
export function platformLink(url: string): HTMLElement {
  return h(
    'a',
    { class: 'platform-link', href: url, target: '_blank', rel: 'noopener noreferrer' },
    `Open on ${new URL(url).hostname}`,
  );
}
