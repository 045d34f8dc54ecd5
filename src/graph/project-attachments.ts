import type { Conversation, Message } from '../model/pam.js';
import type { GraphEdge, GraphNode } from './graph-batch.js';

/**
 * An Attachment node per attachment of every message (HAS_ATTACHMENT), with its text when known.
 * Its node id is the message's and its place among the message's attachments, so a re-import
 * gives the same ids.
 */
export function addAttachments(
  conversation: Conversation,
  /** The text behind a ref, when the bundle keeps it as text (see `ProjectOptions`). */
  attachmentText: ((ref: string) => string | undefined) | undefined,
  platformId: string,
  nodeId: (message: { id: string }) => string,
  nodes: GraphNode[],
  edges: GraphEdge[],
): void {
  for (const message of conversation.messages)
    if (message.attachments.length > 0)
      addMessageAttachments(message, attachmentText, platformId, nodeId, nodes, edges);
}

/** One message's Attachment nodes and HAS_ATTACHMENT edges. */
export function addMessageAttachments(
  message: Message,
  attachmentText: ((ref: string) => string | undefined) | undefined,
  platformId: string,
  nodeId: (message: { id: string }) => string,
  nodes: GraphNode[],
  edges: GraphEdge[],
): void {
  const legacy = legacyExtracts(message);
  message.attachments.forEach((attachment, n) => {
    const id = `${nodeId(message)}:attachment-${n}`;
    const text =
      attachment.ref !== null
        ? attachmentText?.(attachment.ref)
        : attachment.type === 'document' && legacy[0]?.name === attachment.name
          ? legacy.shift()?.text
          : undefined;
    nodes.push({
      label: 'Attachment',
      id,
      properties: {
        name: attachment.name,
        mime_type: attachment.mime_type,
        ref: attachment.ref,
        size_bytes: attachment.size_bytes,
        content: text ?? null,
        message_id: nodeId(message),
        conversation_id: platformId,
        position: n,
      },
    });
    edges.push({ kind: 'HAS_ATTACHMENT', from: nodeId(message), to: id });
  });
}

// Bundles written before pasted text became files kept it in the message's
// `raw_metadata.attachment_extracts` ({file_name, extracted_content}, one per Claude.ai
// attachment with text, in order): a reindex of such a bundle still finds it.
function legacyExtracts(message: Message): { name: string | null; text: string }[] {
  const extracts = message.raw_metadata.attachment_extracts;
  if (!Array.isArray(extracts)) return [];
  return extracts.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const name: unknown = Reflect.get(entry, 'file_name');
    const text: unknown = Reflect.get(entry, 'extracted_content');
    return typeof text === 'string'
      ? [{ name: typeof name === 'string' && name !== '' ? name : null, text }]
      : [];
  });
}
