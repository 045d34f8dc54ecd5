import { relative } from 'node:path';
import type { FollowEvent } from '../index.js';

/** One line saying what a follower did (the status line, or a line of the log when piped). */
export function describeEvent(event: FollowEvent, base: string): string {
  const name = (file: string | undefined): string =>
    file === undefined ? '' : relative(base, file) || file;
  switch (event.kind) {
    case 'ready':
      return `following ${event.folders.join(', ')} (${event.mode === 'events' ? 'file-system events' : 'polling'}): ${event.logs} session log(s), ${event.exports} export file(s); Ctrl-C stops`;
    case 'imported': {
      const convs = event.conversations.map((c) => `${c.id} (${c.messages} messages)`).join(', ');
      const held = event.heldElsewhere ?? 0;
      const masked = event.masked ?? 0;
      return `imported ${name(event.file)}: ${event.lines} line(s) read, ${event.written} conversation(s) written: ${convs}${event.leftDeleted > 0 ? `; ${event.leftDeleted} deleted conversation(s) left out` : ''}${held > 0 ? `; ${held} left as another log's more recent copy (same session id)` : ''}${masked > 0 ? `; ${masked} secret(s) masked` : ''}`;
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
