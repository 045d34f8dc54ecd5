import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { waitingMessage, type DataFolder, type Follower } from '../../index.js';
import type { CliIo } from '../cli-io.js';
import { describeEvent } from '../follow-status.js';
import { openForWriting, withStoreOptions, type StoreOptions } from '../store-options.js';
import { UsageError } from '../usage-error.js';
import { syncAfterUpdates } from '../sync-after-updates.js';

export type WatchOptions = StoreOptions & {
  embed?: boolean;
  poll?: boolean;
  redact?: boolean;
  json?: boolean;
  agent?: string[];
  /** `--sync DIR`: a sync through DIR after each quiet spell of updates (docs/sync.md). */
  sync?: string;
};

/** How long the updates must be quiet before `watch --sync` syncs, and its sync at the least. */
export const SYNC_TIMING = { quietMs: 5_000, everyMs: 120_000 };

// The events that change the data folder: each asks for a sync once things are quiet.
const CHANGES = new Set(['ready', 'imported', 'removed', 'rewritten', 'export']);

/** `--redact` of `watch`, and of `mcp --watch` and `serve --watch`. */
export const REDACT_HELP =
  'mask secrets (API keys, tokens, passwords in URLs, private keys) in what is followed before it is written, as import --redact';

// What the follower throws for what the user can put right (exit code 2).
const USAGE_ERRORS = new Set(['NothingToFollowError', 'UnknownAgentError']);

/**
 * Starts following into a data folder, telling each event on `write` as one line: the folders
 * given, and the coding agents named (`agents`); with no folder, every coding agent found where
 * `import --agents` looks (or those named). Used by `watch`, and by `mcp --watch` and
 * `serve --watch` (on stderr).
 */
export async function startFollowing(
  folders: readonly string[],
  options: {
    folder: DataFolder;
    embed?: boolean;
    poll?: boolean;
    redact?: boolean;
    agents?: readonly string[];
    /** Told of every event after it is written (`watch --sync`). */
    onEvent?: (event: { kind: string }) => void;
  },
  write: (line: string) => void,
  shape: { width?: number; json?: boolean } = {},
): Promise<Follower> {
  for (const folder of folders)
    if (!existsSync(folder))
      throw new UsageError(`"${folder}" does not exist: give a folder to watch`);
  const named = options.agents ?? [];
  return options.folder
    .follow({
      folders,
      agents: named.length > 0 ? named : folders.length === 0,
      embed: options.embed === true,
      poll: options.poll === true,
      redact: options.redact === true,
      onEvent: (event) => {
        write(
          shape.json ? JSON.stringify(event) : describeEvent(event, process.cwd(), shape.width),
        );
        options.onEvent?.(event);
      },
      onWait: (holder) => {
        write(
          shape.json
            ? JSON.stringify({ kind: 'lock-wait', message: waitingMessage(holder) })
            : waitingMessage(holder),
        );
      },
    })
    .catch((error: unknown) => {
      if (error instanceof Error && USAGE_ERRORS.has(error.name))
        throw new UsageError(error.message);
      throw error;
    });
}

/**
 * `chatgraph watch [folders...]`: follows until Ctrl-C or SIGTERM. On a terminal the status is
 * one line, rewritten; piped, each event is a line (scripts and tests wait on them).
 */
export async function runWatch(folders: string[], options: WatchOptions, io: CliIo): Promise<void> {
  // One status line, rewritten, on a terminal; a line per event (or a JSON line) otherwise.
  const tty = io.stdoutIsTTY && options.json !== true;
  const write = (line: string): void => {
    if (tty) process.stdout.write(`\r\x1b[K${line}`);
    else io.out(line);
  };
  // Ctrl-C or SIGTERM is taken from the start: one sent as the first pass ends (right after
  // "following") stops the follower once it is up, instead of killing the process mid-write.
  let signalled: () => void = () => undefined;
  const signal = new Promise<void>((resolve) => {
    signalled = resolve;
  });
  let up = false;
  // A second Ctrl-C or SIGTERM while stopping stops now. Kept as a handler (not the default
  // action) so that the temporary folders' own handler (a followed SQLite store's copy) does not
  // end the process before the follower has finished what it was writing.
  const now = (): void => {
    process.exit(130);
  };
  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.on('SIGINT', now);
    process.on('SIGTERM', now);
    if (!up) io.err('stopping once the first pass is done (Ctrl-C again stops now)');
    signalled();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const syncs = options.sync === undefined ? undefined : syncsThrough(options.sync, options, io);
  let follower: Follower;
  try {
    follower = await startFollowing(
      folders,
      {
        folder: await openForWriting(options),
        ...(options.embed ? { embed: true } : {}),
        ...(options.poll ? { poll: true } : {}),
        ...(options.redact ? { redact: true } : {}),
        ...(options.agent ? { agents: options.agent } : {}),
        ...(syncs
          ? {
              onEvent: (event: { kind: string }) => {
                if (CHANGES.has(event.kind)) syncs.nudge();
              },
            }
          : {}),
      },
      write,
      tty ? { width: (process.stdout.columns || 120) - 1 } : { json: options.json === true },
    );
  } catch (error) {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await syncs?.stop();
    throw error;
  }
  up = true;
  await signal;
  await follower.stop();
  await syncs?.stop();
  process.off('SIGINT', now);
  process.off('SIGTERM', now);
  if (tty) process.stdout.write('\n');
  io.out(options.json ? JSON.stringify({ kind: 'stopped' }) : 'stopped');
}

// `watch --sync DIR`: each sync as `chatgraph sync DIR` runs it, its report on the same output.
function syncsThrough(
  dir: string,
  options: WatchOptions,
  io: CliIo,
): ReturnType<typeof syncAfterUpdates> {
  return syncAfterUpdates(async () => {
    const { runSync } = await import('./sync.js');
    try {
      await runSync(
        dir,
        {
          ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
          json: options.json === true,
          jsonLine: true,
        },
        io,
      );
    } catch (error) {
      io.err(
        `sync through ${dir} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }, SYNC_TIMING);
}

export function registerWatch(program: Command, io: CliIo): void {
  withStoreOptions(program.command('watch'))
    .description(
      'keep the memory current: import what every coding agent writes (as import --agents finds them), and exports dropped into the folders, as it is written',
    )
    .argument(
      '[folders...]',
      "folders to follow: agents' sessions there, and exports dropped in (default: every coding agent found)",
    )
    .option(
      '--agent <name...>',
      'follow only these coding agents (codex, cline, opencode, claude-code, ...; see sources --installed)',
    )
    .option(
      '--embed',
      'embed new messages too, when the data folder has vectors (see chatgraph embed)',
    )
    .option('--poll', 'poll every 2 s instead of file-system events (network file systems)')
    .option(
      '--sync <dir>',
      'sync through this shared folder (as chatgraph sync DIR) once updates are quiet for 5 s, and every 2 minutes to take in the other machines',
    )
    .option('--redact', REDACT_HELP)
    .option(
      '--json',
      'one JSON line per event: {kind: ready | imported | export | waiting | rewritten | gone | embedded | problem, file?, ...}, then {kind: stopped}',
    )
    .action((folders: string[], options: WatchOptions) => runWatch(folders, options, io));
}

/**
 * `--watch` on `mcp` and `serve`: follows every coding agent's sessions inside the server
 * process (as `watch` does), telling each event on stderr, before the server opens its store
 * (so a data folder with nothing imported yet works). Returns a count of the changes made, for
 * the web app's page to redraw; undefined without `--watch`.
 */
export async function followForServer(
  options: StoreOptions & { watch?: boolean; redact?: boolean },
  io: CliIo,
): Promise<{ follower: Follower; changes: () => number } | undefined> {
  if (options.watch !== true) {
    if (options.redact === true)
      throw new UsageError('--redact masks what --watch follows: give --watch too');
    return undefined;
  }
  let changes = 0;
  const follower = await startFollowing(
    [],
    {
      folder: await openForWriting(options),
      ...(options.redact === true ? { redact: true } : {}),
    },
    (line) => {
      if (/^(imported|export|rewritten) /.test(line)) changes++;
      io.err(`chatgraph watch: ${line}`);
    },
  );
  return { follower, changes: () => changes };
}
