import { forkLevels, shortMessageIds, type CitationView, type ThreadMessage } from '../api/view.js';
import type { ConversationInfo } from '../api/query.js';
import { formatAttachments } from './format-attachments.js';
import { plural } from './plural.js';

/** How `thread` prints: every branch at once, and the message it was opened at. */
export interface TranscriptShape {
  allBranches: boolean;
  /** The message `thread <message-id>` opened at: marked, and the fork before it shown. */
  at?: string | undefined;
  /** Where the conversation lives on its platform, said under the heading. */
  url?: string | null;
  /** The sources each message cited (by message id), listed under it. */
  citations?: ReadonlyMap<string, readonly CitationView[]>;
}

/**
 * `thread`'s transcript: a heading, then each message with its short id (what `thread` and
 * `remember --message` take back). Every branch indents only at forks; opened at a message,
 * the message is marked and the point where its branch leaves the shown thread is said.
 */
export function formatTranscript(
  info: ConversationInfo | undefined,
  messages: readonly ThreadMessage[],
  shape: TranscriptShape,
): string[] {
  const lines: string[] = [];
  if (info)
    lines.push(
      `# ${info.name} (${info.source}, ${info.createdAt.slice(0, 10)}, ${plural(info.messageCount, 'message')})${shape.url ? `\n${shape.url}` : ''}\n`,
    );
  const short = shortMessageIds(messages.map((m) => m.id));
  const levels = shape.allBranches ? forkLevels(messages) : new Map<string, number>();
  const firstChildren = new Set<string>();
  const seenParents = new Set<string>();
  for (const m of messages)
    if (m.parentId !== null && !seenParents.has(m.parentId)) {
      seenParents.add(m.parentId);
      firstChildren.add(m.id);
    }
  let forked = false;
  // A hidden message with no text (ChatGPT's empty system prompt) is noise in a transcript.
  for (const message of messages.filter((m) => !(m.hidden && m.content.trim() === ''))) {
    const indent = '  '.repeat(levels.get(message.id) ?? 0);
    const parent = message.parentId === null ? undefined : short.get(message.parentId);
    if (!shape.allBranches && shape.at !== undefined && !forked && !message.onShownThread) {
      forked = true;
      lines.push(
        parent !== undefined
          ? `── fork: this branch leaves the shown thread after message ${parent} ──\n`
          : '── this branch is not on the shown thread ──\n',
      );
    }
    const marks = [
      message.isThought ? 'thought' : '',
      message.hidden ? 'hidden' : '',
      shape.allBranches && message.onShownThread ? 'shown' : '',
      shape.allBranches && parent !== undefined && !firstChildren.has(message.id)
        ? `branch from ${parent}`
        : '',
      message.id === shape.at ? '◀ this message' : '',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(
      `${indent}[${message.role}${marks ? `, ${marks}` : ''}] ${message.createdAt}  id ${short.get(message.id) ?? message.id}`,
    );
    lines.push(`${indent}${message.content.split('\n').join(`\n${indent}`)}\n`);
    if (message.attachments.length > 0)
      lines.push(`${formatAttachments(message.attachments, indent)}\n`);
    const sources = shape.citations?.get(message.id) ?? [];
    if (sources.length > 0) lines.push(`${sourcesList(sources, indent)}\n`);
  }
  return lines;
}

// A message's sources, numbered as its text's [n] markers are: title, then address.
function sourcesList(sources: readonly CitationView[], indent: string): string {
  const rows = sources.map(
    (source, i) =>
      `${indent}  [${String(i + 1)}] ${[source.title, source.url].filter(Boolean).join(' — ') || '(a source with no title or address)'}`,
  );
  return [`${indent}Sources:`, ...rows].join('\n');
}
