import type { BundleWriter } from '../bundle/bundle-writer.js';
import { parseConversationFile } from '../bundle/conversation-schema.js';
import { contentHashOfText, conversationText } from '../bundle/conversation-text.js';
import { toIndexEntry } from '../bundle/memory-store.js';
import { countConversation } from '../import-report.js';
import { mergeCopies, updatedOf } from '../model/merge-copies.js';
import type { Conversation } from '../model/pam.js';
import { mergeRedactor, storedCopyForMerge } from '../model/stored-copy.js';
import type { ConvertedConversation } from './convert-record.js';

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
  options: { redact: boolean },
): StoredMerge {
  const stored = { text: writer.storedText(converted.id) };
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
  const arriving = JSON.parse(converted.text) as Conversation;
  const merged = mergeCopies(storedCopy, arriving);
  const storedLeads = merged.leading === 'stored';
  // Said only when the bundle's copy is strictly newer (it also leads with more messages at one time).
  const keptNewer = storedLeads && updatedOf(storedCopy) > updatedOf(arriving);
  if (merged.added === 0 && !storedLeads) return asIs;
  // Its batch was projected from the arriving copy: the sink projects what is written instead.
  const { batch: _projected, ...unprojected } = converted;
  if (merged.added === 0 && !options.redact) {
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
  const { import_metadata: meta, ...content } = merged.conversation;
  const { text, contentHash } = conversationText(
    content,
    arriving.import_metadata ?? meta ?? missingMeta(),
    true,
  );
  const storedRefs = storedLeads ? refsOf(storedCopy) : new Set<string>();
  // An older copy's inline texts never overwrite the newer copy's (they are numbered by position).
  const inlineAssets = converted.inlineAssets.filter((asset) => !storedRefs.has(asset.ref));
  const rewritten = new Set(inlineAssets.map((asset) => asset.ref));
  const used = refsOf(merged.conversation);
  const maskedStoredTexts = storedTexts.flatMap(({ ref, text }) => {
    if (!redactor || rewritten.has(ref) || !used.has(ref)) return [];
    const masked = redactor.maskText(text, {});
    return masked === text ? [] : [{ ref, text: masked }];
  });
  return {
    converted: {
      ...unprojected,
      updated: updatedOf(merged.conversation),
      text,
      contentHash,
      index: toIndexEntry(merged.conversation),
      counts: countConversation(merged.conversation),
      inlineAssets: [...inlineAssets, ...maskedStoredTexts],
    },
    stored,
    keptNewer,
    kept: false,
    added: merged.added,
  };
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
