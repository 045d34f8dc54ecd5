import type { Command } from 'commander';
import { shortIds } from '../../api/view.js';
import type { ConversationFilter, ConversationInfo, ConversationPage } from '../../api/query.js';
import type { DataFolder, StoreReader } from '../../index.js';
import { checkChoice, type Choice } from '../choices.js';
import { SOURCE_CHOICE } from '../source-choice.js';
import type { CliIo } from '../cli-io.js';
import { plural } from '../plural.js';
import { withReader, withStoreOptions, type StoreOptions } from '../store-options.js';
import { UsageError } from '../usage-error.js';

export type ListOptions = StoreOptions & {
  source?: string;
  since?: string;
  until?: string;
  title?: string;
  project?: string;
  branches?: boolean;
  tools?: boolean;
  minMessages?: string;
  sort: string;
  limit: string;
  offset: string;
  json?: boolean;
  gone?: boolean;
};

/** A page of conversations as `list` shows them. */
type ListPage = Pick<ConversationPage, 'total'> & { items: readonly ConversationInfo[] };

type Sort = 'updated' | 'created' | 'messages' | 'title';

/** How `list` sorts. */
export const SORT_CHOICE: Choice<Sort> = {
  noun: 'sort',
  plural: 'sorts',
  values: ['updated', 'created', 'messages', 'title'],
};

const STORE_SORT = {
  updated: 'updated',
  created: 'newest',
  messages: 'most-messages',
  title: 'title',
} as const satisfies Record<Sort, ConversationFilter['sort']>;

/** What `list --json` prints for one conversation. */
export interface ListedConversation {
  id: string;
  platformId: string;
  title: string;
  source: string;
  createdAt: string;
  updatedAt: string | null;
  messages: number;
}

function whole(text: string, option: string, least: number): number {
  if (!/^\d+$/.test(text) || Number(text) < least)
    throw new UsageError(
      `${option} takes a whole number${least > 0 ? ` from ${least}` : ''}, not "${text}"`,
    );
  return Number(text);
}

/** The store filter the options ask for; a bad value is one sentence. */
export function listFilterOf(options: ListOptions): ConversationFilter {
  return {
    source:
      options.source !== undefined
        ? checkChoice('--source', options.source, SOURCE_CHOICE)
        : undefined,
    since: options.since,
    until: options.until,
    title: options.title,
    project: options.project,
    hasBranches: options.branches === true || undefined,
    hasToolCalls: options.tools === true || undefined,
    minMessages:
      options.minMessages !== undefined
        ? whole(options.minMessages, '--min-messages', 0)
        : undefined,
    sort: STORE_SORT[checkChoice('--sort', options.sort, SORT_CHOICE)],
    limit: whole(options.limit, '--limit', 1),
    offset: whole(options.offset, '--offset', 0),
  };
}

function listed(info: ConversationInfo): ListedConversation {
  return {
    id: info.id,
    platformId: info.platformId,
    title: info.title ?? info.name,
    source: info.source,
    createdAt: info.createdAt,
    updatedAt: info.updatedAt,
    messages: info.messageCount,
  };
}

/** `list --json`: `{conversations, total, offset}`, ids whole. */
export function listJson(page: ListPage, offset: number): string {
  return JSON.stringify(
    { conversations: page.items.map(listed), total: page.total, offset },
    null,
    2,
  );
}

function cut(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= width) return flat;
  return width <= 1 ? '…'.slice(0, width) : `${flat.slice(0, width - 1)}…`;
}

/**
 * The page as a table that fits `width` columns: short ids (never cut), the day it was last
 * updated, the source, the message count, and the title cut with an ellipsis to what is left.
 */
export function formatList(page: ListPage, offset: number, width = 80): string[] {
  if (page.items.length === 0)
    return [
      page.total > 0
        ? `no conversations past the first ${page.total.toLocaleString('en-US')}`
        : 'no conversations match',
    ];
  const ids = shortIds(page.items.map((c) => c.id));
  const rows = page.items.map((c) => ({
    id: ids.get(c.id) ?? c.id,
    day: (c.updatedAt ?? c.createdAt).slice(0, 10),
    source: c.source,
    messages: c.messageCount.toLocaleString('en-US'),
    title: c.name,
  }));
  const idWidth = Math.max(2, ...rows.map((r) => r.id.length));
  const sourceWidth = Math.max(6, ...rows.map((r) => r.source.length));
  const countWidth = Math.max(4, ...rows.map((r) => r.messages.length));
  const fixed = idWidth + 2 + 10 + 2 + sourceWidth + 2 + countWidth + 2;
  const titleWidth = Math.max(10, width - fixed);
  const line = (id: string, day: string, source: string, count: string, title: string): string =>
    `${id.padEnd(idWidth)}  ${day.padEnd(10)}  ${source.padEnd(sourceWidth)}  ${count.padStart(countWidth)}  ${cut(title, titleWidth)}`.trimEnd();
  const last = offset + page.items.length;
  return [
    line('id', 'updated', 'source', 'msgs', 'title'),
    ...rows.map((r) => line(r.id, r.day, r.source, r.messages, r.title)),
    '',
    `${(offset + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${plural(page.total, 'conversation')}${last < page.total ? ` (--offset ${last} for more)` : ''}`,
  ];
}

/** `chatgraph list`: conversations, filtered, sorted and a page at a time. */
export async function runList(options: ListOptions, io: CliIo): Promise<void> {
  const filter = listFilterOf(options);
  const page: ListPage = await withReader(options, (store, folder) =>
    options.gone === true ? gonePage(store, folder, filter) : store.listConversations(filter),
  );
  const offset = filter.offset ?? 0;
  if (options.json) {
    io.out(listJson(page, offset));
    return;
  }
  const width = io.stdoutIsTTY ? process.stdout.columns || 80 : 80;
  for (const line of formatList(page, offset, width)) io.out(line);
}

// `--gone`: the conversations kept only here (their agent deleted them while `watch` followed
// them), the most recently gone first; of the filters, only --source applies.
async function gonePage(
  store: StoreReader,
  folder: DataFolder,
  filter: ConversationFilter,
): Promise<ListPage> {
  const infos: ConversationInfo[] = [];
  for (const gone of await folder.goneConversations()) {
    const info = await store.conversation(gone.id);
    if (info && (filter.source === undefined || info.source === filter.source)) infos.push(info);
  }
  const offset = filter.offset ?? 0;
  return { total: infos.length, items: infos.slice(offset, offset + (filter.limit ?? 50)) };
}

export function registerList(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('list')
      .alias('ls')
      .description('list the conversations, last updated first, with filters and a page at a time'),
  )
    .option('--source <source>', 'only this source (chatgpt, claude-ai, claude-code, ...)')
    .option('--since <date>', 'only conversations created at or after this date')
    .option('--until <date>', 'only conversations created before this date')
    .option('--title <words>', 'only titles containing these words')
    .option(
      '--project <words>',
      'only Claude Code sessions of a project whose name or path has these words',
    )
    .option('--branches', 'only conversations that branch (edited prompts, regenerated answers)')
    .option('--tools', 'only conversations with tool calls')
    .option(
      '--gone',
      'only conversations kept only here: their agent deleted them while watch followed it (with --source)',
    )
    .option('--min-messages <n>', 'only conversations with at least this many messages')
    .option('--sort <sort>', 'updated, created, messages or title', 'updated')
    .option('--limit <n>', 'how many', '50')
    .option('--offset <n>', 'conversations to skip (the next page)', '0')
    .option(
      '--json',
      'print one JSON document: {conversations: [{id, platformId, title, source, createdAt, updatedAt, messages}], total, offset} (ids whole)',
    )
    .action((options: ListOptions) => runList(options, io));
}
