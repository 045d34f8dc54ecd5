import { queryLimitLine } from '../limit-line.js';
import type { Command } from 'commander';
import { CLI_QUERY_LIMITS } from '../../api/query.js';
import { MATCH_END, MATCH_START } from '../../api/view.js';
import type { CliIo } from '../cli-io.js';
import {
  conversationsJson,
  formatConversations,
  formatSearch,
  searchJson,
  searchQueryOf,
  type SearchCliOptions,
} from '../format-search.js';
import {
  checkFormat,
  withFormatOptions,
  withReader,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';
import { unknownOption } from '../usage-line.js';
import { UsageError } from '../usage-error.js';
import { wrapWords } from '../wrap-words.js';

export type SearchOptions = StoreOptions & SearchCliOptions;

/** Matches in bold on a terminal, «between marks» otherwise. */
function highlighter(tty: boolean): (snippet: string) => string {
  return (snippet) =>
    snippet
      .split(MATCH_START)
      .join(tty ? '\x1b[1m' : '«')
      .split(MATCH_END)
      .join(tty ? '\x1b[22m' : '»');
}

/**
 * One search and the process ends: it runs in this thread, not a child process started for it
 * (issue 46), stopped at its deadline by ending the process with the line the CLI says then.
 */
const ONE_SHOT = {
  searchHere: { deadlineLine: (message: string) => `${queryLimitLine(message, 'timeout')}\n` },
};

/**
 * `chatgraph search <terms...>`: by words, meaning or both, one entry per conversation (or per
 * message with `--per-message`), a page at a time.
 */
export async function runSearch(
  terms: string[],
  options: SearchOptions,
  io: CliIo,
  command?: Command,
): Promise<void> {
  const format = checkFormat(options.format, options.json);
  const unknown = terms.find((t) => t.startsWith('--'));
  if (unknown !== undefined) {
    if (command)
      throw unknownOption(
        command,
        unknown,
        'a word starting with -- is searched for when quoted with others: "git push --force"',
      );
    throw new UsageError(`unknown option ${unknown}`);
  }
  const query = await searchQueryOf(terms.join(' '), options);
  // On a terminal the lines are cut to its width first (each continuation indented under its
  // line), their matches marked in bold after: the marks take no column.
  const columns = format === 'json' ? undefined : io.terminal?.columns;
  const keepMarks = (snippet: string): string => snippet;
  const highlight = columns === undefined ? highlighter(io.stdoutIsTTY) : keepMarks;
  const lines = await withReader(
    options,
    async (_store, folder) => {
      // One query and the process ends: a search by words never opens the model (issue 46).
      const recaller = await folder.recaller({ nearestInMeaning: false });
      try {
        if (options.perMessage === true) {
          const rows = await recaller.search(query);
          return format === 'json'
            ? [searchJson(rows, query.offset ?? 0)]
            : formatSearch(rows, query, highlight);
        }
        // A terminal shows each conversation's best passage and how many more matched.
        const grouped = await recaller.searchConversations(
          query,
          format === 'json' ? {} : { passages: 0 },
        );
        return format === 'json'
          ? [conversationsJson(grouped)]
          : formatConversations(grouped, query, highlight);
      } finally {
        await recaller.close();
      }
    },
    ONE_SHOT,
  );
  if (columns === undefined) for (const line of lines) io.out(line);
  else {
    const bold = highlighter(true);
    for (const line of lines) for (const part of fitLine(line, columns)) io.out(bold(part));
  }
}

// A line of the answer in lines of the terminal's width, its continuations indented two more
// than the line itself.
function fitLine(line: string, columns: number): string[] {
  if (line.length <= columns) return [line];
  const indent = `${/^ */.exec(line)?.[0] ?? ''}  `;
  return wrapWords(line, columns, indent);
}

export function registerSearch(program: Command, io: CliIo): void {
  withFormatOptions(
    withStoreOptions(
      program
        .command('search')
        .description(
          'search every message (and pasted or attached text) by words, by meaning, or both (hybrid, the default once `chatgraph embed` has run)',
        )
        .argument(
          '<terms...>',
          'words (all must match); a OR b; NOT word or -word; "quoted phrases"; word* for a prefix; (groups); or a question in your own words',
        ),
    ),
    '{mode, conversations: [{conversationId, title, source, createdAt, why, best: {messageId, snippet, role, kind}, more, passages}], memories, matches, offset, summary, ...}; with --per-message {mode, hits: [...]} (snippets «marked»)',
  )
    .option('--mode <mode>', 'keyword, semantic or hybrid (default: hybrid once vectors exist)')
    .option('--source <source>', 'only this source (chatgpt, claude-ai, ...)')
    .option('--since <date>', 'only messages at or after this date')
    .option('--until <date>', 'only messages before this date')
    .option('--role <role>', 'only messages of this role (user, assistant, tool, system)')
    .option('--limit <n>', 'how many conversations (with --per-message: hits)', '20')
    .option('--offset <n>', 'conversations to skip (the next page; with --per-message: hits)', '0')
    .option('--per-message', 'one row per matching message instead of one per conversation')
    .option(
      '--query-timeout <seconds>',
      `stop a search by words after this many seconds (default ${String(CLI_QUERY_LIMITS.timeoutSeconds)})`,
    )
    // So `search sourdough -levain` works unquoted: a -word is a search term, not an option.
    .allowUnknownOption()
    .action((terms: string[], options: SearchOptions, command: Command) =>
      runSearch(terms, options, io, command),
    );
}
