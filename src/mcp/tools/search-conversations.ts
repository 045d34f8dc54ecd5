import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MATCH_END, MATCH_START, platformUrlsOf } from '../../api/view.js';
import type {
  ConversationHit,
  ConversationPassage,
  ConversationResult,
  HitReason,
  SearchHit,
  SearchResult,
} from '../../api/query.js';
import {
  conversationHitOutput,
  hitOutput,
  memoryHitOutput,
  nextOffsetOutput,
  truncatedOutput,
} from '../output-schemas.js';
import { clipText, fitPage } from '../result-budget.js';
import type { ToolContext } from '../tool-context.js';
import { dateInput, limitInput, offsetInput, roleInput, sourceInput } from '../tool-inputs.js';
import { guarded, ok } from '../tool-result.js';

/** The most hits one search returns to an agent. */
export const SEARCH_LIMIT = 100;

const output = z.object({
  mode: z.enum(['hybrid', 'semantic', 'keyword']),
  group: z.enum(['conversation', 'message']),
  conversations: z.array(conversationHitOutput).optional(),
  summary: z.string().optional(),
  hits: z.array(hitOutput).optional(),
  matches: z.number().int(),
  matchesCapped: z.boolean(),
  ranked: z.number().int(),
  offset: z.number().int(),
  nextOffset: nextOffsetOutput,
  hint: z.string().optional(),
  notice: z.string().optional(),
  nearest: z.array(hitOutput).optional(),
  memories: z.array(memoryHitOutput).optional(),
  truncated: truncatedOutput,
});

// What tools/list names: the fields an agent reads; the counts and notes still come, and the
// server checks every answer against the whole of `output`.
const advertised = output.pick({
  conversations: true,
  hits: true,
  nextOffset: true,
  hint: true,
  nearest: true,
  memories: true,
  truncated: true,
});

function plainSnippet(snippet: string): string {
  return snippet.split(MATCH_START).join('**').split(MATCH_END).join('**');
}

/** Why a hit matched, in a few words an agent can read. */
export function describeWhy(hit: SearchHit): string {
  const parts: string[] = [];
  if (hit.why?.keyword) parts.push(`words #${String(hit.why.keyword.rank)}`);
  if (hit.why?.semantic)
    parts.push(
      `meaning #${String(hit.why.semantic.rank)} (similarity ${hit.why.semantic.similarity.toFixed(2)})`,
    );
  return parts.join(' + ');
}

function hitLine(h: SearchHit): string {
  const where = h.attachment
    ? `attachment "${h.attachment.name ?? 'unnamed'}" of message`
    : 'message';
  return `- ${h.createdAt.slice(0, 10)} [${h.source}] "${h.title}" (conversation ${h.conversationId}, ${where} ${h.messageId}, ${h.role}; ${describeWhy(h)}): ${h.snippet}`;
}

type Page = {
  result: SearchResult;
  nearest: SearchHit[] | undefined;
  memories: SearchHit[] | undefined;
  offset: number;
  limit: number;
};

/** How a memory matched, as the text says it. */
function memoryWhy(hit: SearchHit): string {
  const { keyword, semantic } = hit.why ?? {};
  const meaning = semantic ? `by meaning, similarity ${semantic.similarity.toFixed(2)}` : '';
  return keyword && semantic ? `by words and ${meaning.slice(3)}` : meaning || 'by words';
}

/**
 * How an answer was searched: its mode, or "words only" for a question left to its words (the
 * model does not read its language), as the CLI and the web app say, not "hybrid".
 */
function searchedBy(result: { mode: string; byWordsOnly?: true }): string {
  return result.byWordsOnly === true ? 'words only' : result.mode;
}

// One page of hits as text and structured content; `truncated` when the budget left some out.
function renderHits(page: Page, shown: readonly SearchHit[], truncated: boolean, kb: number) {
  const { result, nearest, memories, offset, limit } = page;
  const end = offset + shown.length;
  const nextOffset = truncated || result.hits.length === limit ? end : null;
  const lines = [`Searched by ${searchedBy(result)}.`];
  if (result.notice) lines.push(result.notice);
  if (shown.length === 0) {
    lines.push(offset > 0 ? `No hits past the first ${String(offset)}.` : 'Nothing matches.');
    if (result.hint) lines.push(`Did you mean "${result.hint}"?`);
    if (nearest && nearest.length > 0) lines.push('Nearest in meaning:', ...nearest.map(hitLine));
  } else {
    if (result.hint) lines.push(`No message has these words. Did you mean "${result.hint}"?`);
    lines.push(...shown.map(hitLine));
  }
  // Memories (remembered, or imported) beside the hits, on the first page: marked as such.
  if (memories) lines.push(...memoryLines(memories));
  lines.push(...pageLines(truncated, kb, end, nextOffset, 'More may follow'));
  const structured = output.parse({
    mode: result.mode,
    group: 'message',
    hits: shown,
    matches: result.matches,
    matchesCapped: result.matchesCapped,
    ranked: result.ranked,
    offset,
    nextOffset,
    ...(result.hint !== undefined ? { hint: result.hint } : {}),
    ...(result.notice !== undefined ? { notice: result.notice } : {}),
    ...(nearest ? { nearest } : {}),
    ...(memories && memories.length > 0 ? { memories } : {}),
    truncated,
  });
  return ok(lines.join('\n'), structured);
}

function reasonText(why: HitReason | undefined): string {
  const parts: string[] = [];
  if (why?.keyword) parts.push(`words #${String(why.keyword.rank)}`);
  if (why?.semantic)
    parts.push(
      `meaning #${String(why.semantic.rank)} (similarity ${why.semantic.similarity.toFixed(2)})`,
    );
  return parts.join(' + ');
}

/** A conversation found, and where it lives on its platform when its export tells. */
type FoundConversation = ConversationHit & { url?: string };

function conversationLines(c: FoundConversation): string[] {
  const where = (p: ConversationPassage): string =>
    p.kind === 'title'
      ? `title; first message ${p.messageId}`
      : p.attachment
        ? `attachment "${p.attachment.name ?? 'unnamed'}" of message ${p.messageId}, ${p.role}`
        : `message ${p.messageId}, ${p.role}`;
  return [
    `- ${c.createdAt.slice(0, 10)} [${c.source}] "${c.title}" (conversation ${c.conversationId}${c.url ? `, on the platform <${c.url}>` : ''}; ${reasonText(c.why)}${c.more > 0 ? `; ${String(c.more)} more passages matched` : ''})`,
    `  best (${where(c.best)}): ${c.best.snippet}`,
    ...c.passages.map((p) => `  also (${where(p)}): ${p.snippet}`),
  ];
}

// One page of conversations as text and structured content.
function renderConversations(
  result: ConversationResult,
  shown: readonly FoundConversation[],
  truncated: boolean,
  kb: number,
) {
  const end = result.offset + shown.length;
  const nextOffset = truncated || result.more ? end : null;
  const lines = [`Searched by ${searchedBy(result)}: ${result.summary}.`];
  if (result.notice) lines.push(result.notice);
  if (shown.length === 0) {
    lines.push(
      result.offset > 0
        ? `No conversations past the first ${String(result.offset)}.`
        : 'Nothing matches.',
    );
    if (result.hint) lines.push(`Did you mean "${result.hint}"?`);
    if (result.nearest && result.nearest.length > 0)
      lines.push('Nearest in meaning:', ...result.nearest.map(hitLine));
  } else {
    // Answers by meaning alone: the words matched nothing, and a near word may have.
    if (result.hint) lines.push(`No conversation has these words. Did you mean "${result.hint}"?`);
    lines.push(...shown.flatMap(conversationLines));
  }
  lines.push(...memoryLines(result.memories));
  lines.push(...pageLines(truncated, kb, end, nextOffset, 'More conversations follow'));
  const structured = output.parse({
    mode: result.mode,
    group: 'conversation',
    conversations: shown,
    summary: result.summary,
    matches: result.matches,
    matchesCapped: result.matchesCapped,
    ranked: result.conversations.length,
    offset: result.offset,
    nextOffset,
    ...(result.hint !== undefined ? { hint: result.hint } : {}),
    ...(result.notice !== undefined ? { notice: result.notice } : {}),
    ...(result.nearest ? { nearest: result.nearest } : {}),
    ...(result.memories.length > 0 ? { memories: result.memories } : {}),
    truncated,
  });
  return ok(lines.join('\n'), structured);
}

function shrinkConversation(c: FoundConversation, max: number): FoundConversation {
  const cut = (p: ConversationPassage): ConversationPassage => ({
    ...p,
    snippet: clipText(p.snippet, max),
  });
  return { ...c, title: clipText(c.title, max), best: cut(c.best), passages: c.passages.map(cut) };
}

function shrinkHit(hit: SearchHit, max: number): SearchHit {
  return { ...hit, snippet: clipText(hit.snippet, max), title: clipText(hit.title, max) };
}

/**
 * The conversations a search found, their snippets' matches in **bold** and each with where it
 * lives on its platform: the hits name the conversation, not its address, so it is looked up
 * for this page's conversations only.
 */
async function foundConversations(
  store: ToolContext['store'],
  found: readonly ConversationHit[],
): Promise<FoundConversation[]> {
  const passage = (p: ConversationPassage): ConversationPassage => ({
    ...p,
    snippet: plainSnippet(p.snippet),
  });
  const urls = await platformUrlsOf(
    store,
    found.map((c) => ({
      id: c.conversationId,
      source: c.source,
      platformId: c.platformConversationId,
    })),
  );
  return found.map((c) => {
    const url = urls.get(c.conversationId);
    return {
      ...c,
      ...(url ? { url } : {}),
      best: passage(c.best),
      passages: c.passages.map(passage),
    };
  });
}

/** `search_conversations`: words, meaning or both, grouped by conversation, with filters and paging. */
export function registerSearchTool(
  server: McpServer,
  { store, recaller, budget, limits }: ToolContext,
): void {
  server.registerTool(
    'search_conversations',
    {
      description:
        'Find past conversations by meaning and words; start here. Gives conversation ids and the best passages\' message ids. keyword mode: all words; OR, -word, "phrase", prefix*.',
      inputSchema: {
        query: z.string().min(1).describe('a question or keywords'),
        mode: z
          .enum(['hybrid', 'semantic', 'keyword'])
          .optional()
          .describe('hybrid (default once embedded)'),
        source: sourceInput('only this source'),
        since: dateInput('from'),
        until: z.string().optional().describe('before this, as since'),
        role: roleInput('only this role'),
        limit: limitInput(SEARCH_LIMIT, 10),
        offset: offsetInput,
        group: z
          .enum(['conversation', 'message'])
          .optional()
          .describe('message: one entry per message'),
      },
      outputSchema: advertised.shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const limit = args.limit ?? 10;
        const offset = args.offset ?? 0;
        const query = {
          text: args.query,
          limit,
          offset,
          // The server's query timeout bounds a search as it does a Cypher query.
          timeoutSeconds: limits.timeoutSeconds,
          ...(args.mode ? { mode: args.mode } : {}),
          ...(args.source ? { source: args.source as string } : {}),
          ...(args.since ? { since: args.since } : {}),
          ...(args.until ? { until: args.until } : {}),
          ...(args.role ? { role: args.role as string } : {}),
        };
        const plain = (hit: SearchHit) => ({ ...hit, snippet: plainSnippet(hit.snippet) });
        if (args.group !== 'message') {
          const grouped = await recaller.searchConversations(query);
          const answer: ConversationResult = {
            ...grouped,
            memories: grouped.memories.map((m) => shrinkHit(plain(m), 500)),
            ...(grouped.nearest ? { nearest: grouped.nearest.map(plain) } : {}),
          };
          return fitPage(
            await foundConversations(store, grouped.conversations),
            (shown, truncated) => renderConversations(answer, shown, truncated, budget.kb),
            budget,
            shrinkConversation,
          ).result;
        }
        const result = await recaller.search(query);
        // Memory snippets are cut short: they ride beside a page the budget is fitted to.
        const memories = result.memories?.map((m) => shrinkHit(plain(m), 500));
        const page = { result, nearest: result.nearest?.map(plain), memories, offset, limit };
        const render = (shown: readonly SearchHit[], truncated: boolean) =>
          renderHits(page, shown, truncated, budget.kb);
        return fitPage(result.hits.map(plain), render, budget, shrinkHit).result;
      }),
  );
}

/** The memories that matched, beside the answer, each marked as a memory with its source. */
function memoryLines(memories: readonly SearchHit[]): string[] {
  if (memories.length === 0) return [];
  return [
    'Memories matching:',
    ...memories.map(
      (m) =>
        `- memory ${m.memory?.id ?? ''} [${m.memory?.type ?? ''}] (${memoryWhy(m)})${m.conversationId ? ` (from conversation ${m.conversationId}${m.messageId ? `, message ${m.messageId}` : ''})` : ''}: ${m.snippet}`,
    ),
  ];
}

/** The closing line: where the answer was cut to its budget, or where the next page starts. */
function pageLines(
  truncated: boolean,
  kb: number,
  end: number,
  nextOffset: number | null,
  more: string,
): string[] {
  if (truncated)
    return [
      `Truncated to stay within the ${String(kb)} KB result budget: call again with offset ${String(end)}, or a smaller limit.`,
    ];
  if (nextOffset !== null) return [`${more}: call again with offset ${String(nextOffset)}.`];
  return [];
}
