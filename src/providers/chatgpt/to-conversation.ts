import { buildConversation, conversationIdOf } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import { stableId } from '../../model/ids.js';
import type {
  Attachment,
  Citation,
  Conversation,
  JsonObject,
  MessageContent,
  Role,
  ToolCall,
} from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { notAConversation } from '../not-a-conversation.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asCount, asObject, asString, asText, without } from '../untrusted.js';
import { attachCanvases } from './canvas.js';
import { attachResearchReports } from './deep-research.js';
import { libraryAttachments, placeOrphanReports } from './library-files.js';
import { attachWritingBlocks } from './writing-blocks.js';
import { mapContent, type MappedContent } from './content.js';
import { resolveMessageReferences, sourceUrl } from './inline-references.js';
import { MAPPED_CONVERSATION_KEYS } from './raw.js';
import { messageAncestor } from '../mapping-ancestor.js';

const ROLES: Record<string, Role> = {
  user: 'user',
  assistant: 'assistant',
  system: 'system',
  tool: 'tool',
  // Legacy plugin results (convoviz).
  function: 'tool',
};

/** Converts one ChatGPT conversation (a `mapping` tree) to PAM, keeping every branch. */
export function toChatgptConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const conversation = asObject(raw);
  const mapping = asObject(conversation?.mapping);
  if (!conversation || !mapping) {
    notAConversation(
      context,
      'the record has no `mapping` object, so it is not a ChatGPT conversation',
    );
    return;
  }
  let platformId = asText(conversation.conversation_id) ?? asText(conversation.id);
  if (platformId === undefined) {
    platformId = `anonymous-${stableId('chatgpt-anonymous', JSON.stringify(Object.keys(mapping)), JSON.stringify(conversation.create_time ?? null))}`;
    context.report({
      level: 'warning',
      code: 'missing-conversation-id',
      message: `the conversation has no id; it is given the stable id ${platformId}`,
      record: context.record,
    });
  }

  // Nodes without a message (the root, "client-created-root") are not messages: their children
  // hang from the nearest ancestor that is one.
  const nodes = new Map<string, JsonObject>();
  for (const [key, value] of Object.entries(mapping)) {
    const node = asObject(value);
    if (node) nodes.set(key, node);
  }

  let anyChildren = false;
  const drafts: DraftMessage[] = [];
  let systemInstruction: string | null = null;
  const ancestors = new Map<string, string | null>();
  for (const [key, node] of nodes) {
    const message = asObject(node.message);
    if (!message) continue;
    const children = (asArray(node.children) ?? []).filter(
      (c): c is string => typeof c === 'string',
    );
    if (children.length > 0) anyChildren = true;
    const draft = toDraft(
      key,
      message,
      messageAncestor(mapping, asString(node.parent), ancestors),
      children,
      context,
    );
    if (draft.instruction) systemInstruction = draft.instruction;
    drafts.push(draft.message);
  }
  linkToolResults(drafts);
  attachDocuments(drafts, platformId, context);

  const currentNode = asString(conversation.current_node);
  const hasParents = [...nodes.values()].some((n) => typeof n.parent === 'string');
  const formatVersion = `chatgpt/${variant}${!anyChildren && hasParents && drafts.length > 1 ? '+parent-links-only' : ''}`;
  return buildConversation(
    {
      provider: {
        name: 'chatgpt',
        conversation_id: platformId,
        account_id: asText(conversation.user_id) ?? null,
        export_format_version: formatVersion,
      },
      title: asText(conversation.title) ?? null,
      createdAt: toTimestamp(conversation.create_time),
      updatedAt: toTimestamp(conversation.update_time),
      messages: drafts,
      shownLeafKey:
        currentNode !== undefined
          ? (messageAncestor(mapping, currentNode) ?? undefined)
          : undefined,
      model: asText(conversation.default_model_slug) ?? null,
      system_instruction: systemInstruction,
      is_archived: conversation.is_archived === true,
      raw_metadata: without(conversation, MAPPED_CONVERSATION_KEYS),
      assistantName: 'ChatGPT',
    },
    context,
  );
}

/**
 * The documents written beside the chat: canvas versions, writing blocks, deep-research reports,
 * and the library's generated reports whose message the export left out.
 */
function attachDocuments(
  drafts: DraftMessage[],
  platformId: string,
  context: ConversionContext,
): void {
  const conversationId = conversationIdOf('chatgpt', platformId);
  attachCanvases(drafts, conversationId, context);
  attachWritingBlocks(drafts, conversationId, context);
  attachResearchReports(drafts, conversationId, context);
  placeOrphanReports(platformId, drafts, context);
}

function toDraft(
  key: string,
  message: JsonObject,
  parentKey: string | null,
  childKeys: string[],
  context: ConversionContext,
): { message: DraftMessage; instruction?: string } {
  const author = asObject(message.author) ?? {};
  const roleName = asString(author.role) ?? '';
  let role = ROLES[roleName];
  if (role === undefined) {
    role = 'user';
    context.report({
      level: 'warning',
      code: 'unknown-role',
      message: `message ${key} has the unknown role "${roleName}"; it is kept as a user message`,
      record: context.record,
    });
  }
  const metadata = asObject(message.metadata) ?? {};
  const mapped = mapContent(asObject(message.content) ?? {}, context);
  // Inline citation markers resolved to [n]; the raw references stay in raw_metadata.metadata.
  const references = resolveMessageReferences(mapped, metadata);
  const content = { ...mapped, text: references.text, parts: references.parts };
  const recipient = asString(message.recipient);
  const providerId = asText(message.id) ?? key;

  const tool_calls: ToolCall[] = [];
  // An assistant message addressed to anything but "all" is a tool call; its text is the input.
  if (role === 'assistant' && recipient !== undefined && recipient !== 'all' && recipient !== '') {
    tool_calls.push({
      id: providerId,
      name: recipient,
      input: toolInput(content.text),
      output: null,
    });
  }

  const attachments: Attachment[] = [
    ...content.attachments,
    ...metadataAttachments(metadata, context),
  ];
  attachments.push(...libraryAttachments(providerId, attachments, context));
  const raw = rawMessageMetadata(key, providerId, message, author, metadata, content);

  const messageContent: MessageContent =
    content.parts.length > 0
      ? { type: 'multipart', text: content.text, parts: content.parts }
      : { type: 'text', text: content.text };

  const draft: DraftMessage = {
    key,
    parentKey,
    childKeys,
    provider_message_id: providerId,
    role,
    content: messageContent,
    createdAt: toTimestamp(message.create_time),
    model: role === 'user' ? null : (asText(metadata.model_slug) ?? null),
    is_thought: content.isThought,
    attachments,
    citations: dedupeCitations([
      ...references.cited,
      ...content.citations,
      ...metadataCitations(metadata),
    ]),
    tool_calls,
    raw_metadata: raw,
  };
  return content.systemInstruction !== undefined
    ? { message: draft, instruction: content.systemInstruction }
    : { message: draft };
}

/** Files listed in a message's `metadata.attachments` (uploads), beside the content's assets. */
function metadataAttachments(metadata: JsonObject, context: ConversionContext): Attachment[] {
  const attachments: Attachment[] = [];
  for (const item of asArray(metadata.attachments) ?? []) {
    const file = asObject(item);
    if (!file) continue;
    const fileId = asText(file.id);
    const mime = asText(file.mime_type) ?? asText(file.mimeType) ?? null;
    attachments.push({
      type: mime?.startsWith('image/') ? 'image' : 'file',
      name: asText(file.name) ?? null,
      mime_type: mime,
      size_bytes: asCount(file.size),
      ref: fileId !== undefined ? (context.resolveAsset(fileId) ?? null) : null,
      provider_id: fileId ?? null,
    });
  }
  return attachments;
}

/** What a message holds that PAM has no field for, kept in its `raw_metadata`. */
function rawMessageMetadata(
  key: string,
  providerId: string,
  message: JsonObject,
  author: JsonObject,
  metadata: JsonObject,
  content: MappedContent,
): JsonObject {
  const raw: JsonObject = {};
  if (key !== providerId) raw.node_id = key;
  for (const field of [
    'status',
    'end_turn',
    'weight',
    'recipient',
    'channel',
    'update_time',
  ] as const) {
    if (message[field] !== undefined && message[field] !== null) raw[field] = message[field];
  }
  if (asText(author.name)) raw.author_name = author.name;
  if (Object.keys(asObject(author.metadata) ?? {}).length > 0)
    raw.author_metadata = author.metadata;
  if (Object.keys(metadata).length > 0) raw.metadata = metadata;
  if (metadata.is_visually_hidden_from_conversation === true) raw.hidden = true;
  if (content.unknownContent) raw.content = content.unknownContent;
  if (content.assetMetadata.length > 0) raw.asset_metadata = content.assetMetadata;
  return raw;
}

function toolInput(text: string): JsonObject | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      const object = asObject(parsed);
      if (object) return object;
    } catch {
      // Not JSON after all (a browser `search("...")` call, Python code): kept as text.
      return text;
    }
  }
  return text;
}

/**
 * Pairs each `tool` message with the call it answers: the nearest assistant ancestor whose
 * call names the same tool (or, failing that, the nearest call), and fills that call's output.
 */
function linkToolResults(drafts: DraftMessage[]): void {
  const byKey = new Map(drafts.map((d) => [d.key, d]));
  for (const draft of drafts) {
    if (draft.role !== 'tool') continue;
    const toolName = asString(draft.raw_metadata.author_name);
    let fallback: ToolCall | undefined;
    let match: ToolCall | undefined;
    const seen = new Set<string>();
    let at = draft.parentKey === null ? undefined : byKey.get(draft.parentKey);
    while (at && !seen.has(at.key) && match === undefined) {
      seen.add(at.key);
      const call = at.tool_calls[0];
      if (call) {
        fallback ??= call;
        if (
          toolName === undefined ||
          call.name === toolName ||
          toolName.startsWith(call.name) ||
          call.name.startsWith(toolName)
        ) {
          match = call;
        }
      }
      if (at.role === 'user') break;
      at = at.parentKey === null ? undefined : byKey.get(at.parentKey);
    }
    const call = match ?? fallback;
    if (!call) continue;
    draft.raw_metadata.tool_call_id = call.id;
    const text = draft.content?.text ?? '';
    call.output = call.output === null ? text : `${call.output}\n${text}`;
  }
}

function metadataCitations(metadata: JsonObject): Citation[] {
  const citations: Citation[] = [];
  for (const item of asArray(metadata.citations) ?? []) {
    const meta = asObject(asObject(item)?.metadata);
    if (meta) {
      citations.push({
        title: asText(meta.title) ?? null,
        url: sourceUrl(meta.url),
        snippet: asText(meta.text) ?? null,
      });
    }
  }
  for (const item of asArray(metadata.content_references) ?? []) {
    const reference = asObject(item);
    if (!reference) continue;
    const sources = [...(asArray(reference.items) ?? []), ...(asArray(reference.sources) ?? [])];
    if (asText(reference.url)) sources.push(reference);
    for (const source of sources) {
      const entry = asObject(source);
      if (!entry || !asText(entry.url)) continue;
      citations.push({
        title: asText(entry.title) ?? null,
        url: sourceUrl(entry.url),
        snippet: asText(entry.snippet) ?? null,
      });
    }
  }
  for (const group of asArray(metadata.search_result_groups) ?? []) {
    for (const item of asArray(asObject(group)?.entries) ?? []) {
      const entry = asObject(item);
      if (!entry) continue;
      citations.push({
        title: asText(entry.title) ?? null,
        url: sourceUrl(entry.url),
        snippet: asText(entry.snippet) ?? null,
      });
    }
  }
  return citations;
}

/**
 * One entry a source: by URL (the numbered ones first, so `[n]` stays the n-th), else by
 * title and snippet; a later copy with a snippet gives it to an earlier one without.
 */
function dedupeCitations(citations: Citation[]): Citation[] {
  const kept = new Map<string, Citation>();
  for (const citation of citations) {
    if (citation.url === null && citation.title === null && citation.snippet === null) continue;
    const key = citation.url ?? `\u0000${citation.title ?? ''}\u0000${citation.snippet ?? ''}`;
    const earlier = kept.get(key);
    if (!earlier) kept.set(key, { ...citation });
    else if (earlier.snippet === null && citation.snippet !== null)
      earlier.snippet = citation.snippet;
  }
  return [...kept.values()];
}
