import { attachmentHeader, type ThreadAttachment } from '../api/view.js';

/**
 * A message's attachments for `thread`: each under a `[attachment: …]` header, its text (pasted
 * or extracted) indented four spaces below, so it reads apart from the message itself.
 */
export function formatAttachments(
  attachments: readonly ThreadAttachment[],
  indent: string,
): string {
  const lines: string[] = [];
  for (const attachment of attachments) {
    lines.push(`${indent}[attachment: ${attachmentHeader(attachment)}]`);
    if (attachment.text !== null)
      for (const line of attachment.text.split('\n')) lines.push(`${indent}    ${line}`.trimEnd());
  }
  return lines.join('\n');
}
