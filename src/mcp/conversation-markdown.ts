import type { CitationView, CodeCell } from '../api/view.js';
import { attachmentHeader, type ThreadAttachment, type ThreadMessage } from '../api/view.js';
import type { ConversationInfo } from '../api/query.js';

/** The header line of a conversation: its source, date, size and both its ids. */
export function conversationLine(info: ConversationInfo): string {
  return `${info.source} · ${info.createdAt.slice(0, 10)} · ${String(info.messageCount)} messages · id ${info.id} (platform id ${info.platformId})`;
}

/**
 * Whether a message says anything: an empty one (a blank system prompt, a turn with no text and
 * nothing attached) is left out of what agents read rather than shown as a blank section.
 */
export function saysSomething(message: ThreadMessage): boolean {
  return message.content.trim() !== '' || message.attachments.length > 0;
}

/**
 * A conversation as Markdown, for agents: a heading, then each message under its role with its
 * id (the one get_message_context takes); a code cell's text fenced in its language. Empty
 * messages are left out.
 */
export function conversationMarkdown(
  info: ConversationInfo,
  messages: readonly ThreadMessage[],
  extras: MarkdownExtras = {},
): string {
  const { codeCells = new Map<string, CodeCell>(), url = null, sources } = extras;
  const lines = [`# ${info.name}`, '', conversationLine(info), ''];
  if (url) lines.splice(3, 0, `On the platform: <${url}>`);
  for (const message of messages.filter(saysSomething)) {
    const marks = [message.isThought ? 'thinking' : '', message.hidden ? 'hidden' : '']
      .filter(Boolean)
      .join(', ');
    lines.push(
      `## ${message.role}${marks ? ` (${marks})` : ''} · ${message.createdAt} · message ${message.id}`,
      '',
      ...codeOrText(message.content, codeCells.get(message.id)),
      '',
    );
    if (message.attachments.length > 0) lines.push(attachmentsMarkdown(message.attachments), '');
    const cited = sources?.get(message.id) ?? [];
    if (cited.length > 0) lines.push(sourcesMarkdown(cited), '');
  }
  return lines.join('\n');
}

/** What the Markdown of a conversation adds to its messages, when known. */
export interface MarkdownExtras {
  /** Code-interpreter cells by message id: their text is fenced as code. */
  codeCells?: ReadonlyMap<string, CodeCell>;
  /** Where the conversation lives on its platform. */
  url?: string | null;
  /** Each message's sources by message id, numbered as the text's [n] markers. */
  sources?: ReadonlyMap<string, readonly CitationView[]>;
}

// Sources as a numbered list under the message: title, then the address in angle brackets.
function sourcesMarkdown(sources: readonly CitationView[]): string {
  return [
    'Sources:',
    ...sources.map(
      (s, i) =>
        `${String(i + 1)}. ${s.title ?? s.url ?? 'a source'}${s.url && s.title ? ` <${s.url}>` : ''}`,
    ),
  ].join('\n');
}

// Code stays code: fenced, so a Python `# comment` is not read as a heading.
function codeOrText(content: string, cell: CodeCell | undefined): string[] {
  if (!cell) return [content];
  const fence = fenceFor(content);
  return [`${fence}${cell.language ?? ''}`, content, fence];
}

// More backticks than the text ever runs, so nothing inside closes the fence early.
function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A message's attachments in Markdown, each under its heading, pasted text fenced. */
export function attachmentsMarkdown(attachments: readonly ThreadAttachment[]): string {
  return attachments.flatMap(attachmentMarkdown).join('\n').trimEnd();
}

// An attachment under its own heading; its text fenced by more backticks than it ever runs, so
// a pasted code block cannot close the fence early.
function attachmentMarkdown(attachment: ThreadAttachment): string[] {
  const heading = `### Attachment: ${attachmentHeader(attachment)}`;
  if (attachment.text === null) return [heading, ''];
  const fence = fenceFor(attachment.text);
  return [heading, '', fence, attachment.text, fence, ''];
}
