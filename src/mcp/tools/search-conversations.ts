import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MATCH_END, MATCH_START, type SearchHit, type SearchResult } from '../../index.js';
import { hitOutput, truncatedOutput } from '../output-schemas.js';
import { clipText, fitPage } from '../result-budget.js';
import type { ToolContext } from '../tool-context.js';
import { dateInput, limitInput, offsetInput, roleInput, sourceInput } from '../tool-inputs.js';
import { guarded, ok } from '../tool-result.js';

/** The most hits one search returns to an agent. */
export const SEARCH_LIMIT = 100;

const output = z.object({
  mode: z.enum(['hybrid', 'semantic', 'keyword']).describe('how the hits were found'),
  hits: z.array(hitOutput),
  matches: z.number().int().describe('messages and attachments matching, counted up to a cap'),
  matchesCapped: z.boolean().describe('true when more match than matches says'),
  ranked: z.number().int(),
  offset: z.number().int(),
  nextOffset: z.number().int().nullable().describe('where the next page starts; null when none'),
  hint: z.string().optional().describe('a near spelling that would match, when nothing did'),
  notice: z.string().optional(),
  nearest: z.array(hitOutput).optional().describe('the hits nearest in meaning, when none matched'),
  memories: z
    .array(
      hitOutput.extend({
        memory: z.object({ id: z.string(), type: z.string(), tags: z.array(z.string()) }),
      }),
    )
    .optional()
    .describe(
      'active memories matching by words, meaning or both as the hits (kind memory, why says which; first page only): list_memories and forget take their id',
    ),
  truncated: truncatedOutput,
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

// One page of hits as text and structured content; `truncated` when the budget left some out.
function renderHits(page: Page, shown: readonly SearchHit[], truncated: boolean, kb: number) {
  const { result, nearest, memories, offset, limit } = page;
  const end = offset + shown.length;
  const nextOffset = truncated || result.hits.length === limit ? end : null;
  const lines = [`Searched by ${result.mode}.`];
  if (result.notice) lines.push(result.notice);
  if (shown.length === 0) {
    lines.push(offset > 0 ? `No hits past the first ${String(offset)}.` : 'Nothing matches.');
    if (result.hint) lines.push(`Did you mean "${result.hint}"?`);
    if (nearest && nearest.length > 0) lines.push('Nearest in meaning:', ...nearest.map(hitLine));
  } else lines.push(...shown.map(hitLine));
  // Memories (remembered, or imported) beside the hits, on the first page: marked as such.
  if (memories && memories.length > 0)
    lines.push(
      'Memories matching:',
      ...memories.map(
        (m) =>
          `- memory ${m.memory?.id ?? ''} [${m.memory?.type ?? ''}] (${memoryWhy(m)})${m.conversationId ? ` (from conversation ${m.conversationId}${m.messageId ? `, message ${m.messageId}` : ''})` : ''}: ${m.snippet}`,
      ),
    );
  if (truncated)
    lines.push(
      `Truncated to stay within the ${String(kb)} KB result budget: call again with offset ${String(end)}, or a smaller limit.`,
    );
  else if (nextOffset !== null)
    lines.push(`More may follow: call again with offset ${String(nextOffset)}.`);
  const structured = output.parse({
    mode: result.mode,
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

function shrinkHit(hit: SearchHit, max: number): SearchHit {
  return { ...hit, snippet: clipText(hit.snippet, max), title: clipText(hit.title, max) };
}

/** `search_conversations`: words, meaning or both, with filters and paging. */
export function registerSearchTool(
  server: McpServer,
  { recaller, budget, limits }: ToolContext,
): void {
  server.registerTool(
    'search_conversations',
    {
      title: 'Search past AI conversations',
      description:
        'Search every message (and pasted or attached text) of the imported AI chat history by meaning and by words. mode hybrid (the default once vectors exist) fuses both; semantic finds paraphrases with no word in common; keyword is BM25 over words: all must match, OR, NOT or -word, "quoted phrases", prefix*. Returns conversation ids (for get_conversation), message ids (for get_message_context), titles, dates, snippets (matches in **bold**) and why each hit matched.',
      inputSchema: {
        query: z.string().min(1).describe('what to look for, in your own words or as keywords'),
        mode: z
          .enum(['hybrid', 'semantic', 'keyword'])
          .optional()
          .describe('hybrid (default when the history has vectors), semantic, or keyword'),
        source: sourceInput('only messages from this source'),
        since: dateInput('only messages at or after this'),
        until: dateInput('only messages before this'),
        role: roleInput('only messages by this role'),
        limit: limitInput(SEARCH_LIMIT, 10),
        offset: offsetInput,
      },
      outputSchema: output.shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const limit = args.limit ?? 10;
        const offset = args.offset ?? 0;
        const result = await recaller.search({
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
        });
        const plain = (hit: SearchHit) => ({ ...hit, snippet: plainSnippet(hit.snippet) });
        // Memory snippets are cut short: they ride beside a page the budget is fitted to.
        const memories = result.memories?.map((m) => shrinkHit(plain(m), 500));
        const page = { result, nearest: result.nearest?.map(plain), memories, offset, limit };
        const render = (shown: readonly SearchHit[], truncated: boolean) =>
          renderHits(page, shown, truncated, budget.kb);
        return fitPage(result.hits.map(plain), render, budget, shrinkHit).result;
      }),
  );
}
