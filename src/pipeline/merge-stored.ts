import type { BundleWriter } from '../bundle/bundle-writer.js';
import { parseConversationFile } from '../bundle/conversation-schema.js';
import { isInlineTextRef, type InlineAsset } from '../bundle/inline-text.js';
import { contentHashOfText, conversationText } from '../bundle/conversation-text.js';
import { toIndexEntry } from '../bundle/memory-store.js';
import { countConversation } from './import-report.js';
import { mergeCopies, updatedOf } from '../model/merge-copies.js';
import type { Conversation } from '../model/pam.js';
import type { Redactor } from '../model/redact.js';
import { mergeRedactor, storedCopyForMerge } from '../model/stored-copy.js';
import type { ConvertedConversation } from './convert-record.js';
import { parseWrittenConversation } from './written-conversation.js';

/** A converted conversation set against the bundle's copy of it. */
export interface StoredMerge {
  /** What to write: the arriving copy, the stored one, or the two merged. */
  converted: ConvertedConversation;
  /** The bundle file's text as it was (read once, handed to the writer). */
  stored: { text: string | undefined };
  /** The bundle's copy was strictly newer (a later update time): it leads the result. */
  keptNewer: boolean;
  /** The bundle's copy stays as it is: the arriving one adds nothing to it. */
  kept: boolean;
  /** Messages of the result that only the copy not leading had. */
  added: number;
}

/**
 * Stage 5b, merge with the bundle: a conversation already in the bundle (from an earlier
 * import, or earlier in this one) is never replaced by a copy that knows less. The two copies
 * are merged (see `mergeCopies`): an older export, or a Claude Code log cut short, leaves the
 * stored copy as it is, or adds to it the messages only it had.
 */
export function mergeWithStored(
  writer: BundleWriter,
  converted: ConvertedConversation,
  options: { redact: boolean; stored?: { text: string | undefined } },
): StoredMerge {
  const stored = options.stored ?? { text: writer.storedText(converted.id) };
  const asIs = { converted, stored, keptNewer: false, kept: false, added: 0 };
  if (stored.text === undefined) return asIs;
  const storedHash = contentHashOfText(stored.text);
  if (storedHash === (converted.contentHash ?? contentHashOfText(converted.text))) return asIs;
  // A bundle file that is not a PAM conversation any more is written anew, as before.
  const parsed = parseConversationFile(stored.text);
  if (!parsed.ok) return asIs;
  // `--redact` masks what was written before too: a secret of the stored copy is not merged
  // back, nor left in the attachment texts it refers to (learnt first, masked bare in both).
  const redactor = mergeRedactor(options.redact);
  const storedTexts = redactor ? inlineTextsOf(writer, parsed.conversation) : [];
  for (const { text } of storedTexts) redactor?.learnText(text);
  const storedCopy = storedCopyForMerge(parsed.conversation, redactor);
  // Text this process wrote from a conversation it built.
  const arriving = parseWrittenConversation(converted.text, converted.id);
  const merged = mergeCopies(storedCopy, arriving);
  const storedLeads = merged.leading === 'stored';
  // Said only when the bundle's copy is strictly newer (it also leads with more messages at one time).
  const keptNewer = storedLeads && updatedOf(storedCopy) > updatedOf(arriving);
  const changed = merged.added + merged.filled;
  if (changed === 0 && !storedLeads) return asIs;
  // Its batch was projected from the arriving copy: the sink projects what is written instead.
  const { batch: _projected, ...unprojected } = converted;
  if (changed === 0 && !options.redact) {
    const conversation = parsed.conversation;
    return {
      converted: {
        ...unprojected,
        updated: updatedOf(conversation),
        text: stored.text,
        contentHash: storedHash,
        index: toIndexEntry(conversation),
        counts: countConversation(conversation),
        refs: [],
        inlineAssets: [],
      },
      stored,
      keptNewer,
      kept: true,
      added: 0,
    };
  }
  // The other copy's messages keep their attachment texts: a path the leading copy uses too
  // (paths are numbered by position within each copy) is given a new number.
  const { conversation: joined, moved } = renumberExtras(
    merged.conversation,
    storedLeads ? storedCopy : arriving,
  );
  const { import_metadata: meta, ...content } = joined;
  const { text, contentHash } = conversationText(
    content,
    arriving.import_metadata ?? meta ?? missingMeta(),
    true,
  );
  return {
    converted: {
      ...unprojected,
      updated: updatedOf(joined),
      text,
      contentHash,
      index: toIndexEntry(joined),
      counts: countConversation(joined),
      inlineAssets: textsToWrite(writer, converted.inlineAssets, {
        storedLeads,
        storedCopy,
        storedTexts,
        joined,
        moved,
        redactor,
      }),
    },
    stored,
    keptNewer,
    kept: false,
    added: merged.added,
  };
}

/**
 * The inline attachment texts to write for a merged conversation: the arriving copy's (an older
 * copy's never overwrite the newer's), with `--redact` the stored ones it keeps masked, and the
 * texts of the paths {@link renumberExtras} moved.
 */
function textsToWrite(
  writer: BundleWriter,
  arrivingTexts: readonly InlineAsset[],
  merge: {
    storedLeads: boolean;
    storedCopy: Conversation;
    storedTexts: readonly InlineAsset[];
    joined: Conversation;
    moved: ReadonlyMap<string, string>;
    redactor: Redactor | undefined;
  },
): InlineAsset[] {
  const { storedLeads, redactor } = merge;
  const storedRefs = storedLeads ? refsOf(merge.storedCopy) : new Set<string>();
  const arriving = arrivingTexts.filter((asset) => !storedRefs.has(asset.ref));
  const rewritten = new Set(arriving.map((asset) => asset.ref));
  const used = refsOf(merge.joined);
  const masked = merge.storedTexts.flatMap(({ ref, text }) => {
    if (!redactor || rewritten.has(ref) || !used.has(ref)) return [];
    const maskedText = redactor.maskText(text, {});
    return maskedText === text ? [] : [{ ref, text: maskedText }];
  });
  const moved = [...merge.moved].flatMap(([from, to]) => {
    const text = storedLeads
      ? arrivingTexts.find((asset) => asset.ref === from)?.text
      : writer.storedInlineText(from);
    if (text === undefined) return [];
    return [{ ref: to, text: redactor && !storedLeads ? redactor.maskText(text, {}) : text }];
  });
  return [...arriving, ...masked, ...moved];
}

// An inline text's path: its folder, its number, the rest of its name.
const NUMBERED = /^(.*\/)(\d+)((?:-[^/]*)?\.txt)$/;

/**
 * The joined conversation with each inline-text path that a message only the other copy had
 * shares with the leading copy renumbered past every number in use; unmerged paths keep their names.
 */
function renumberExtras(
  joined: Conversation,
  lead: Conversation,
): { conversation: Conversation; moved: Map<string, string> } {
  const leadRefs = refsOf(lead);
  const leadIds = new Set(lead.messages.map((m) => m.id));
  const moved = new Map<string, string>();
  let next = 1;
  for (const ref of refsOf(joined)) {
    const number = NUMBERED.exec(ref)?.[2];
    if (number !== undefined) next = Math.max(next, Number(number) + 1);
  }
  const messages = joined.messages.map((message) => {
    if (leadIds.has(message.id)) return message;
    const attachments = message.attachments.map((attachment) => {
      const { ref } = attachment;
      const parts = ref !== null && isInlineTextRef(ref) ? NUMBERED.exec(ref) : null;
      if (ref === null || !parts || !leadRefs.has(ref)) return attachment;
      const to = `${parts[1] ?? ''}${next++}${parts[3] ?? ''}`;
      moved.set(ref, to);
      return { ...attachment, ref: to };
    });
    return { ...message, attachments };
  });
  return { conversation: moved.size === 0 ? joined : { ...joined, messages }, moved };
}

function refsOf(conversation: Conversation): Set<string> {
  const refs = new Set<string>();
  for (const message of conversation.messages)
    for (const attachment of message.attachments)
      if (attachment.ref !== null) refs.add(attachment.ref);
  return refs;
}

// The inline attachment texts a stored copy refers to, as the bundle holds them.
function inlineTextsOf(
  writer: BundleWriter,
  conversation: Conversation,
): { ref: string; text: string }[] {
  return [...refsOf(conversation)].flatMap((ref) => {
    const text = writer.storedInlineText(ref);
    return text === undefined ? [] : [{ ref, text }];
  });
}

function missingMeta(): never {
  throw new Error('a converted conversation has no import metadata');
}
