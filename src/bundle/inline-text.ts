import { INLINE_TEXT_DIR } from '../model/bundle-refs.js';
import type { Conversation } from '../model/pam.js';
import type { RedactionCounts, Redactor } from '../model/redact.js';

/**
 * Where the bundle keeps attachment text that an export holds inline (Claude.ai's
 * `attachments[].extracted_content`): PAM's Attachment has no text field, so the text becomes a
 * file here and the attachment's `ref` points at it. Copied export files never land here (see
 * the asset index, which keeps this name free).
 */
export { INLINE_TEXT_DIR } from '../model/bundle-refs.js';

/** One text to write into the bundle, at its bundle-relative `ref`. */
export interface InlineAsset {
  ref: string;
  text: string;
}

const NAME_LIMIT = 80;

// File names keep letters, digits, dots, dashes and underscores; no leading dot.
function sanitize(name: string): string {
  return name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '_')
    .replace(/\.txt$/i, '')
    .slice(0, NAME_LIMIT);
}

/**
 * The ref of a conversation's `n`-th inline text (1-based): one folder per conversation (its
 * PAM id, so deleting a conversation deletes one folder), the position first so two texts of
 * one conversation never share a path, then the original name for people browsing the bundle.
 */
export function inlineTextRef(conversationId: string, n: number, name: string | null): string {
  const base = name !== null ? sanitize(name) : '';
  return `${INLINE_TEXT_DIR}/${sanitize(conversationId)}/${n}${base ? `-${base}` : ''}.txt`;
}

/** The folder of a conversation's inline texts, with its trailing slash. */
export function inlineTextDirOf(conversationId: string): string {
  return `${INLINE_TEXT_DIR}/${sanitize(conversationId)}/`;
}

/** Whether a ref names an inline text file (and nothing outside the folder). */
export function isInlineTextRef(ref: string): boolean {
  return (
    ref.startsWith(`${INLINE_TEXT_DIR}/`) &&
    ref.endsWith('.txt') &&
    !ref.split('/').some((part) => part === '..' || part === '.' || part === '') &&
    !ref.includes('\\')
  );
}

/**
 * Collects the inline texts of one record while a provider converts it (the provider stays
 * pure: it asks for a ref, and the pipeline writes the files). Numbered per conversation.
 */
export class InlineTexts {
  private readonly byRef = new Map<string, { conversationId: string; text: string }>();
  private readonly counters = new Map<string, number>();

  /** Keeps a text for an attachment of the conversation with PAM id `conversationId`; returns its ref. */
  readonly attach = (conversationId: string, name: string | null, text: string): string => {
    const n = (this.counters.get(conversationId) ?? 0) + 1;
    this.counters.set(conversationId, n);
    const ref = inlineTextRef(conversationId, n, name);
    this.byRef.set(ref, { conversationId, text });
    return ref;
  };

  /** How many texts were kept. */
  get size(): number {
    return this.byRef.size;
  }

  /** The text behind a ref kept here. */
  readonly lookup = (ref: string): string | undefined => this.byRef.get(ref)?.text;

  /** Shows every text to a redactor, so what it finds is masked in the conversation too. */
  learn(redactor: Redactor): void {
    for (const entry of this.byRef.values()) redactor.learnText(entry.text);
  }

  /** Masks secrets in every text (as `--redact` masks the conversation). */
  redact(redactor: Redactor, counts: RedactionCounts): void {
    for (const entry of this.byRef.values()) entry.text = redactor.maskText(entry.text, counts);
  }

  /** The texts one conversation's attachments point to. */
  forConversation(conversation: Conversation): InlineAsset[] {
    const assets: InlineAsset[] = [];
    for (const message of conversation.messages) {
      for (const attachment of message.attachments) {
        const entry = attachment.ref !== null ? this.byRef.get(attachment.ref) : undefined;
        if (attachment.ref !== null && entry?.conversationId === conversation.id)
          assets.push({ ref: attachment.ref, text: entry.text });
      }
    }
    return assets;
  }

  /**
   * Sets each inline attachment's `size_bytes` to its text's UTF-8 size (after redaction the
   * text may be shorter than the provider measured).
   */
  settleSizes(conversation: Conversation): void {
    for (const message of conversation.messages) {
      for (const attachment of message.attachments) {
        const text = attachment.ref !== null ? this.lookup(attachment.ref) : undefined;
        if (text !== undefined) attachment.size_bytes = Buffer.byteLength(text, 'utf8');
      }
    }
  }
}
