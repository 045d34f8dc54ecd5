import { createHash } from 'node:crypto';
import type { Conversation, ImportMetadata, Message } from '../model/pam.js';
import { serialize } from './serialize.js';

const META_KEY = '\n  "import_metadata": ';

/** Each message's text in a conversation file, kept while the conversation grows (by object). */
export type MessageTexts = WeakMap<Message, string>;

/**
 * A conversation file's text and the hash of its content without `import_metadata`, so that
 * the same conversation from a newer export (another file, another checksum) counts as unchanged.
 * The text is the same as serializing the conversation with `import_metadata` as its last key.
 * With `texts`, messages already serialised (the same objects) are not serialised again.
 */
export function conversationText(
  conversation: Conversation,
  meta: ImportMetadata,
  withHash: boolean,
  texts?: MessageTexts,
): { text: string; contentHash: string | undefined } {
  // Without a hash to make, one serialisation: conversations come without import_metadata, so
  // adding it puts it last, as below.
  if (!withHash)
    return { text: serialize({ ...conversation, import_metadata: meta }), contentHash: undefined };
  const { import_metadata: _ignored, ...content } = conversation;
  const bare = texts ? assembled(content, texts) : serialize(content);
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

/**
 * The same text as `serialize(content)`, made of the messages' texts (JSON.stringify's
 * indentation nests: a message two levels deep is its own text with every line indented by 4).
 */
function assembled(content: Omit<Conversation, 'import_metadata'>, texts: MessageTexts): string {
  const shell = serialize({ ...content, messages: SLOT });
  const at = shell.indexOf(SLOT_TEXT);
  const parts = content.messages.map((message) => {
    let text = texts.get(message);
    if (text === undefined) {
      text = JSON.stringify(message, null, 2).replace(/\n/g, '\n    ');
      texts.set(message, text);
    }
    return text;
  });
  const list = parts.length === 0 ? '[]' : `[\n    ${parts.join(',\n    ')}\n  ]`;
  return `${shell.slice(0, at)}"messages": ${list}${shell.slice(at + SLOT_TEXT.length)}`;
}
