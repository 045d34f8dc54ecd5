import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MATCH_END, MATCH_START, type Recaller, type SearchHit } from '../index.js';

/** The most hits one search returns to an agent. */
export const SEARCH_LIMIT = 100;

type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

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
  return `- ${h.createdAt.slice(0, 10)} [${h.source}] "${h.title}" (conversation ${h.conversationId}, ${where} ${h.messageId}, ${h.role}; ${describeWhy(h)}): ${plainSnippet(h.snippet)}`;
}

/** `search_conversations`: words, meaning or both, with filters and paging. */
export function registerSearchTool(
  server: McpServer,
  recaller: Recaller,
  guarded: (run: () => Promise<ToolResult>) => Promise<ToolResult>,
): void {
  server.registerTool(
    'search_conversations',
    {
      title: 'Search past AI conversations',
      description:
        'Search every message (and pasted or attached text) of the imported AI chat history by meaning and by words. mode hybrid (the default once vectors exist) fuses both; semantic finds paraphrases with no word in common; keyword is BM25 over words: all must match, OR, NOT or -word, "quoted phrases", prefix*. Returns conversation ids, titles, dates, snippets (matches in **bold**) and why each hit matched.',
      inputSchema: {
        query: z.string().min(1).describe('what to look for, in your own words or as keywords'),
        mode: z
          .enum(['hybrid', 'semantic', 'keyword'])
          .optional()
          .describe('hybrid (default when the history has vectors), semantic, or keyword'),
        source: z.string().optional().describe('only this source: chatgpt, claude-ai, ...'),
        since: z.string().optional().describe('ISO date: messages at or after it'),
        until: z.string().optional().describe('ISO date: messages before it'),
        role: z.enum(['user', 'assistant', 'tool', 'system']).optional(),
        limit: z
          .number()
          .int()
          .min(1)
          .max(SEARCH_LIMIT)
          .optional()
          .describe(`at most ${String(SEARCH_LIMIT)}, default 10`),
        offset: z.number().int().min(0).optional().describe('hits to skip, for the next page'),
      },
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
          ...(args.mode ? { mode: args.mode } : {}),
          ...(args.source ? { source: args.source } : {}),
          ...(args.since ? { since: args.since } : {}),
          ...(args.until ? { until: args.until } : {}),
          ...(args.role ? { role: args.role } : {}),
        });
        const hits = result.hits.map((hit) => ({ ...hit, snippet: plainSnippet(hit.snippet) }));
        const lines = [`Searched by ${result.mode}.`];
        if (result.notice) lines.push(result.notice);
        if (hits.length === 0) {
          lines.push(offset > 0 ? `No hits past the first ${String(offset)}.` : 'Nothing matches.');
          if (result.hint) lines.push(`Did you mean "${result.hint}"?`);
          if (result.nearest && result.nearest.length > 0)
            lines.push('Nearest in meaning:', ...result.nearest.map(hitLine));
        } else lines.push(...result.hits.map(hitLine));
        if (hits.length === limit)
          lines.push(`More may follow: call again with offset ${String(offset + limit)}.`);
        // Memories (remembered, or imported) beside the hits, on the first page: marked as such.
        const memories = (result.memories ?? []).map((m) => ({
          ...m,
          snippet: plainSnippet(m.snippet),
        }));
        if (memories.length > 0)
          lines.push(
            'Memories matching:',
            ...memories.map(
              (m) =>
                `- memory ${m.memory?.id ?? ''} [${m.memory?.type ?? ''}]${m.conversationId ? ` (from conversation ${m.conversationId}${m.messageId ? `, message ${m.messageId}` : ''})` : ''}: ${m.snippet}`,
            ),
          );
        return {
          content: [{ type: 'text', text: lines.join('\n') }],
          structuredContent: {
            mode: result.mode,
            hits,
            matches: result.matches,
            matchesCapped: result.matchesCapped,
            ranked: result.ranked,
            offset,
            ...(result.hint !== undefined ? { hint: result.hint } : {}),
            ...(result.notice !== undefined ? { notice: result.notice } : {}),
            ...(result.nearest ? { nearest: result.nearest } : {}),
            ...(memories.length > 0 ? { memories } : {}),
          },
        };
      }),
  );
}
