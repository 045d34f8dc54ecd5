import type { Citation, ContentPart, JsonObject } from '../../model/pam.js';
import { asAbsoluteUrl, asArray, asNumber, asObject, asString, asText } from '../untrusted.js';

/*
 * ChatGPT's inline reference markers (2024–2026 exports). An answer's text carries runs of
 * private-use characters: U+E200 opens a marker, U+E202 separates its fields, U+E201 closes it
 * (`\uE200cite\uE202turn0search3\uE202turn0search4\uE201`, shown in most fonts as
 * "citeturn0search3turn0search4"); U+E203 and U+E204 bracket a span a citation covers.
 * `metadata.content_references` says what each marker stands for: its `matched_text` is the
 * marker as it stands in the text, its `type` the kind (`grouped_webpages`, `entity`, `file`,
 * `nav_list`, `image_group`, `sources_footnote`…), its `items` the sources. Some references
 * are bookkeeping whose `matched_text` is a single space: they are no marker and the text keeps
 * its spaces. Older answers cite as `【3†source】`, resolved by `metadata.citations` spans.
 */
const MARKER_CHARS = /[\uE200-\uE204]/g;
const HAS_MARKER = /[\uE200-\uE204]|【/;
const LEFT_OVER = /\uE200([^\uE200\uE201\uE202]*)((?:\uE202[^\uE200\uE201\uE202]*)*)\uE201/g;
const TRACKING = /^(utm_[a-z_]+|fbclid|gclid|msclkid|mc_cid|mc_eid)$/i;

/** The text with markers resolved, and the sources it now numbers (`[1]` is the first). */
export interface ResolvedReferences {
  text: string;
  cited: Citation[];
}

/** A source's URL without tracking parameters (`?utm_source=chatgpt.com` on every link). */
export function sourceUrl(value: unknown): string | null {
  const url = asAbsoluteUrl(value);
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    for (const name of [...parsed.searchParams.keys()])
      if (TRACKING.test(name)) parsed.searchParams.delete(name);
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Numbers sources in the order the text first cites them, one number a distinct source. */
class Numbering {
  readonly cited: Citation[] = [];
  private readonly numbers = new Map<string, number>();

  number(source: JsonObject): number | undefined {
    const citation: Citation = {
      title: asText(source.title) ?? asText(source.name) ?? null,
      url: sourceUrl(source.url),
      snippet: asText(source.snippet) ?? asText(source.text) ?? null,
    };
    if (citation.url === null && citation.title === null) return undefined;
    const key = citation.url ?? `title:${citation.title ?? ''}`;
    let n = this.numbers.get(key);
    if (n === undefined) {
      this.cited.push(citation);
      n = this.cited.length;
      this.numbers.set(key, n);
    }
    return n;
  }

  /** `[1][2]` for the sources given, or '' when none can be numbered. */
  refs(sources: unknown[]): string {
    const numbers = new Set<number>();
    for (const source of sources) {
      const object = asObject(source);
      const n = object && this.number(object);
      if (n !== undefined) numbers.add(n);
    }
    return [...numbers].map((n) => `[${n}]`).join('');
  }
}

/** The display name of an `entity` marker: `["restaurant","Le Petit Zinc","Paris"]` → its name. */
function entityName(fields: string): string {
  try {
    const parsed: unknown = JSON.parse(fields);
    const list = asArray(parsed);
    return (list && (asString(list[1]) ?? asString(list[0]))) ?? '';
  } catch {
    return '';
  }
}

/** What one content reference's marker becomes in the text. */
function replacementFor(reference: JsonObject, numbering: Numbering): string {
  const type = asString(reference.type) ?? '';
  const items = asArray(reference.items) ?? [];
  switch (type) {
    case 'grouped_webpages':
    case 'grouped_webpages_model_predicted_fallback':
    case 'webpage':
    case 'webpage_extended':
    case 'file': {
      const sources = items.length > 0 ? items : [reference];
      const safe = (asArray(reference.safe_urls) ?? []).map((url) => ({ url }));
      return numbering.refs(sources) || numbering.refs(safe);
    }
    case 'entity':
      return asText(reference.name) ?? entityName(markerFields(asString(reference.matched_text)));
    case 'alt_text':
      return asString(reference.alt) ?? '';
    default:
      // Navigation lists, footnotes, images, products and kinds not seen yet: nothing in the
      // prose (their sources are listed after the numbered ones; the raw stays in metadata).
      return '';
  }
}

/** The fields after a marker's kind, joined back as JSON for `entity` (`["…","…"]`). */
function markerFields(marker: string | undefined): string {
  if (!marker) return '';
  const open = marker.indexOf('\uE202');
  const close = marker.lastIndexOf('\uE201');
  return open === -1 ? '' : marker.slice(open + 1, close === -1 ? undefined : close);
}

/** `turn0search3` → the search result with that `ref_id`, from `search_result_groups`. */
function searchResults(metadata: JsonObject): Map<string, JsonObject> {
  const byRef = new Map<string, JsonObject>();
  for (const group of asArray(metadata.search_result_groups) ?? []) {
    for (const item of asArray(asObject(group)?.entries) ?? []) {
      const entry = asObject(item);
      const ref = asObject(entry?.ref_id);
      if (!entry || !ref) continue;
      const key = `turn${asNumber(ref.turn_index) ?? ''}${asString(ref.ref_type) ?? ''}${asNumber(ref.ref_index) ?? ''}`;
      byRef.set(key, entry);
    }
  }
  return byRef;
}

/** `【3†source】` spans of `metadata.citations` (older answers), replaced from the end. */
function resolveBrackets(text: string, metadata: JsonObject, numbering: Numbering): string {
  const spans: { start: number; end: number; source: JsonObject }[] = [];
  for (const item of asArray(metadata.citations) ?? []) {
    const citation = asObject(item);
    const start = asNumber(citation?.start_ix);
    const end = asNumber(citation?.end_ix);
    const source = asObject(citation?.metadata);
    if (start === undefined || end === undefined || !source) continue;
    if (text.slice(start, end).startsWith('【')) spans.push({ start, end, source });
  }
  spans.sort((a, b) => a.start - b.start);
  const refs = spans.map((span) => {
    const n = numbering.number(span.source);
    return n === undefined ? '' : `[${n}]`;
  });
  let out = text;
  for (let i = spans.length - 1; i >= 0; i--) {
    const span = spans[i];
    if (span) out = out.slice(0, span.start) + (refs[i] ?? '') + out.slice(span.end);
  }
  return out;
}

/**
 * Resolves the inline reference markers of a message's text against its metadata: citations
 * become numbered references (`[1]`), entities their names, lists and images nothing; no
 * marker character is left. Text without markers comes back as it was, at no cost.
 */
export function resolveInlineReferences(text: string, metadata: JsonObject): ResolvedReferences {
  if (!HAS_MARKER.test(text)) return { text, cited: [] };
  const numbering = new Numbering();
  const bracketed = resolveBrackets(text, metadata, numbering);
  // What each marker stands for, by the marker's text; the same marker twice is two entries.
  const byMarker = new Map<string, JsonObject[]>();
  for (const item of asArray(metadata.content_references) ?? []) {
    const reference = asObject(item);
    const matched = asString(reference?.matched_text);
    // Only markers: bookkeeping references match a space, which the text keeps.
    if (!reference || !matched || !/[\uE200-\uE204]/.test(matched)) continue;
    byMarker.set(matched, [...(byMarker.get(matched) ?? []), reference]);
  }
  const results = searchResults(metadata);
  // One pass from the start, so numbers follow the order in which the text cites.
  const resolved = bracketed.replace(LEFT_OVER, (marker: string, kind: string, rest: string) => {
    const reference = byMarker.get(marker)?.shift();
    if (reference) return replacementFor(reference, numbering);
    const fields = rest.split('\uE202').slice(1);
    if (kind === 'entity') return entityName(fields.join(''));
    if (kind !== 'cite' && kind !== 'filecite') return '';
    return numbering.refs(fields.map((field) => results.get(field)).filter(Boolean));
  });
  return { text: resolved.replace(MARKER_CHARS, ''), cited: numbering.cited };
}

// Joins a message's text parts for one pass (numbers run across parts); no export has it.
const PART_BREAK = '\uFDD0';

/**
 * A message's text and text parts with their markers resolved in one numbering; `text` is
 * the parts joined by newlines when there are text parts (as `mapContent` makes it).
 */
export function resolveMessageReferences(
  content: { text: string; parts: readonly ContentPart[] },
  metadata: JsonObject,
): { text: string; parts: ContentPart[]; cited: Citation[] } {
  const textParts = content.parts.filter((part) => part.type === 'text');
  if (textParts.length === 0) {
    const resolved = resolveInlineReferences(content.text, metadata);
    return { text: resolved.text, parts: [...content.parts], cited: resolved.cited };
  }
  const joined = textParts.map((part) => part.text ?? '').join(PART_BREAK);
  const resolved = resolveInlineReferences(joined, metadata);
  const texts = resolved.text.split(PART_BREAK);
  let i = 0;
  const parts = content.parts.map((part) =>
    part.type === 'text' ? { ...part, text: texts[i++] ?? '' } : part,
  );
  return { text: texts.join('\n'), parts, cited: resolved.cited };
}
