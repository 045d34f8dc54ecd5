import type { Command } from 'commander';
import { MATCH_END, MATCH_START } from '../../api/view.js';
import {
  MEMORY_TYPES,
  MemoryInputError,
  memoryView,
  type MemoryType,
  type MemoryView,
} from '../../api/memory.js';
import { MEMORY_TYPE_CHOICE, checkChoice } from '../choices.js';
import { sayNotes } from '../signature-notes.js';
import type { CliIo } from '../cli-io.js';
import { onWaitOf } from '../import-options.js';
import {
  openForWriting,
  withReader,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';

function typeOf(text: string | undefined): MemoryType | undefined {
  if (text === undefined) return undefined;
  return checkChoice('--type', text, MEMORY_TYPE_CHOICE);
}

function whole(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text))
    throw new MemoryInputError(`${option} takes a whole number, not "${text}"`);
  return Number(text);
}

// Matched words in bold on a terminal, as `search` shows them; plain marks otherwise.
function marked(text: string, tty: boolean): string {
  return text
    .split(MATCH_START)
    .join(tty ? '\u001b[1m' : '«')
    .split(MATCH_END)
    .join(tty ? '\u001b[22m' : '»');
}

function memoryLines(m: MemoryView, tty: boolean): string {
  const head = `${m.id}  ${m.createdAt.slice(0, 10)}  [${m.type}]${m.status !== 'active' ? ` (${m.status}${m.supersededBy ? ` by ${m.supersededBy}` : ''})` : ''}${m.tags.length > 0 ? `  #${m.tags.join(' #')}` : ''}`;
  const lines = [head, `  ${marked(m.snippet ?? m.content, tty).replace(/\n/g, '\n  ')}`];
  if (m.source)
    lines.push(
      `  from ${m.source.title ? `"${m.source.title}" ` : ''}(conversation ${m.source.conversationId}${m.source.messageId ? `, message ${m.source.messageId}` : ''})`,
    );
  return lines.join('\n');
}

interface ListOptions extends StoreOptions {
  query?: string;
  type?: string;
  tag?: string;
  limit?: string;
  offset?: string;
  all?: boolean;
  json?: boolean;
}

interface RememberOptions extends StoreOptions {
  type: string;
  tag?: string[];
  confidence?: string;
  conversation?: string;
  message?: string;
  json?: boolean;
  supports: string[];
  contradicts: string[];
  extends: string[];
  derivedFrom: string[];
  relatedTo: string[];
}

// Each relation flag may be given again, for each memory it names.
const more = (value: string, before: string[]): string[] => [...before, value];

/** The PAM relations the flags give, from the new memory to each memory they name. */
function relationsOf(options: RememberOptions) {
  return [
    ...options.supports.map((to) => ({ type: 'supports' as const, to })),
    ...options.contradicts.map((to) => ({ type: 'contradicts' as const, to })),
    ...options.extends.map((to) => ({ type: 'extends' as const, to })),
    ...options.derivedFrom.map((to) => ({ type: 'derived_from' as const, to })),
    ...options.relatedTo.map((to) => ({ type: 'related_to' as const, to })),
  ];
}

/** `chatgraph memories`: a page of memories. */
export function registerMemories(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('memories')
      .description(
        'list the memories (remembered, or imported from Claude), newest first or by words',
      ),
  )
    .option('--query <words>', 'only memories with these words (the search syntax), best first')
    .option('--type <type>', `only this type: ${MEMORY_TYPES.join(', ')}`)
    .option('--tag <tag>', 'only memories with this tag')
    .option('--limit <n>', 'how many (default 20, at most 200)')
    .option('--offset <n>', 'memories to skip (the next page)')
    .option('--all', 'superseded and retracted memories too (the history)')
    .option(
      '--json',
      'print one JSON document: {items: [{id, type, content, status, tags, createdAt, source, ...}], total, offset}',
    )
    .action(async (options: ListOptions) => {
      await withReader(options, async (_store, folder) => {
        const page = await folder.memories({
          query: options.query,
          type: typeOf(options.type),
          tag: options.tag,
          limit: whole(options.limit, '--limit'),
          offset: whole(options.offset, '--offset'),
          status: options.all ? 'all' : 'active',
        });
        if (options.json) {
          io.out(JSON.stringify(page, null, 2));
          return;
        }
        if (page.items.length === 0) {
          io.out(
            page.total > 0
              ? `no memories past the first ${String(page.total)}`
              : 'no memories match',
          );
          return;
        }
        io.out(page.items.map((m) => memoryLines(m, io.stdoutIsTTY)).join('\n\n'));
        const last = page.offset + page.items.length;
        io.out(
          `\n${String(page.offset + 1)}–${String(last)} of ${String(page.total)}${last < page.total ? ` (--offset ${String(last)} for more)` : ''}`,
        );
      });
    });
}

/** `chatgraph remember <content>`: a new memory. */
export function registerRemember(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('remember')
      .description('remember something: a PAM memory in the bundle, and a Memory node in the graph')
      .argument('<content>', 'what to remember'),
  )
    .requiredOption('--type <type>', MEMORY_TYPES.join(', '))
    .option('--tag <tag...>', 'tags (lower case; letters, digits, - and _)')
    .option('--confidence <0-1>', 'how sure, from 0 to 1')
    .option(
      '--conversation <id>',
      "the conversation it came from (chatgraph's or the platform's id)",
    )
    .option('--message <id>', 'the message it came from (its id as search --format json gives it)')
    .option('--supports <id>', 'a memory it is evidence for (again for more)', more, [])
    .option('--contradicts <id>', 'a memory it conflicts with (again for more)', more, [])
    .option('--extends <id>', 'a memory it adds detail to (again for more)', more, [])
    .option('--derived-from <id>', 'a memory it was inferred from (again for more)', more, [])
    .option('--related-to <id>', 'a memory it relates to otherwise (again for more)', more, [])
    .option(
      '--json',
      'print one JSON document: {created, vector, memory: {id, type, content, ...}}',
    )
    .action(async (content: string, options: RememberOptions) => {
      const confidence = options.confidence !== undefined ? Number(options.confidence) : undefined;
      if (confidence !== undefined && Number.isNaN(confidence))
        throw new MemoryInputError(
          `--confidence takes a number from 0 to 1, not "${options.confidence ?? ''}"`,
        );
      const type = typeOf(options.type) ?? 'fact';
      const folder = await openForWriting(options, { onWait: onWaitOf(io) });
      const { memory, created, vector, notes } = await folder.remember({
        content,
        type,
        tags: options.tag,
        confidence,
        conversationId: options.conversation,
        messageId: options.message,
        method: 'manual',
        relations: relationsOf(options),
      });
      sayNotes(notes, folder.bundle, io);
      if (options.json) {
        io.out(JSON.stringify({ created, vector, memory: await memoryView(memory) }, null, 2));
        return;
      }
      io.out(`${created ? 'remembered' : 'already remembered'}: ${memory.id}`);
      io.out(vector.note);
    });
}

/** `chatgraph forget <id>`: retracts a memory. */
export function registerForget(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('forget')
      .description('forget a memory: marked retracted in the bundle, gone from lists and searches')
      .argument('<id>', "the memory's id (as memories and remember print it)"),
  )
    .option(
      '--json',
      'print one JSON document: the retracted memory {id, type, content, status, ...}',
    )
    .action(async (id: string, options: StoreOptions & { json?: boolean }) => {
      const folder = await openForWriting(options, { onWait: onWaitOf(io) });
      const { memory, notes } = await folder.forget(id);
      sayNotes(notes, folder.bundle, io);
      if (options.json) io.out(JSON.stringify(await memoryView(memory), null, 2));
      else io.out(`forgot ${memory.id}: ${memory.content}`);
    });
}
