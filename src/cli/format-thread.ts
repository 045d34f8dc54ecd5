import { styleText } from 'node:util';
import {
  forkLevels,
  shortMessageIds,
  type CitationView,
  type MessageView,
  type ThreadMessage,
} from '../api/view.js';
import type { ConversationInfo } from '../api/query.js';
import { formatAttachments } from './format-attachments.js';
import { localTime } from './local-time.js';
import { plural } from './plural.js';
import { toolCallLine, toolCallLines } from './tool-call-line.js';
import { wrapWords } from './wrap-words.js';

/** How `thread` prints: every branch at once, and the message it was opened at. */
export interface TranscriptShape {
  allBranches: boolean;
  /** The message `thread <message-id>` opened at: marked, and the fork before it shown. */
  at?: string | undefined;
  /** Where the conversation lives on its platform, said under the heading. */
  url?: string | null;
  /** Each message as the library shows it (by id): its tool calls, sources, whether its text is drawn. */
  views?: ReadonlyMap<string, MessageView>;
  /** Tool calls whole (input and output), not one line each. */
  tools?: boolean;
  /** Roles in colour (a terminal that takes it). */
  colour?: boolean;
  /** The width a tool call's line is cut to. */
  width?: number;
  /** Texts' lines wrapped at `width` at their spaces (a terminal's), not left to it to cut. */
  wrap?: boolean;
}

// Roles as a terminal shows them: who spoke stands out, the rest of the header steps back.
const ROLE_STYLE: Record<string, Parameters<typeof styleText>[0]> = {
  user: ['bold', 'cyan'],
  assistant: ['bold', 'green'],
  tool: ['bold', 'yellow'],
  system: ['bold', 'magenta'],
};

/**
 * `thread`'s transcript: a heading, then each message with its short id (what `thread` and
 * `remember --message` take back) and its local time, its tool calls one line each (whole with
 * `tools`). Every branch indents only at forks; opened at a message, the message is marked and
 * the point where its branch leaves the shown thread is said.
 */
export function formatTranscript(
  info: ConversationInfo | undefined,
  messages: readonly ThreadMessage[],
  shape: TranscriptShape,
): string[] {
  const paint = (style: Parameters<typeof styleText>[0], text: string): string =>
    shape.colour === true ? styleText(style, text) : text;
  const lines: string[] = [];
  if (info)
    lines.push(
      `${paint('bold', `# ${info.name}`)} (${info.source}, ${localTime(info.createdAt).slice(0, 10)}, ${plural(info.messageCount, 'message')})${shape.url ? `\n${shape.url}` : ''}\n`,
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
    const view = shape.views?.get(message.id);
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
    const role = paint(ROLE_STYLE[message.role] ?? 'bold', message.role);
    lines.push(
      `${indent}[${role}${marks ? `, ${marks}` : ''}] ${localTime(message.createdAt)}  ${paint('dim', `id ${short.get(message.id) ?? message.id}`)}`,
    );
    const body: string[] = [];
    // A text a tool call below shows as its input is drawn once, as the call.
    if (view?.textShown !== false && message.content !== '')
      body.push(
        shape.wrap === true
          ? wrapText(message.content, indent, shape.width ?? 100)
          : `${indent}${message.content.split('\n').join(`\n${indent}`)}`,
      );
    for (const call of view?.toolCalls ?? [])
      if (shape.tools === true) body.push(...toolCallLines(call, indent));
      else body.push(paint('dim', toolCallLine(call, indent, shape.width ?? 100)));
    lines.push(`${body.join('\n')}\n`);
    if (message.attachments.length > 0)
      lines.push(`${formatAttachments(message.attachments, indent)}\n`);
    const sources = view?.citations ?? [];
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

/**
 * A message's text in lines of `width` at most, cut at spaces, as a terminal would not (it cuts
 * mid-word): a list item's continuations under its text, not under its marker; code (between
 * ``` fences, or indented by a tab or four spaces) and table rows left whole, since a cut there
 * changes what they say.
 */
function wrapText(text: string, indent: string, width: number): string {
  let fenced = false;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const whole = `${indent}${line}`;
    const code = /^(\t| {4,})(?!\s*(?:[-*+]|\d+[.)])\s)/.test(line);
    if (fenced || code || /^\s*(```|~~~|\|)/.test(line) || whole.length <= width) {
      lines.push(whole);
      continue;
    }
    const hanging = /^\s*(?:[-*+]|\d+[.)])\s+|^\s*/.exec(line)?.[0] ?? '';
    lines.push(...wrapWords(whole, width, `${indent}${' '.repeat(hanging.length)}`));
  }
  return lines.join('\n');
}
