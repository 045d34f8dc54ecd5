import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { branchedConversation, node } from './chatgpt-builder.js';

/** Seconds since 1970 of a day at noon UTC. */
const noon = (day: string): number => Date.parse(`${day}T12:00:00Z`) / 1000;

/** The list's conversations: one of today, four of last autumn (one untitled), 60 of
 * 2024, one empty. */
export function writeListExport(dir: string): string {
  const now = Math.floor(Date.now() / 1000);
  const at = (id: string, title: string | null, seconds: number): Record<string, unknown> => {
    const conversation = branchedConversation(id, title);
    conversation.create_time = seconds;
    conversation.update_time = seconds;
    return conversation;
  };
  const older = Array.from({ length: 60 }, (_, i) =>
    at(
      `old-${String(i).padStart(2, '0')}`,
      `Older talk ${String(i).padStart(2, '0')}`,
      noon(`2024-0${String(1 + (i % 9))}-1${String(i % 10)}`),
    ),
  );
  const empty = {
    id: 'empty-1',
    conversation_id: 'empty-1',
    title: null,
    create_time: noon('2025-11-25'),
    update_time: noon('2025-11-25'),
    current_node: 'root',
    mapping: { root: node('root', null, [], null) },
  };
  const file = join(dir, 'list.json');
  writeFileSync(
    file,
    JSON.stringify([
      at('today-1', 'Talked about today', now),
      at('nov-1', 'November planning', noon('2025-11-15')),
      at('nov-2', 'Late November notes', noon('2025-11-20')),
      at('oct-1', 'October retro', noon('2025-10-03')),
      at('untitled-1', null, noon('2025-10-01')),
      empty,
      ...older,
    ]),
  );
  return file;
}
