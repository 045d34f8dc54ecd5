import type { Message } from '../model/pam.js';

/** The longest preview kept: a list shows one line of it, cut by the page to its width. */
export const PREVIEW_LENGTH = 160;

// Made at the first long text, not at import: ICU's break rules cost every command that loads
// this module (a cold `search` among them, issue 46).
let graphemes: Intl.Segmenter | undefined;

/**
 * A message's text as one line of plain text: Markdown marks, HTML tags and code fences
 * dropped, whitespace folded, cut at {@link PREVIEW_LENGTH} characters with an ellipsis.
 */
export function plainPreview(text: string): string {
  const plain = text
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>\n]{1,200}>/g, ' ')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|`|~~)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= PREVIEW_LENGTH) return plain;
  // Cut between characters as people see them (an emoji or an accented letter stays whole).
  let cut = '';
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(plain)) {
    if (cut.length + segment.length > PREVIEW_LENGTH - 1) break;
    cut += segment;
  }
  return `${cut.trimEnd()}…`;
}

/**
 * A conversation's preview: its first user message on the shown thread, as plain text; empty
 * when it has none. Made when the conversation is written, so a list never reads messages.
 */
export function previewOf(thread: readonly Message[]): string {
  for (const message of thread) {
    if (message.role !== 'user') continue;
    const preview = plainPreview(message.content?.text ?? '');
    if (preview !== '') return preview;
  }
  return '';
}

/** The model a conversation names, else the first its shown thread's messages name. */
export function modelOf(
  named: string | null | undefined,
  thread: readonly Message[],
): string | null {
  if (named) return named;
  for (const message of thread) if (message.model) return message.model;
  return null;
}
