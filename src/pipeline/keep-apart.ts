import type { BundleWriter } from '../bundle/bundle-writer.js';
import { parseConversationFile } from '../bundle/conversation-schema.js';
import { contentHashOfText, conversationText } from '../bundle/conversation-text.js';
import { inlineTextDirOf } from '../bundle/inline-text.js';
import { toIndexEntry } from '../bundle/memory-store.js';
import { stableId } from '../model/ids.js';
import type { Conversation } from '../model/pam.js';
import type { ConvertedConversation } from './convert-record.js';
import { parseWrittenConversation } from './written-conversation.js';

/** A conversation that arrived with the id of another one in the bundle, and the id it got. */
export interface KeptApart {
  converted: ConvertedConversation;
  /** The id it came with (the bundle's conversation keeps it). */
  from: string;
  /** Why the two are not one conversation: the field that differs, both values. */
  why: string;
}

/**
 * Whether two copies are one conversation by the merge rules: the same platform, the same
 * conversation id on it (both without one counts as the same), and the same account when both
 * name one. chatgraph's ids are UUID v5 of the platform and its conversation id, so anyone who
 * knows a chat's URL can compute one and write it into a PAM file: the id alone proves nothing.
 * The first field that differs, described; undefined when they are one conversation.
 */
export function differentConversation(
  stored: Conversation,
  arriving: Conversation,
): string | undefined {
  const [a, b] = [stored.provider, arriving.provider];
  if (a.name !== b.name) return `platform "${a.name}" here, "${b.name}" in this file`;
  if ((a.conversation_id ?? null) !== (b.conversation_id ?? null))
    return `platform conversation id ${quote(a.conversation_id)} here, ${quote(b.conversation_id)} in this file`;
  if (a.account_id != null && b.account_id != null && a.account_id !== b.account_id)
    return `account ${quote(a.account_id)} here, ${quote(b.account_id)} in this file`;
  return undefined;
}

const quote = (value: string | null | undefined): string =>
  value == null ? 'none' : JSON.stringify(value);

// How many other ids are tried before giving up (each is a UUID v5: a collision is deliberate).
const TRIES = 16;

/**
 * A converted conversation whose id is taken in the bundle by another conversation (see
 * {@link differentConversation}) is given an id of its own, so neither replaces the other: a
 * UUID v5 of its id, platform, conversation id and account, the same on every import of it
 * (importing the same file again merges with its own copy). Its pasted texts move with it.
 * `stored`: the text of the bundle's file under the id it ends with (read once, for the merge).
 */
export function keepApart(
  writer: BundleWriter,
  converted: ConvertedConversation,
): { apart: KeptApart | undefined; stored: { text: string | undefined } } {
  const text = writer.storedText(converted.id);
  // No copy there, or the same content (a re-import): nothing to tell apart.
  if (text === undefined || sameContent(text, converted))
    return { apart: undefined, stored: { text } };
  const arriving = parseWrittenConversation(converted.text, converted.id);
  const why = clash(text, arriving);
  if (why === undefined) return { apart: undefined, stored: { text } };
  const { name, conversation_id, account_id } = arriving.provider;
  let id = converted.id;
  for (let n = 0; n < TRIES; n++) {
    id = stableId('conversation-kept-apart', id, name, conversation_id ?? '', account_id ?? '');
    const there = writer.storedText(id);
    if (there === undefined || clash(there, arriving) === undefined)
      return {
        apart: { converted: withId(converted, arriving, id), from: converted.id, why },
        stored: { text: there },
      };
  }
  throw new Error(`no free id for conversation ${converted.id} after ${String(TRIES)} tries`);
}

function sameContent(text: string, converted: ConvertedConversation): boolean {
  return contentHashOfText(text) === (converted.contentHash ?? contentHashOfText(converted.text));
}

// Why the bundle's file (its text) is not `arriving`; undefined when it is the same
// conversation, or no longer reads as one (written anew, as before).
function clash(text: string, arriving: Conversation): string | undefined {
  const parsed = parseConversationFile(text);
  if (!parsed.ok) return undefined;
  return differentConversation(parsed.conversation, arriving);
}

function withId(
  converted: ConvertedConversation,
  arriving: Conversation,
  id: string,
): ConvertedConversation {
  const [fromDir, toDir] = [inlineTextDirOf(converted.id), inlineTextDirOf(id)];
  const move = (ref: string): string =>
    ref.startsWith(fromDir) ? `${toDir}${ref.slice(fromDir.length)}` : ref;
  const { import_metadata: meta, ...content } = arriving;
  const conversation: Conversation = {
    ...content,
    id,
    messages: content.messages.map((message) => ({
      ...message,
      attachments: message.attachments.map((a) =>
        a.ref === null ? a : { ...a, ref: move(a.ref) },
      ),
    })),
  };
  if (!meta) throw new Error(`conversation ${converted.id} was converted without import metadata`);
  const { text, contentHash } = conversationText(
    conversation,
    meta,
    converted.contentHash !== undefined,
  );
  // Its graph was projected under the id it came with: projected again from what is written.
  const { batch: _projected, ...rest } = converted;
  return {
    ...rest,
    id,
    text,
    contentHash,
    index: toIndexEntry(conversation),
    inlineAssets: converted.inlineAssets.map(({ ref, text: body }) => ({
      ref: move(ref),
      text: body,
    })),
  };
}
