import {
  attachmentHeader,
  type ConversationInfo,
  type ThreadAttachment,
  type ThreadMessage,
} from '../index.js';

/** The header line of a conversation: its source, date, size and both its ids. */
export function conversationLine(info: ConversationInfo): string {
  return `${info.source} · ${info.createdAt.slice(0, 10)} · ${String(info.messageCount)} messages · id ${info.id} (platform id ${info.platformId})`;
}

/**
 * A conversation as Markdown, for agents: a heading, then each message under its role with its
 * id (the one get_message_context takes).
 */
export function conversationMarkdown(
  info: ConversationInfo,
  messages: readonly ThreadMessage[],
): string {
  const lines = [`# ${info.name}`, '', conversationLine(info), ''];
  for (const message of messages) {
    const marks = [message.isThought ? 'thinking' : '', message.hidden ? 'hidden' : '']
      .filter(Boolean)
      .join(', ');
    lines.push(
      `## ${message.role}${marks ? ` (${marks})` : ''} · ${message.createdAt} · message ${message.id}`,
      '',
      message.content,
      '',
    );
    if (message.attachments.length > 0) lines.push(attachmentsMarkdown(message.attachments), '');
  }
  return lines.join('\n');
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
  const longest = Math.max(0, ...(attachment.text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [heading, '', fence, attachment.text, fence, ''];
}
