import { homedir } from 'node:os';
import { basename, relative, sep } from 'node:path';
import type { FollowEvent } from '../index.js';
import { plural } from './plural.js';

type Ready = Extract<FollowEvent, { kind: 'ready' }>;
type FollowedStore = NonNullable<Ready['agents']>[number];

// How each kind of file is followed, in a few words.
const HOW: Record<string, string> = {
  append: 'JSON Lines, read on from where they stopped',
  rewrite: 'documents, read again when rewritten',
  sqlite: 'SQLite, polled every 2 s',
};

// A path under the home folder as `~/…`.
function home(path: string): string {
  const dir = homedir();
  return path === dir || path.startsWith(dir + sep) ? `~${path.slice(dir.length)}` : path;
}

// The first line: what is followed, how many files, and how to stop.
function readyLine(event: Ready): string {
  const stores = (event.agents ?? []).filter((a) => a.how.includes('sqlite'));
  const storeFiles = stores.reduce((n, a) => n + a.files, 0);
  const logs = event.logs - storeFiles;
  const agents = event.agents?.length ?? 0;
  const what =
    agents > 0
      ? plural(new Set(event.agents?.map((a) => a.source)).size, 'coding agent')
      : event.folders.join(', ');
  return `following ${what} (${event.mode === 'events' ? 'file-system events' : 'polling'}): ${plural(logs, 'session log')}${storeFiles > 0 ? `, ${plural(storeFiles, 'SQLite store')}` : ''}, ${plural(event.exports, 'export file')}; Ctrl-C stops`;
}

// One line per agent's store followed: where, and how.
function storeLine(store: FollowedStore): string {
  const how = store.how.map((h) => HOW[h] ?? h).join('; ');
  const env = store.env !== undefined ? ` ($${store.env})` : '';
  return `  ${store.product}: ${home(store.path)}${env} (${how})`;
}

// A path cut from the left to `width` characters: its end (the file's name) is what tells.
function leftCut(path: string, width: number): string {
  if (path.length <= width) return path;
  return width <= 1 ? '…' : `…${path.slice(path.length - width + 1)}`;
}

// What an import event says after its file's name: counts, then the ids, then the extras.
function importedParts(event: Extract<FollowEvent, { kind: 'imported' }>): {
  counts: string;
  ids: string[];
  extras: string;
} {
  const held = event.heldElsewhere ?? 0;
  const masked = event.masked ?? 0;
  return {
    counts: `${event.whole === true ? 'read again whole' : event.sessions !== undefined ? `${plural(event.sessions, 'session')} read` : `${plural(event.lines, 'line')} read`}, ${plural(event.written, 'conversation')} written`,
    ids: event.conversations.map((c) => `${c.id} (${plural(c.messages, 'message')})`),
    extras: `${event.leftDeleted > 0 ? `; ${plural(event.leftDeleted, 'deleted conversation')} left out` : ''}${held > 0 ? `; ${held} left as another log's more recent copy (same session id)` : ''}${masked > 0 ? `; ${plural(masked, 'secret')} masked` : ''}`,
  };
}

/**
 * One line saying what a follower did (the status line, or a line of the log when piped). With
 * `width` (a terminal's), a longer line gives up the file's path first, then the extras, and
 * never a conversation's id.
 */
export function describeEvent(event: FollowEvent, base: string, width?: number): string {
  const name = (file: string | undefined): string =>
    file === undefined ? '' : relative(base, file) || file;
  const fit = (line: string): string =>
    width === undefined || line.length <= width ? line : `${line.slice(0, width - 1)}…`;
  switch (event.kind) {
    case 'ready':
      return [
        fit(readyLine(event)),
        ...(event.agents ?? []).map((store) => fit(storeLine(store))),
        ...(event.unreadable ?? []).map((store) =>
          fit(`  ${store.product}: ${home(store.path)}: not read (${store.reason})`),
        ),
      ].join('\n');
    case 'imported': {
      const { counts, ids, extras } = importedParts(event);
      const file = name(event.file);
      const line = (path: string, tail: string): string =>
        `imported ${path}: ${counts}: ${ids.join(', ')}${tail}`;
      const whole = line(file, extras);
      if (width === undefined || whole.length <= width) return whole;
      const room = width - line('', extras).length;
      if (room >= basename(file).length) return line(leftCut(file, room), extras);
      const bare = line(basename(file), '');
      if (bare.length <= width) return bare;
      // Ids alone, as many whole ones as fit (one at least: an id is never cut).
      const kept: string[] = [];
      for (const id of ids) {
        const rest = ids.length - kept.length - 1;
        const tried = `imported ${[...kept, id].join(', ')}${rest > 0 ? ` +${rest} more` : ''}`;
        if (kept.length > 0 && tried.length > width) break;
        kept.push(id);
      }
      const left = ids.length - kept.length;
      return `imported ${kept.join(', ')}${left > 0 ? ` +${left} more` : ''}`;
    }
    case 'waiting':
      return fit(`waiting ${name(event.file)}: its last line is cut off; read once it is whole`);
    case 'rewritten':
      return fit(`rewritten ${name(event.file)}: its start changed, read again whole`);
    case 'export':
      return fit(
        event.skipped
          ? `export ${name(event.file)}: imported before, nothing to do`
          : `export ${name(event.file)}: ${plural(event.conversations, 'conversation')}, ${event.written} written`,
      );
    case 'gone':
      return fit(
        `gone ${name(event.file)}: no longer followed; what was imported from it stays (list --gone)`,
      );
    case 'removed':
      return fit(
        `removed ${name(event.file)}: ${plural(event.sessions, 'session')} its agent removed stay here (list --gone)`,
      );
    case 'embedded':
      return fit(`embedded ${plural(event.chunks, 'new chunk')}`);
    case 'problem':
      return fit(
        `problem${event.file !== undefined ? ` ${name(event.file)}` : ''}: ${event.message}`,
      );
  }
}
