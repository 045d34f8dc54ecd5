import type { SearchHit } from './api.js';
import { formatDate, h } from './dom.js';

const MATCH_START = '\ue000';
const MATCH_END = '\ue001';

/** A snippet with its matched words marked; the text itself stays text. */
export function snippet(text: string): HTMLElement {
  const out = h('p', { class: 'snippet' });
  for (const [i, part] of text.split(MATCH_START).entries()) {
    if (i === 0) {
      out.append(part);
      continue;
    }
    const end = part.indexOf(MATCH_END);
    if (end < 0) {
      out.append(part);
      continue;
    }
    out.append(h('mark', {}, part.slice(0, end)), part.slice(end + MATCH_END.length));
  }
  return out;
}

/** Why a hit matched, in a few words: its words, its meaning, or both. */
export function whyText(hit: SearchHit): string {
  const parts: string[] = [];
  if (hit.why?.keyword) parts.push('words');
  if (hit.why?.semantic) parts.push(`meaning ${Math.round(hit.why.semantic.similarity * 100)}%`);
  return parts.join(' + ');
}

/** One hit as a link that opens its conversation at the message (on its branch). */
export function hitLink(hit: SearchHit): HTMLElement {
  const why = whyText(hit);
  return h(
    'a',
    {
      class: `hit${hit.attachment ? ' hit-attachment' : ''}`,
      href: `#/c/${encodeURIComponent(hit.conversationId)}${hit.messageId ? `?m=${encodeURIComponent(hit.messageId)}` : ''}`,
    },
    h(
      'div',
      { class: 'hit-head' },
      h('strong', {}, hit.title),
      h('span', { class: `source source-${hit.source}` }, hit.source),
      hit.role ? h('span', { class: 'role' }, hit.role) : null,
      hit.attachment
        ? h('span', { class: 'attachment-badge' }, `attached: ${hit.attachment.name ?? 'text'}`)
        : null,
      why ? h('span', { class: 'why' }, why) : null,
      h('time', {}, formatDate(hit.createdAt)),
    ),
    snippet(hit.snippet),
  );
}
