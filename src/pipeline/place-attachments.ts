import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Bundle } from '../bundle/bundle.js';
import type { BundleWriter } from '../bundle/bundle-writer.js';
import { conversationText } from '../bundle/conversation-text.js';
import { ATTACHMENTS_DIR } from '../model/bundle-refs.js';
import type { Conversation } from '../model/pam.js';
import type { AssetIndex } from '../read/asset-index.js';
import { baseName, type Entry } from '../read/entry.js';
import type { ConvertedConversation } from './convert-record.js';
import { parseWrittenConversation } from './written-conversation.js';

/** How many other places are tried for one attachment before giving up. */
const TRIES = 64;

/**
 * A converted conversation's attachment files, each given a place in the bundle that no other
 * file holds: an export's file is named after its own name (`attachments/file-abc-photo.png`),
 * and a file of another export (a foreign PAM bundle, say) can carry the same name. A file
 * already there with the same bytes is shared (deleting a conversation keeps a file another
 * names); one with other bytes is never overwritten: this conversation's copy goes to
 * `attachments/<conversation id>/<name>` (numbered if that is taken too), and the conversation
 * is rewritten to point there. The same input placed again lands in the same places. One per
 * import: a file shared by many conversations is compared once.
 */
export class AttachmentPlaces {
  /** The places settled in this import, and the export file each holds. */
  private readonly settled = new Map<string, Entry>();

  constructor(private readonly writer: BundleWriter) {}

  async place(
    converted: ConvertedConversation,
    assets: AssetIndex | undefined,
  ): Promise<ConvertedConversation> {
    if (!assets || converted.refs.length === 0) return converted;
    const moved = new Map<string, string>();
    for (const ref of converted.refs) {
      const entry = assets.entryOf(ref);
      if (!entry || (await this.holds(ref, entry)) !== 'other') continue;
      moved.set(ref, await this.freePlace(converted.id, ref, entry));
    }
    if (moved.size === 0) return converted;
    return withMoves(converted, moved);
  }

  private async freePlace(id: string, ref: string, entry: Entry): Promise<string> {
    const name = baseName(ref);
    for (let n = 1; n <= TRIES; n++) {
      const place = `${ATTACHMENTS_DIR}/${id}/${n === 1 ? '' : `${String(n)}-`}${name}`;
      if ((await this.holds(place, entry)) !== 'other') return place;
    }
    throw new Error(`no free place for attachment ${ref} of conversation ${id}`);
  }

  /** What the bundle holds at `ref`: nothing, this entry's bytes, or another file. */
  private async holds(ref: string, entry: Entry): Promise<'none' | 'same' | 'other'> {
    const known = this.settled.get(ref);
    if (known !== undefined)
      return known === entry ? 'same' : await compare(this.writer.bundle, ref, entry);
    const held = await compare(this.writer.bundle, ref, entry);
    if (held !== 'other') this.settled.set(ref, entry);
    return held;
  }
}

function withMoves(
  converted: ConvertedConversation,
  moved: ReadonlyMap<string, string>,
): ConvertedConversation {
  const conversation = parseWrittenConversation(converted.text, converted.id);
  const { import_metadata: meta, ...content } = withRefs(conversation, moved);
  if (!meta) throw new Error(`conversation ${converted.id} was converted without import metadata`);
  const { text, contentHash } = conversationText(
    content,
    meta,
    converted.contentHash !== undefined,
  );
  // Its graph names the refs it came with: projected again from what is written.
  const { batch: _projected, ...rest } = converted;
  const sources = { ...converted.assetSources };
  for (const [from, to] of moved) sources[to] = converted.assetSources?.[from] ?? from;
  return {
    ...rest,
    text,
    contentHash,
    refs: converted.refs.map((ref) => moved.get(ref) ?? ref),
    assetSources: sources,
  };
}

async function compare(
  bundle: Bundle,
  ref: string,
  entry: Entry,
): Promise<'none' | 'same' | 'other'> {
  const path = join(bundle.dir, ref);
  if (!bundle.files.exists(path)) return 'none';
  if (bundle.files.sealed) {
    const bytes = await bundle.files.read(path);
    if (entry.size !== undefined && bytes.length !== entry.size) return 'other';
    return crc32(bytes) === (await crcOfEntry(entry)) ? 'same' : 'other';
  }
  const size = (await stat(path)).size;
  if (entry.size !== undefined && size !== entry.size) return 'other';
  return (await crcOfFile(path)) === (await crcOfEntry(entry)) ? 'same' : 'other';
}

// A zip records each entry's CRC-32: the entry is not decompressed to compare it.
async function crcOfEntry(entry: Entry): Promise<number> {
  if (entry.crc32 !== undefined) return entry.crc32;
  let crc = 0;
  for await (const chunk of (await entry.open()) as AsyncIterable<Buffer>) crc = crc32(chunk, crc);
  return crc;
}

async function crcOfFile(path: string): Promise<number> {
  let crc = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>)
    crc = crc32(chunk, crc);
  return crc;
}

function withRefs(conversation: Conversation, moved: ReadonlyMap<string, string>): Conversation {
  const to = (ref: string | null | undefined): string | null | undefined =>
    ref == null ? ref : (moved.get(ref) ?? ref);
  return {
    ...conversation,
    messages: conversation.messages.map((message) => ({
      ...message,
      attachments: message.attachments.map((a) => ({ ...a, ref: to(a.ref) ?? null })),
      ...(message.content?.parts
        ? {
            content: {
              ...message.content,
              parts: message.content.parts.map((part) =>
                part.ref == null ? part : { ...part, ref: to(part.ref) ?? null },
              ),
            },
          }
        : {}),
    })),
  };
}
