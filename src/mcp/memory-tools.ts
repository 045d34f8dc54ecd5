import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MATCH_END, MATCH_START } from '../api/view.js';
import {
  MEMORY_CONTENT_LIMIT,
  MEMORY_PAGE,
  MEMORY_TAG_LIMIT,
  MEMORY_TYPES,
  memoryView,
  type MemoryView,
  RELATION_TYPES,
} from '../api/memory.js';
import type { DataFolder, Diagnostic } from '../index.js';
import { conversationOutput, memoryOutput, truncatedOutput } from './output-schemas.js';
import { clipText, fitPage } from './result-budget.js';
import type { ToolContext } from './tool-context.js';
import { guarded, ok } from './tool-result.js';

/** What the memory tools work on: the tools' context, and the data folder written to. */
export interface MemoryToolDeps extends ToolContext {
  folder: DataFolder;
}

const memoryShape = memoryOutput;

const plain = (text: string): string =>
  text.split(MATCH_START).join('**').split(MATCH_END).join('**');

function memoryLine(m: MemoryView): string {
  const source = m.source
    ? ` (from conversation ${m.source.conversationId}${m.source.title ? ` "${m.source.title}"` : ''}${m.source.messageId ? `, message ${m.source.messageId}` : ''})`
    : '';
  const tags = m.tags.length > 0 ? ` #${m.tags.join(' #')}` : '';
  return `- [${m.type}] ${m.snippet !== undefined ? m.snippet : m.content}${tags}${source} — id ${m.id}, ${m.createdAt.slice(0, 10)}`;
}

const withPlainSnippet = (m: MemoryView): MemoryView =>
  m.snippet !== undefined ? { ...m, snippet: plain(m.snippet) } : m;

// A memory too long for the budget alone: its text cut, marked where.
const shrinkMemory = (m: MemoryView, max: number): MemoryView => ({
  ...m,
  content: clipText(m.content, max),
  ...(m.snippet !== undefined ? { snippet: clipText(m.snippet, max) } : {}),
});

/**
 * What a write did to a signed bundle's signature, for the agent as for the CLI: each failure
 * found before it, then the signature dropped (a line each, in the text only).
 */
function signatureLines(notes: readonly Diagnostic[]): string {
  return notes
    .slice(0, 11)
    .map((n) =>
      n.level === 'warning'
        ? `\nwarning: the bundle's signature fails: ${n.file ?? ''}${n.record ? ` ${n.record}` : ''}: ${n.message}`
        : `\nnote: ${n.message}`,
    )
    .join('');
}

const TRUNCATED = (kb: number): string =>
  `Truncated to stay within the ${String(kb)} KB result budget`;

/**
 * The longest a memory change waits for another writer (an import) before the agent is told
 * the folder is busy and to try again, as the web app tells a page: a call never hangs.
 */
export const MEMORY_LOCK_WAIT_MS = 3000;

/** `remember`: a new memory, with its source. */
function registerRemember(server: McpServer, deps: MemoryToolDeps): void {
  // The server's search model embeds the new memory: no second model loaded for each remember.
  const lent = {
    embedder: () => deps.recaller.embedder(),
    lockWaitMilliseconds: MEMORY_LOCK_WAIT_MS,
  };
  server.registerTool(
    'remember',
    {
      description: 'Store a lasting fact, preference or goal about the user.',
      inputSchema: {
        content: z
          .string()
          .min(1)
          .describe(
            `one or two sentences (${MEMORY_CONTENT_LIMIT.toLocaleString('en')} characters at most)`,
          ),
        type: z.enum(MEMORY_TYPES).describe('its PAM type'),
        // Checked again by the library (its MemoryInputError names the tag): a tag is a word.
        tags: z
          .array(z.string().min(1).max(MEMORY_TAG_LIMIT))
          .max(20)
          .optional()
          .describe('lower-case words'),
        confidence: z.number().min(0).max(1).optional().describe('how sure'),
        conversation_id: z.string().optional().describe('its source conversation'),
        message_id: z.string().optional().describe('its source message'),
        // Kept short: the tool list must stay under 12 KB (a relation's confidence is the
        // library's and the CLI's, not asked here).
        relations: z
          .array(z.object({ type: z.enum(RELATION_TYPES), to: z.string() }))
          .optional()
          .describe('it {type} memory {to} (id or 8+ char prefix)'),
      },
      outputSchema: {
        id: z.string(),
        created: z.boolean(),
        vector: z.object({ state: z.enum(['embedded', 'pending', 'none']), note: z.string() }),
        memory: memoryShape,
        truncated: truncatedOutput,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    (args) =>
      guarded(async () => {
        const { memory, created, vector, notes } = await deps.folder.remember(
          {
            content: args.content,
            type: args.type,
            tags: args.tags,
            confidence: args.confidence,
            conversationId: args.conversation_id,
            messageId: args.message_id,
            method: 'llm_inference',
            relations: args.relations,
          },
          lent,
        );
        const full = await memoryView(memory, deps.store);
        // Each of the text and the structured content holds the memory once: half the budget each.
        const view = shrinkMemory(full, Math.floor(deps.budget.maxBytes / 8));
        const truncated = view.content !== full.content;
        const text = `${created ? 'Remembered' : 'Already remembered'}: ${memoryLine(view).slice(2)}\n(${vector.note})${truncated ? `\n(${TRUNCATED(deps.budget.kb)}: list_memories gives it in pages)` : ''}${signatureLines(notes)}`;
        return ok(text, { id: memory.id, created, vector, memory: view, truncated });
      }),
  );
}

/** `forget`: retracts a memory. */
function registerForget(server: McpServer, deps: MemoryToolDeps): void {
  server.registerTool(
    'forget',
    {
      description:
        'Retract a memory by its id: it stops appearing; the bundle keeps it, marked retracted.',
      inputSchema: {
        id: z.string().min(1).describe('memory id'),
      },
      outputSchema: {
        id: z.string(),
        status: z.literal('retracted'),
        content: z.string(),
        truncated: truncatedOutput,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    },
    (args) =>
      guarded(async () => {
        const { memory, notes } = await deps.folder.forget(args.id, {
          lockWaitMilliseconds: MEMORY_LOCK_WAIT_MS,
        });
        const content = clipText(memory.content, Math.floor(deps.budget.maxBytes / 8));
        const truncated = content !== memory.content;
        return ok(
          `Forgot memory ${memory.id}: ${content}${truncated ? ` (${TRUNCATED(deps.budget.kb)})` : ''}${signatureLines(notes)}`,
          { id: memory.id, status: 'retracted', content, truncated },
        );
      }),
  );
}

const listOutput = z.object({
  total: z.number(),
  offset: z.number(),
  nextOffset: z.number().nullable(),
  memories: z.array(memoryShape),
  truncated: truncatedOutput,
});

/** `list_memories`: a page of memories, by words, type and tag. */
function registerListMemories(server: McpServer, deps: MemoryToolDeps): void {
  const { budget, folder } = deps;
  server.registerTool(
    'list_memories',
    {
      description: "The user's memories, newest or best match first, by words, type and tag.",
      inputSchema: {
        query: z.string().optional().describe('words (OR, -word, "phrase")'),
        type: z.enum(MEMORY_TYPES).optional().describe('only this type'),
        tag: z.string().min(1).optional().describe('only this tag'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MEMORY_PAGE.max)
          .optional()
          .describe(`default ${String(MEMORY_PAGE.default)}`),
        offset: z.number().int().min(0).optional().describe("the previous page's nextOffset"),
      },
      outputSchema: listOutput.shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const page = await folder.memories(args);
        const render = (shown: readonly MemoryView[], truncated: boolean) => {
          const end = page.offset + shown.length;
          const next = end < page.total ? end : null;
          const lines =
            shown.length > 0
              ? shown.map(memoryLine)
              : [
                  page.total > 0 && page.offset >= page.total
                    ? `No memories past the first ${String(page.total)}.`
                    : 'No memories match.',
                ];
          if (shown.length > 0)
            lines.push(
              `(memories ${String(page.offset + 1)}–${String(end)} of ${String(page.total)}${next !== null ? `; next offset ${String(next)}` : ''})`,
            );
          if (truncated)
            lines.push(
              `${TRUNCATED(budget.kb)}: call again with offset ${String(end)}, or a smaller limit.`,
            );
          return ok(
            lines.join('\n'),
            listOutput.parse({
              total: page.total,
              offset: page.offset,
              nextOffset: next,
              memories: shown,
              truncated,
            }),
          );
        };
        return fitPage(page.items.map(withPlainSnippet), render, budget, shrinkMemory).result;
      }),
  );
}

const recentOutput = z.object({
  since: z.string(),
  newConversations: z.object({ total: z.number(), items: z.array(conversationOutput) }),
  mostActive: z.array(
    z.object({
      conversationId: z.string(),
      title: z.string(),
      source: z.string(),
      messages: z.number(),
    }),
  ),
  memoriesAdded: z.object({ total: z.number(), items: z.array(memoryShape) }),
  truncated: truncatedOutput,
});

/** `recent_activity`: what happened since a time. */
function registerRecentActivity(server: McpServer, deps: MemoryToolDeps): void {
  const { budget, folder } = deps;
  server.registerTool(
    'recent_activity',
    {
      description: 'New conversations, the most active ones and memories added since a time.',
      inputSchema: {
        since: z.string().min(1).describe('24h, 7d, 2w, today, yesterday or 2024-05-01'),
      },
      // tools/list names the new conversations and memories; mostActive comes too.
      outputSchema: recentOutput.omit({ mostActive: true }).shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const recent = await folder.recent({ since: args.since });
        const render = (shown: readonly MemoryView[], truncated: boolean) => {
          const lines = [
            `Since ${recent.since}:`,
            `${String(recent.newConversations.total)} new conversations.`,
          ];
          for (const c of recent.newConversations.items)
            lines.push(`- ${c.createdAt.slice(0, 10)} [${c.source}] "${c.name}" (id ${c.id})`);
          if (recent.mostActive.length > 0) lines.push('Most active:');
          for (const c of recent.mostActive)
            lines.push(
              `- [${c.source}] "${c.title}": ${String(c.messages)} messages (id ${c.conversationId})`,
            );
          lines.push(
            `${String(recent.memoriesAdded.total)} memories added.`,
            ...shown.map(memoryLine),
          );
          if (truncated) lines.push(`${TRUNCATED(budget.kb)}: list_memories gives them in pages.`);
          return ok(
            lines.join('\n'),
            recentOutput.parse({
              ...recent,
              memoriesAdded: { total: recent.memoriesAdded.total, items: shown },
              truncated,
            }),
          );
        };
        return fitPage(recent.memoriesAdded.items, render, budget, shrinkMemory).result;
      }),
  );
}

/** `remember`, `forget`, `list_memories` and `recent_activity`: the agent's own memory. */
export function registerMemoryTools(server: McpServer, deps: MemoryToolDeps): void {
  registerRemember(server, deps);
  registerForget(server, deps);
  registerListMemories(server, deps);
  registerRecentActivity(server, deps);
}
