import { thousands } from '../model/plural.js';
import type { ThreadAttachment } from '../stores/store.js';

/**
 * An attachment's one-line header for people and agents (`thread`, the MCP Markdown): its name,
 * then what is known of it.
 */
export function attachmentHeader(attachment: ThreadAttachment): string {
  const name = attachment.name ?? (attachment.text !== null ? 'pasted text' : 'attachment');
  const facts = [
    attachment.mimeType,
    attachment.sizeBytes !== null ? `${thousands(attachment.sizeBytes)} bytes` : null,
    attachment.ref === null ? 'not in the export' : null,
  ].filter((fact): fact is string => fact !== null);
  return `${name}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`;
}
