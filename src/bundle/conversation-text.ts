import { createHash } from 'node:crypto';
import type { Conversation, ImportMetadata } from '../model/pam.js';
import { serialize } from './serialize.js';

const META_KEY = '\n  "import_metadata": ';

/**
 * A conversation file's text and the hash of its content without `import_metadata`, so that
 * the same conversation from a newer export (another file, another checksum) counts as unchanged.
 * The text is the same as serializing the conversation with `import_metadata` as its last key.
 */
export function conversationText(
  conversation: Conversation,
  meta: ImportMetadata,
  withHash: boolean,
): { text: string; contentHash: string | undefined } {
  // Without a hash to make, one serialisation: conversations come without import_metadata, so
  // adding it puts it last, as below.
  if (!withHash)
    return { text: serialize({ ...conversation, import_metadata: meta }), contentHash: undefined };
  const { import_metadata: _ignored, ...content } = conversation;
  const bare = serialize(content);
  const contentHash = createHash('sha256').update(bare).digest('hex');
  const metaText = JSON.stringify(meta, null, 2).replace(/\n/g, '\n  ');
  const text = `${bare.slice(0, bare.length - 3)},${META_KEY}${metaText}\n}\n`;
  return { text, contentHash };
}

/** The content hash of a conversation file written by {@link conversationText}. */
export function contentHashOfText(text: string): string {
  const at = text.lastIndexOf(`,${META_KEY}`);
  const bare = at === -1 ? text : `${text.slice(0, at)}\n}\n`;
  return createHash('sha256').update(bare).digest('hex');
}
