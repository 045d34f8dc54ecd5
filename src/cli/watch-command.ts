import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { Command } from 'commander';
import {
  claudeCodeProjectDirs,
  followFolders,
  resolveDataDir,
  waitingMessage,
  type FollowEvent,
  type Follower,
  type Neo4jTarget,
} from '../index.js';

/** The Neo4j flags, as main.ts reads them. */
interface StoreFlags {
  neo4j?: string;
  user?: string;
  database?: string;
}

/** The store options `watch` shares with the other commands (main.ts parses them). */
interface WatchCliOptions extends StoreFlags {
  dataDir?: string;
  embed?: boolean;
  poll?: boolean;
}

/** One line saying what a follower did (the status line, or a line of the log when piped). */
export function describeEvent(event: FollowEvent, base: string): string {
  const name = (file: string | undefined): string =>
    file === undefined ? '' : relative(base, file) || file;
  switch (event.kind) {
    case 'ready':
      return `following ${event.folders.join(', ')} (${event.mode === 'events' ? 'file-system events' : 'polling'}): ${event.logs} session log(s), ${event.exports} export file(s); Ctrl-C stops`;
    case 'imported': {
      const convs = event.conversations.map((c) => `${c.id} (${c.messages} messages)`).join(', ');
      return `imported ${name(event.file)}: ${event.lines} line(s) read, ${event.written} conversation(s) written: ${convs}${event.leftDeleted > 0 ? `; ${event.leftDeleted} deleted conversation(s) left out` : ''}`;
    }
    case 'waiting':
      return `waiting ${name(event.file)}: its last line is cut off; read once it is whole`;
    case 'rewritten':
      return `rewritten ${name(event.file)}: its start changed, read again whole`;
    case 'export':
      return event.skipped
        ? `export ${name(event.file)}: imported before, nothing to do`
        : `export ${name(event.file)}: ${event.conversations} conversation(s), ${event.written} written`;
    case 'gone':
      return `gone ${name(event.file)}: no longer followed (what was imported from it stays)`;
    case 'embedded':
      return `embedded ${event.chunks} new chunk(s)`;
    case 'problem':
      return `problem${event.file !== undefined ? ` ${name(event.file)}` : ''}: ${event.message}`;
  }
}

/**
 * Starts following folders (default: Claude Code's) into a data folder, telling each event on
 * `write` as one line. Used by `watch`, and by `mcp --watch` and `serve --watch` (then on stderr).
 */
export async function startFollowing(
  folders: readonly string[],
  options: { dataDir: string; neo4j: Neo4jTarget | undefined; embed?: boolean; poll?: boolean },
  write: (line: string) => void,
): Promise<Follower> {
  const chosen = folders.length > 0 ? folders : claudeCodeProjectDirs();
  if (chosen.length === 0)
    throw new WatchUsageError(
      'no Claude Code session folder was found (~/.claude/projects, $CLAUDE_CONFIG_DIR, $XDG_CONFIG_HOME/claude): give the folders to watch',
    );
  for (const folder of chosen)
    if (!existsSync(folder))
      throw new WatchUsageError(`"${folder}" does not exist: give a folder to watch`);
  return followFolders({
    dataDir: options.dataDir,
    folders: chosen,
    neo4j: options.neo4j,
    embed: options.embed === true,
    poll: options.poll === true,
    onEvent: (event) => {
      write(describeEvent(event, process.cwd()));
    },
    onWait: (holder) => {
      write(waitingMessage(holder));
    },
  });
}

/** A usage problem of `watch` (the CLI exits with code 2). */
export class WatchUsageError extends Error {}

/**
 * `chatgraph watch [folders...]`: follows until Ctrl-C or SIGTERM. On a terminal the status is
 * one line, rewritten; piped, each event is a line (scripts and tests wait on them).
 */
export function registerWatchCommand(
  command: Command,
  neo4jOf: (options: StoreFlags) => Neo4jTarget | undefined,
): void {
  command
    .description(
      'keep the memory current: import new Claude Code session lines and exports dropped into the folders as they are written',
    )
    .argument(
      '[folders...]',
      'folders to follow (default: your Claude Code sessions, ~/.claude/projects)',
    )
    .option(
      '--embed',
      'embed new messages too, when the data folder has vectors (see chatgraph embed)',
    )
    .option('--poll', 'poll every 2 s instead of file-system events (network file systems)')
    .action(async (folders: string[], options: WatchCliOptions) => {
      const tty = process.stdout.isTTY;
      const write = (line: string): void => {
        process.stdout.write(
          tty ? `\r\x1b[K${line.slice(0, (process.stdout.columns || 120) - 1)}` : `${line}\n`,
        );
      };
      let follower: Follower;
      try {
        follower = await startFollowing(
          folders,
          {
            dataDir: resolveDataDir(options.dataDir),
            neo4j: neo4jOf(options),
            ...(options.embed ? { embed: true } : {}),
            ...(options.poll ? { poll: true } : {}),
          },
          write,
        );
      } catch (error) {
        if (!(error instanceof WatchUsageError)) throw error;
        process.stderr.write(`chatgraph: ${error.message}\n`);
        process.exitCode = 2;
        return;
      }
      await new Promise<void>((done) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void follower.stop().then(() => {
            process.stdout.write(`${tty ? '\n' : ''}stopped\n`);
            done();
          });
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}

/**
 * `--watch` on `mcp` and `serve`: follows Claude Code's session folders inside the server
 * process (as `watch` does), telling each event on stderr, before the server opens its store
 * (so a data folder with nothing imported yet works). Returns a count of the changes made, for
 * the web app's page to redraw; undefined without `--watch`.
 */
export async function followForServer(
  options: { watch?: boolean; dataDir?: string },
  neo4j: Neo4jTarget | undefined,
): Promise<{ follower: Follower; changes: () => number } | undefined> {
  if (options.watch !== true) return undefined;
  let changes = 0;
  const follower = await startFollowing(
    [],
    { dataDir: resolveDataDir(options.dataDir), neo4j },
    (line) => {
      if (/^(imported|export|rewritten) /.test(line)) changes++;
      process.stderr.write(`chatgraph watch: ${line}\n`);
    },
  );
  return { follower, changes: () => changes };
}
