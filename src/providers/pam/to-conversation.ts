import { SHOWN_LEAF_KEY } from '../../model/build-conversation.js';
import { stableId } from '../../model/ids.js';
import { cutParentCycles } from '../../model/settle-tree.js';
import type {
  Attachment,
  ContentPart,
  Conversation,
  JsonObject,
  Message,
  Participant,
  Role,
} from '../../model/pam.js';
import { PAM_SCHEMA_VERSION } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { baseName } from '../../read/entry.js';
import type { ConversionContext } from '../provider.js';
import { asAbsoluteUrl } from '../untrusted.js';
import {
  PamConversation,
  describeIssues,
  type PamConversationFile,
  type PamMessage,
} from './pam-schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a PAM id that cannot name a bundle file (not a UUID) is kept. */
export const PAM_ID_KEY = 'pam_id';

/**
 * chatgraph's id of a PAM conversation: its own when a UUID, else a UUID v5 of it (a memory's
 * `conversation_ref` is mapped the same way, so it still names the conversation).
 */
export function pamConversationId(id: string): string {
  return UUID.test(id) ? id.toLowerCase() : stableId('pam-conversation', id);
}

/**
 * A conversation of a PAM file another tool wrote, as chatgraph writes it: its id (a UUID; any
 * other id, which cannot name a file safely, becomes a UUID v5 of it and is kept in
 * `raw_metadata.pam_id`), platform, message ids, branches and times kept. A file that does not
 * fit PAM's schema is reported with the fields that do not fit, and skipped.
 */
export function pamToConversation(
  raw: unknown,
  context: ConversionContext,
): Conversation | undefined {
  const parsed = PamConversation.safeParse(raw);
  if (!parsed.success) {
    context.report({
      level: 'error',
      code: 'pam-schema',
      message: `not a valid PAM conversation (${describeIssues(parsed.error)}); skipped`,
      record: context.record,
    });
    return undefined;
  }
  const file = parsed.data;
  const ids = new Set<string>();
  for (const message of file.messages) {
    if (ids.has(message.id)) {
      context.report({
        level: 'error',
        code: 'pam-duplicate-message',
        message: `two messages have the id ${message.id} (PAM's message ids are unique in a conversation); skipped`,
        record: context.record,
      });
      return undefined;
    }
    ids.add(message.id);
  }
  let dangling = 0;
  const messages = file.messages.map((message) =>
    toMessage(message, ids, context, () => {
      dangling++;
    }),
  );
  if (dangling > 0)
    context.report({
      level: 'warning',
      code: 'pam-dangling-link',
      message: `${String(dangling)} parent or child links name a message the conversation does not have; dropped`,
      record: context.record,
    });
  return assemble(file, chainLinear(withoutCycles(messages, context)));
}

/**
 * Parent links that close a cycle (a hostile or broken bundle) are cut where they close, and
 * said: the message there becomes a root, so every message of the cycle is in a thread (none
 * would be shown otherwise, since no walk from a root reaches them).
 */
function withoutCycles(messages: Message[], context: ConversionContext): Message[] {
  const parentOf = new Map(messages.map((m) => [m.id, m.parent_id]));
  const cut = new Set<string>();
  cutParentCycles(
    messages.map((m) => m.id),
    parentOf,
    (id) => cut.add(id),
  );
  if (cut.size === 0) return messages;
  context.report({
    level: 'warning',
    code: 'pam-parent-cycle',
    message: `the parent links of ${[...cut].slice(0, 3).join(', ')}${cut.size > 3 ? ', …' : ''} close a cycle; cut there, ${cut.size === 1 ? 'that message is' : 'those messages are'} kept as the start of a thread`,
    record: context.record,
  });
  // The link cut goes from both ends: the message's parent, and the parent's list of children.
  const cutFrom = new Set(messages.filter((m) => cut.has(m.id)).map((m) => m.parent_id));
  return messages.map((message) => {
    if (cut.has(message.id)) return { ...message, parent_id: null };
    if (!cutFrom.has(message.id)) return message;
    return {
      ...message,
      children_ids: message.children_ids.filter((child) => !cut.has(child)),
    };
  });
}

/**
 * PAM 25.3: a linear conversation may leave every message unlinked (`parent_id: null`,
 * `children_ids: []`, in chronological order), as the SDK writes Claude's; chatgraph chains
 * them, so the thread is the conversation rather than one message.
 */
function chainLinear(messages: Message[]): Message[] {
  if (messages.some((m) => m.parent_id !== null || m.children_ids.length > 0)) return messages;
  return messages.map((message, n) => ({
    ...message,
    parent_id: messages[n - 1]?.id ?? null,
    children_ids: n + 1 < messages.length ? [messages[n + 1]?.id ?? ''] : [],
  }));
}

// The thread the user saw ends at `raw_metadata.shown_leaf_id` (chatgraph's, PAM has no field
// for it); a file without one shows its latest leaf, as an export without one does.
function shownLeaf(messages: readonly Message[], raw: JsonObject): string | undefined {
  const named = raw[SHOWN_LEAF_KEY];
  if (typeof named === 'string' && messages.some((m) => m.id === named)) return named;
  let best: Message | undefined;
  for (const message of messages)
    if (message.children_ids.length === 0 && (!best || message.created_at >= best.created_at))
      best = message;
  return best?.id;
}

function assemble(file: PamConversationFile, messages: Message[]): Conversation {
  const raw: JsonObject = { ...(file.raw_metadata ?? {}) };
  const uuid = UUID.test(file.id);
  if (!uuid) raw[PAM_ID_KEY] = file.id;
  const leaf = shownLeaf(messages, raw);
  if (leaf !== undefined) raw[SHOWN_LEAF_KEY] = leaf;
  return {
    schema: 'portable-ai-memory-conversation',
    schema_version: PAM_SCHEMA_VERSION,
    id: pamConversationId(file.id),
    provider: {
      name: file.provider.name,
      conversation_id: file.provider.conversation_id ?? null,
      account_id: file.provider.account_id ?? null,
      export_format_version: file.provider.export_format_version ?? null,
    },
    title: file.title ?? null,
    temporal: {
      created_at: time(file.temporal.created_at),
      updated_at: file.temporal.updated_at ? time(file.temporal.updated_at) : null,
    },
    participants: participants(file, messages),
    messages,
    model: file.model ?? null,
    system_instruction: file.system_instruction ?? null,
    is_archived: file.is_archived ?? false,
    // PAM's tag pattern; a tag another tool wrote otherwise is lower-cased or left out.
    tags: [...new Set((file.tags ?? []).map((t) => t.toLowerCase()))].filter((t) =>
      /^[a-z0-9][a-z0-9_-]*$/.test(t),
    ),
    raw_metadata: raw,
  };
}

function participants(file: PamConversationFile, messages: Message[]): Participant[] {
  if (file.participants)
    return file.participants.map((p) => ({
      role: p.role,
      ...(p.name != null ? { name: p.name } : {}),
      ...(p.provider_id != null ? { provider_id: p.provider_id } : {}),
    }));
  const roles = new Set<Role>(messages.map((m) => m.role));
  return [...roles].map((role) => ({ role }));
}

function toMessage(
  message: PamMessage,
  ids: ReadonlySet<string>,
  context: ConversionContext,
  onDangling: () => void,
): Message {
  let parent = message.parent_id ?? null;
  if (parent !== null && !ids.has(parent)) {
    onDangling();
    parent = null;
  }
  const children = (message.children_ids ?? []).filter((id) => {
    if (ids.has(id)) return true;
    onDangling();
    return false;
  });
  const result: Message = {
    id: message.id,
    provider_message_id: message.provider_message_id ?? null,
    role: message.role,
    created_at: time(message.created_at),
    parent_id: parent,
    children_ids: children,
    model: message.model ?? null,
    is_thought: message.is_thought ?? false,
    token_count: message.token_count ?? null,
    attachments: (message.attachments ?? []).map((a) => attachment(a, context)),
    citations: (message.citations ?? []).map((c) => ({
      title: c.title ?? null,
      url: asAbsoluteUrl(c.url),
      snippet: c.snippet ?? null,
    })),
    tool_calls: (message.tool_calls ?? []).map((call) => ({
      id: call.id ?? null,
      name: call.name,
      input: call.input ?? null,
      output: call.output ?? null,
    })),
    raw_metadata: message.raw_metadata ?? {},
  };
  if (message.content)
    result.content = {
      type: message.content.type,
      text: message.content.text ?? null,
      ...(message.content.parts
        ? {
            parts: message.content.parts.map(toPart),
          }
        : {}),
    };
  return result;
}

// A ref is a file of the bundle it came from: found among the input's files by its path (or,
// for a file directly in `attachments/`, by its name), it is copied into this bundle; a URL
// stays; any other ref (a file the input lacks) is dropped. A nested ref is never matched by
// name alone: chatgraph's pasted texts (`attachments/text/<id>/1-notes.txt`) share names.
function attachment(
  item: NonNullable<PamMessage['attachments']>[number],
  context: ConversionContext,
): Attachment {
  const ref = item.ref ?? null;
  const kept =
    ref === null
      ? null
      : /^https?:\/\//i.test(ref)
        ? asAbsoluteUrl(ref)
        : (context.resolveAsset(ref) ??
          (/^attachments\/[^/]+$/.test(ref) ? context.resolveAsset(baseName(ref)) : undefined) ??
          null);
  return {
    type: item.type,
    name: item.name ?? null,
    mime_type: item.mime_type ?? null,
    size_bytes: item.size_bytes ?? null,
    ref: kept,
    provider_id: item.provider_id ?? null,
  };
}

// Checked by the schema (PamTime): every time here reads.
function time(value: string): string {
  return toTimestamp(value) ?? value;
}

// The part's members as written, those left out staying out.
function toPart(
  part: NonNullable<NonNullable<PamMessage['content']>['parts']>[number],
): ContentPart {
  const result: ContentPart = { type: part.type };
  for (const key of ['text', 'language', 'mime_type', 'ref'] as const) {
    const value = part[key];
    if (value !== undefined) result[key] = value;
  }
  return result;
}
