import type { ConversationInfo, ThreadMessage } from '../index.js';

/** A conversation as Markdown, for agents: a heading, then each message under its role. */
export function conversationMarkdown(
  info: ConversationInfo,
  messages: readonly ThreadMessage[],
): string {
  const lines = [
    `# ${info.name}`,
    '',
    `${info.source} · ${info.createdAt.slice(0, 10)} · ${info.messageCount} messages · id ${info.platformId}`,
    '',
  ];
  for (const message of messages) {
    const marks = [message.isThought ? 'thinking' : '', message.hidden ? 'hidden' : '']
      .filter(Boolean)
      .join(', ');
    lines.push(
      `## ${message.role}${marks ? ` (${marks})` : ''} · ${message.createdAt}`,
      '',
      message.content,
      '',
    );
  }
  return lines.join('\n');
}
