import type { ConversationSearchHit, SearchHit } from './api.js';
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
export function whyText(hit: Pick<SearchHit, 'why'>): string {
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

type Passage = ConversationSearchHit['best'];

const messageHref = (conversationId: string, messageId: string): string =>
  `#/c/${encodeURIComponent(conversationId)}${messageId ? `?m=${encodeURIComponent(messageId)}` : ''}`;

// One passage of a conversation card: a link that opens the conversation at its message.
function passageLink(c: ConversationSearchHit, p: Passage, className: string): HTMLElement {
  return h(
    'a',
    { class: className, href: messageHref(c.conversationId, p.messageId) },
    h(
      'div',
      { class: 'hit-head' },
      p.kind === 'title' ? h('span', { class: 'role' }, 'title') : null,
      p.role && p.kind !== 'title' ? h('span', { class: 'role' }, p.role) : null,
      p.attachment
        ? h('span', { class: 'attachment-badge' }, `attached: ${p.attachment.name ?? 'text'}`)
        : null,
    ),
    snippet(p.snippet),
  );
}

/**
 * One conversation of a grouped search: its title and best passage (a link to that message),
 * and "n more in this conversation", which unfolds the next passages.
 */
export function conversationCard(c: ConversationSearchHit): HTMLElement {
  const why = whyText(c);
  const card = h(
    'section',
    { class: 'hit-card', 'data-conversation': c.conversationId },
    h(
      'a',
      { class: 'hit', href: messageHref(c.conversationId, c.best.messageId) },
      h(
        'div',
        { class: 'hit-head' },
        h('strong', {}, c.title),
        h('span', { class: `source source-${c.source}` }, c.source),
        c.best.role && c.best.kind !== 'title' ? h('span', { class: 'role' }, c.best.role) : null,
        c.best.attachment
          ? h(
              'span',
              { class: 'attachment-badge' },
              `attached: ${c.best.attachment.name ?? 'text'}`,
            )
          : null,
        why ? h('span', { class: 'why' }, why) : null,
        h('time', {}, formatDate(c.createdAt)),
      ),
      snippet(c.best.snippet),
    ),
  );
  if (c.more > 0)
    card.append(
      h(
        'details',
        { class: 'more-passages' },
        h('summary', {}, `${String(c.more)} more in this conversation`),
        ...c.passages.map((p) => passageLink(c, p, 'hit hit-passage')),
        c.more > c.passages.length
          ? h(
              'a',
              { class: 'all-passages', href: messageHref(c.conversationId, '') },
              'open the conversation',
            )
          : null,
      ),
    );
  return card;
}
