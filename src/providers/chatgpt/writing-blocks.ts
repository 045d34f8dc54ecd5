import type { DraftMessage } from '../../model/draft.js';
import { oneLine } from '../../model/title.js';
import type { ConversionContext } from '../provider.js';

/*
 * ChatGPT, August–September 2026: a canvas document may be written inline in the assistant's
 * text as a container directive,
 *
 *     :::writing{variant="document" id="38274" subject="…"}
 *     …the document…
 *     :::
 *
 * (variants seen: `document`, `email` with `subject` and `recipient`, `standard`,
 * `social_post`; some carry `title`; the id is a short number; quotes may be typographic, or
 * missing). Each block becomes a document of its message, named by its subject (or title, or
 * first heading), versioned by its id as canvases are, and leaves the message's text, which
 * keeps the words around it. A block inside a code fence is an example, and one never closed is
 * text still streaming: both stay as they are.
 */

const OPEN = /^:::writing\{([^}\n]*)\}[ \t]*$/;
const CLOSE = /^:::[ \t]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const ATTRIBUTE = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)'|([^\s"“”']+))/g;

/** One block: its attributes and its text. */
export interface WritingBlock {
  attributes: Record<string, string>;
  body: string;
}

function attributesOf(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of source.matchAll(ATTRIBUTE)) {
    const [, name = '', ...values] = match;
    attributes[name] = values.find((v) => typeof v === 'string') ?? '';
  }
  return attributes;
}

/** The text with its writing blocks taken out, and the blocks, in order. */
export function takeWritingBlocks(text: string): { text: string; blocks: WritingBlock[] } {
  if (!text.includes(':::writing{')) return { text, blocks: [] };
  const lines = text.split('\n');
  const kept: string[] = [];
  const blocks: WritingBlock[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length)
        fence = undefined;
      kept.push(line);
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      kept.push(line);
      continue;
    }
    const open = OPEN.exec(line);
    const end = open ? closingLine(lines, i + 1) : undefined;
    if (!open || end === undefined) {
      kept.push(line);
      continue;
    }
    blocks.push({
      attributes: attributesOf(open[1] ?? ''),
      body: lines.slice(i + 1, end).join('\n'),
    });
    i = end;
  }
  if (blocks.length === 0) return { text, blocks };
  return {
    text: kept
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    blocks,
  };
}

/** The line closing a block opened above `from` (fences inside it skipped), or undefined. */
function closingLine(lines: readonly string[], from: number): number | undefined {
  let fence: string | undefined;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length)
        fence = undefined;
    } else if (marker !== undefined) fence = marker;
    else if (CLOSE.test(line)) return i;
  }
  return undefined;
}

/** A block's name: its subject, its title, its first heading, else what kind of text it is. */
function nameOf(block: WritingBlock): string {
  const { subject, title, variant } = block.attributes;
  const heading = /^#{1,6}\s+(.+)$/m.exec(block.body)?.[1];
  const name = [subject, title, heading].map((v) => oneLine(v ?? '')).find((v) => v !== '');
  return name ?? `Untitled ${(variant ?? 'document').replace(/_/g, ' ')}`;
}

/**
 * Takes the writing blocks out of each assistant message's text into document attachments of
 * it: "Subject", then "Subject (version 2)" when a later message writes the same id again.
 */
export function attachWritingBlocks(
  drafts: DraftMessage[],
  conversationId: string,
  context: ConversionContext,
): void {
  const versions = new Map<string, { name: string; count: number }>();
  for (const draft of drafts) {
    const content = draft.content;
    if (draft.role !== 'assistant' || !content?.text?.includes(':::writing{')) continue;
    const { text, blocks } = takeWritingBlocks(content.text);
    if (blocks.length === 0) continue;
    draft.content =
      content.parts !== undefined
        ? {
            ...content,
            text,
            parts: content.parts.map((part) =>
              part.type === 'text' && typeof part.text === 'string'
                ? { ...part, text: takeWritingBlocks(part.text).text }
                : part,
            ),
          }
        : { ...content, text };
    const written: { id: string | null; name: string; variant: string | null }[] = [];
    for (const block of blocks) {
      const id = block.attributes.id ?? null;
      const known = id !== null ? versions.get(id) : undefined;
      const base = known?.name ?? nameOf(block);
      const count = (known?.count ?? 0) + 1;
      if (id !== null) versions.set(id, { name: base, count });
      const name = count === 1 ? base : `${base} (version ${count})`;
      draft.attachments.push({
        type: 'document',
        name,
        mime_type: 'text/markdown',
        size_bytes: Buffer.byteLength(block.body, 'utf8'),
        ref: context.attachText(conversationId, base, block.body),
        provider_id: null,
      });
      written.push({ id, name, variant: block.attributes.variant ?? null });
    }
    draft.raw_metadata.writing_blocks = written;
  }
}
