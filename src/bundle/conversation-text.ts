import { createHash } from 'node:crypto';
import type { Conversation, ImportMetadata, Message } from '../model/pam.js';
import { serialize } from './serialize.js';

const META_KEY = '\n  "import_metadata": ';

/** Each message's bytes in a conversation file, kept while the conversation grows (by object). */
export type MessageBytes = WeakMap<Message, Buffer>;

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

// Stands in for the messages while the rest is serialised (escaped by JSON, so no text of the
// conversation can look like it).
const SLOT = '\u0001messages\u0001';
const SLOT_TEXT = `"messages": ${JSON.stringify(SLOT)}`;
const OPEN = Buffer.from('"messages": [\n    ');
const BETWEEN = Buffer.from(',\n    ');
const CLOSE = Buffer.from('\n  ]');
const END = '\n}\n';

/**
 * The bytes {@link conversationText} gives as text, made of each message's bytes, kept in
 * `cache` by message object: a conversation that grew by a line serialises its new and changed
 * messages only, and its file is assembled and hashed as bytes (no multi-megabyte string is
 * built, copied and encoded at each append). JSON.stringify's indentation nests: a message two
 * levels deep is its own text with every line indented by 4 more spaces.
 */
export function conversationBytes(
  conversation: Conversation,
  meta: ImportMetadata,
  cache: MessageBytes,
): { bytes: Buffer; contentHash: string } {
  const { import_metadata: _ignored, ...content } = conversation;
  const shell = serialize({ ...content, messages: SLOT });
  const at = shell.indexOf(SLOT_TEXT);
  const chunks: Buffer[] = [Buffer.from(shell.slice(0, at))];
  if (content.messages.length === 0) chunks.push(Buffer.from('"messages": []'));
  else {
    chunks.push(OPEN);
    content.messages.forEach((message, i) => {
      let bytes = cache.get(message);
      if (bytes === undefined) {
        bytes = Buffer.from(JSON.stringify(message, null, 2).replace(/\n/g, '\n    '));
        cache.set(message, bytes);
      }
      if (i > 0) chunks.push(BETWEEN);
      chunks.push(bytes);
    });
    chunks.push(CLOSE);
  }
  // The serialisation ends with END; import metadata goes in before it.
  chunks.push(Buffer.from(shell.slice(at + SLOT_TEXT.length, shell.length - END.length)));
  const body = Buffer.concat(chunks);
  const contentHash = createHash('sha256').update(body).update(END).digest('hex');
  const metaText = JSON.stringify(meta, null, 2).replace(/\n/g, '\n  ');
  return {
    bytes: Buffer.concat([body, Buffer.from(`,${META_KEY}${metaText}${END}`)]),
    contentHash,
  };
}
