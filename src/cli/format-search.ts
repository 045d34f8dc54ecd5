import {
  CLI_QUERY_LIMITS,
  QueryError,
  queryLimits,
  type ConversationHit,
  type ConversationPassage,
  type ConversationResult,
  type HitReason,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
} from '../api/query.js';
import { MATCH_END, MATCH_START, shortIds, shortMessageIds, thousands } from '../api/view.js';
import { MODE_CHOICE, ROLE_CHOICE, checkChoice } from './choices.js';

/** What `search` takes besides its words. */
export interface SearchCliOptions {
  mode?: string;
  source?: string;
  since?: string;
  until?: string;
  role?: string;
  limit: string;
  offset: string;
  format: string;
  json?: boolean;
  queryTimeout?: string;
  /** One row per matching message, as before conversations were grouped. */
  perMessage?: boolean;
}

/**
 * The search the options ask for; a bad option is one sentence. The sources' list (every
 * provider's code) is loaded only to check a `--source`.
 */
export async function searchQueryOf(text: string, options: SearchCliOptions): Promise<SearchQuery> {
  const mode =
    options.mode !== undefined ? checkChoice('--mode', options.mode, MODE_CHOICE) : undefined;
  const role = options.role ? checkChoice('--role', options.role, ROLE_CHOICE) : undefined;
  const source = options.source
    ? checkChoice('--source', options.source, (await import('./source-choice.js')).SOURCE_CHOICE)
    : undefined;
  const offset = Number(options.offset);
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new QueryError(`--offset takes a whole number, not "${options.offset}"`);
  const { timeoutSeconds } = queryLimits({ queryTimeout: options.queryTimeout }, CLI_QUERY_LIMITS);
  return {
    text,
    limit: Number(options.limit),
    offset,
    timeoutSeconds,
    ...(mode !== undefined ? { mode } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(options.since ? { since: options.since } : {}),
    ...(options.until ? { until: options.until } : {}),
    ...(role !== undefined ? { role } : {}),
  };
}

const plain = (snippet: string): string =>
  snippet.split(MATCH_START).join('«').split(MATCH_END).join('»');

/** `search --format json`: the result as it is, snippets with «marks». */
export function searchJson(result: SearchResult, offset: number): string {
  const strip = (hits: SearchHit[]): SearchHit[] =>
    hits.map((hit) => ({ ...hit, snippet: plain(hit.snippet) }));
  return JSON.stringify(
    {
      ...result,
      offset,
      hits: strip(result.hits),
      ...(result.nearest ? { nearest: strip(result.nearest) } : {}),
      ...(result.memories ? { memories: strip(result.memories) } : {}),
    },
    null,
    2,
  );
}

/** Why a hit matched, in a few words. */
export function whyOf(hit: SearchHit): string {
  const parts: string[] = [];
  if (hit.why?.keyword) parts.push('words');
  if (hit.why?.semantic) parts.push(`meaning ${hit.why.semantic.similarity.toFixed(2)}`);
  return parts.join(' + ');
}

/**
 * Each conversation's and message's id as a hit line shows it: ours, short (the shortest start,
 * 8 characters at least, that no other id in the answer shares), what `thread` takes back.
 */
export interface ShortIds {
  conversation: (id: string) => string;
  message: (id: string) => string;
}

/** Short ids for the conversations and messages of an answer. */
export function shortIdsOf(
  hits: readonly { conversationId: string; messageId: string }[],
): ShortIds {
  const conversations = shortIds([...new Set(hits.map((h) => h.conversationId))]);
  const messages = shortMessageIds([...new Set(hits.map((h) => h.messageId).filter(Boolean))]);
  return {
    conversation: (id) => conversations.get(id) ?? id,
    message: (id) => messages.get(id) ?? id,
  };
}

function hitLines(
  hit: SearchHit,
  highlight: (snippet: string) => string,
  short: ShortIds,
): string[] {
  const attached = hit.attachment ? `  📎 ${hit.attachment.name ?? 'attachment'}` : '';
  const title = hit.kind === 'title' ? '  (title)' : '';
  const why = whyOf(hit);
  return [
    `${hit.createdAt.slice(0, 10)}  ${hit.source}  ${hit.title}${attached}${title}  (${hit.role || 'conversation'}, conversation ${short.conversation(hit.conversationId)}${hit.messageId ? `, message ${short.message(hit.messageId)}` : ''}${why ? `; ${why}` : ''})`,
    `    ${highlight(hit.snippet.replace(/\s+/g, ' '))}`,
  ];
}

// A memory and where it came from, its source's ids short as the hits'.
function memoryLines(
  m: SearchHit,
  highlight: (snippet: string) => string,
  short: ShortIds,
): string[] {
  return [
    `memory ${m.memory?.id ?? ''}  [${m.memory?.type ?? ''}]  (${whyOf(m) || 'words'})${m.conversationId ? `  from "${m.title}" (conversation ${short.conversation(m.conversationId)}${m.messageId ? `, message ${short.message(m.messageId)}` : ''})` : ''}`,
    `    ${highlight(m.snippet.replace(/\s+/g, ' '))}`,
  ];
}

/** What `search` prints: hits with why they matched, or what to try when nothing did. */
export function formatSearch(
  result: SearchResult,
  query: SearchQuery,
  highlight: (snippet: string) => string,
): string[] {
  const { text } = query;
  const offset = query.offset ?? 0;
  const lines: string[] = [];
  const count = thousands;
  if (result.notice) lines.push(`(${result.notice})`);
  // Memories matching (by words, meaning or both) come first, marked as memories (first page only).
  const short = shortIdsOf([...result.hits, ...(result.nearest ?? []), ...(result.memories ?? [])]);
  for (const m of result.memories ?? []) lines.push(...memoryLines(m, highlight, short));
  if (result.hits.length === 0) {
    if (result.matches > 0 && offset > 0)
      lines.push(
        `no more hits: ${count(result.matches)} in all, all shown before --offset ${offset}`,
      );
    else if (result.hint !== undefined)
      lines.push(`no match for ${text}; did you mean: ${result.hint}`);
    else
      lines.push(
        `no matches (searched by ${result.mode === 'keyword' || result.byWordsOnly === true ? 'words' : 'meaning'})`,
      );
    if (result.nearest && result.nearest.length > 0) {
      lines.push('nearest in meaning:');
      for (const hit of result.nearest) lines.push(...hitLines(hit, highlight, short));
    }
    return lines;
  }
  // Hits by meaning alone: the words matched nothing, and a near word may have.
  if (result.hint !== undefined) lines.push(`no match for ${text}; did you mean: ${result.hint}`);
  for (const hit of result.hits) lines.push(...hitLines(hit, highlight, short));
  if (result.mode === 'keyword' && result.ranked > 0 && result.ranked < result.matches)
    lines.push(
      `(${result.matchesCapped ? 'more than ' : ''}${count(result.matches)} match; the best of the ${count(result.ranked)} most recently indexed are shown: add words to narrow)`,
    );
  const shown = offset + result.hits.length;
  if (result.mode === 'keyword') {
    if (shown < result.matches)
      lines.push(
        `(hits ${count(offset + 1)}–${count(shown)} of ${result.matchesCapped ? 'more than ' : ''}${count(result.matches)}: --offset ${shown} for the next ones)`,
      );
  } else {
    const how = result.mode === 'semantic' ? 'by meaning' : 'by words and meaning';
    lines.push(
      `(hits ${count(offset + 1)}–${count(shown)}, ${how}${result.hits.length === query.limit ? `: --offset ${shown} for the next ones` : ''})`,
    );
  }
  return lines;
}

const plainPassage = (p: ConversationPassage): ConversationPassage => ({
  ...p,
  snippet: plain(p.snippet),
});

/** `search --format json` grouped: conversations with their best passage, snippets with «marks». */
export function conversationsJson(result: ConversationResult): string {
  const strip = (hits: SearchHit[]): SearchHit[] =>
    hits.map((hit) => ({ ...hit, snippet: plain(hit.snippet) }));
  return JSON.stringify(
    {
      ...result,
      conversations: result.conversations.map((c) => ({
        ...c,
        best: plainPassage(c.best),
        passages: c.passages.map(plainPassage),
      })),
      memories: strip(result.memories),
      ...(result.nearest ? { nearest: strip(result.nearest) } : {}),
    },
    null,
    2,
  );
}

function reasonOf(why: HitReason | undefined): string {
  const parts: string[] = [];
  if (why?.keyword) parts.push('words');
  if (why?.semantic) parts.push(`meaning ${why.semantic.similarity.toFixed(2)}`);
  return parts.join(' + ');
}

function conversationLines(
  c: ConversationHit,
  highlight: (snippet: string) => string,
  short: ShortIds,
): string[] {
  const { best } = c;
  const where =
    best.kind === 'title'
      ? 'title'
      : best.attachment
        ? `📎 ${best.attachment.name ?? 'attachment'} of message ${short.message(best.messageId)}`
        : `${best.role}, message ${short.message(best.messageId)}`;
  const why = reasonOf(c.why);
  const more = c.more > 0 ? `; ${String(c.more)} more in this conversation` : '';
  return [
    `${c.createdAt.slice(0, 10)}  ${c.source}  ${c.title}  (conversation ${short.conversation(c.conversationId)}${why ? `; ${why}` : ''}${more})`,
    `    ${highlight(best.snippet.replace(/\s+/g, ' '))}  (${where})`,
  ];
}

/** What `search` prints grouped: one line per conversation, its best passage under it. */
export function formatConversations(
  result: ConversationResult,
  query: SearchQuery,
  highlight: (snippet: string) => string,
): string[] {
  const lines: string[] = [];
  const count = thousands;
  const short = shortIdsOf([
    ...result.conversations.map((c) => ({
      conversationId: c.conversationId,
      messageId: c.best.messageId,
    })),
    ...(result.nearest ?? []),
    ...result.memories,
  ]);
  if (result.notice) lines.push(`(${result.notice})`);
  if (result.conversations.length === 0) {
    if (result.offset > 0) lines.push(`no more conversations after --offset ${result.offset}`);
    else if (result.hint !== undefined)
      lines.push(`no match for ${query.text}; did you mean: ${result.hint}`);
    else
      lines.push(
        `no matches (searched by ${result.mode === 'keyword' || result.byWordsOnly === true ? 'words' : 'meaning'})`,
      );
    if ((result.belowFloor ?? 0) > 0) lines.push(`(${result.summary})`);
    if (result.nearest && result.nearest.length > 0) {
      lines.push('nearest in meaning:');
      for (const hit of result.nearest) lines.push(...hitLines(hit, highlight, short));
    }
  } else {
    // Answers by meaning alone: the words matched nothing, and a near word may have.
    if (result.hint !== undefined)
      lines.push(`no match for ${query.text}; did you mean: ${result.hint}`);
    lines.push(`(${result.summary})`);
    for (const c of result.conversations) lines.push(...conversationLines(c, highlight, short));
    const shown = result.offset + result.conversations.length;
    lines.push(
      `(conversations ${count(result.offset + 1)}–${count(shown)}${result.more ? `: --offset ${shown} for the next ones` : ''})`,
    );
  }
  // Memories matching well enough come after the answers, never above them.
  if (result.memories.length > 0) lines.push('memories:');
  for (const m of result.memories) lines.push(...memoryLines(m, highlight, short));
  return lines;
}
