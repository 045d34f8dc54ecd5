import { type MessageView } from './api.js';
import { h } from './dom.js';

type Citation = MessageView['citations'][number];

// ChatGPT cites a page once per mention, some without a title: each page once, its fullest entry.
// The text's `[n]` names the n-th stored citation: `listed[n - 1]` is where it is listed.
function distinctSources(citations: readonly Citation[]): {
  sources: Citation[];
  listed: number[];
} {
  const byKey = new Map<string, { at: number; citation: Citation }>();
  const weight = (c: Citation): number => (c.title ? 2 : 0) + (c.snippet ? 1 : 0);
  const listed: number[] = [];
  for (const c of citations) {
    const key = c.url ?? c.title ?? c.snippet ?? '';
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { at: byKey.size, citation: c });
    else if (weight(c) > weight(seen.citation)) seen.citation = c;
    listed.push(byKey.get(key)?.at ?? 0);
  }
  return { sources: [...byKey.values()].map((s) => s.citation), listed };
}

const sourceId = (messageId: string, at: number): string => `m-${messageId}-source-${at + 1}`;

// An in-page link: the hash is the app's route, so the click scrolls to the source itself.
function goToSource(event: Event): void {
  const link = event.currentTarget as HTMLAnchorElement;
  const target = document.getElementById(link.getAttribute('href')?.slice(1) ?? '');
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: 'nearest' });
  target.focus({ preventScroll: true });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** A message's sources: the numbered list under it, and its text's `[n]` linked to the list. */
export function messageSources(message: MessageView): {
  linkReferences(container: HTMLElement): void;
  list(): Node[];
} {
  const { sources, listed } = distinctSources(message.citations);
  return {
    /**
     * The `[n]` references in rendered answer text as links to the n-th source under the
     * message (the numbers are the converter's: the n-th citation stored). Text in code and in
     * links stays as it is, and a number past the list is left alone.
     */
    linkReferences(container: HTMLElement): void {
      if (sources.length === 0) return;
      const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
      const texts: Text[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode())
        if (
          /\[\d{1,3}\]/.test(node.nodeValue ?? '') &&
          !node.parentElement?.closest('code, pre, a')
        )
          texts.push(node as Text);
      for (const text of texts) {
        const value = text.nodeValue ?? '';
        const pieces: (Node | string)[] = [];
        let from = 0;
        for (const match of value.matchAll(/\[(\d{1,3})\]/g)) {
          const at = listed[Number(match[1]) - 1];
          const source = at === undefined ? undefined : sources[at];
          if (at === undefined || !source) continue;
          pieces.push(
            value.slice(from, match.index),
            h(
              'sup',
              { class: 'cite' },
              h(
                'a',
                {
                  href: `#${sourceId(message.id, at)}`,
                  title: source.title ?? source.url ?? `Source ${String(at + 1)}`,
                  onclick: goToSource,
                },
                match[0],
              ),
            ),
          );
          from = match.index + match[0].length;
        }
        if (from === 0) continue;
        pieces.push(value.slice(from));
        text.replaceWith(...pieces);
      }
    },
    list(): Node[] {
      if (sources.length === 0) return [];
      return [
        h('div', { class: 'label sources-label' }, 'Sources'),
        h(
          'ol',
          { class: 'citations' },
          ...sources.map((c, at) => {
            const safe = c.url !== null && /^https?:\/\//i.test(c.url);
            return h(
              'li',
              // Focused when a `[n]` link is followed, so that the jump is seen and heard.
              { id: sourceId(message.id, at), tabindex: -1 },
              safe
                ? h(
                    'a',
                    { href: c.url ?? '', target: '_blank', rel: 'noopener noreferrer' },
                    c.title ?? c.url ?? '',
                  )
                : (c.title ?? c.url ?? 'source'),
              safe && c.title ? h('span', { class: 'domain' }, ` · ${hostOf(c.url ?? '')}`) : null,
              c.snippet ? h('div', { class: 'snippet' }, c.snippet) : null,
            );
          }),
        ),
      ];
    },
  };
}
