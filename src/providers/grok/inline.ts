import type { Attachment, Citation } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { asAbsoluteUrl, asArray, asObject, asText } from '../untrusted.js';

/*
 * Grok's answers carry two kinds of inline tags (2025–2026, described from a real export by
 * another importer's maintainer: all 741 card references of 256 conversations resolved):
 * - `<grok:render card_id="…" card_type="citation_card" type="render_inline_citation">
 *   <argument name="citation_id">12</argument></grok:render>`, whose card is one of the
 *   response's `card_attachments_json` (JSON strings: `{id, cardType: "citation_card", url}` or
 *   `{id, cardType: "image_card", image: {title, link}}`): each becomes a citation of the
 *   message and a `[n]` marker in its text, as other sources' references are; a tag whose card
 *   is unknown is dropped;
 * - `<xaiArtifact artifact_id="…" artifact_version_id="…" title="…" contentType="…">…
 *   </xaiArtifact>`, a document written inline: it becomes a document attachment named by its
 *   title ("(version 2)" when the artifact is written again), out of the text.
 */

const RENDER = /<grok:render\b([^>]*)>[\s\S]*?<\/grok:render>/g;
const ARTIFACT = /<xaiArtifact\b([^>]*)>([\s\S]*?)<\/xaiArtifact>/g;

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`).exec(attributes)?.[1];
}

function cardsOf(json: unknown): Map<string, Citation> {
  const cards = new Map<string, Citation>();
  for (const item of asArray(json) ?? []) {
    let card: Record<string, unknown> | undefined;
    try {
      card = typeof item === 'string' ? asObject(JSON.parse(item)) : asObject(item);
    } catch {
      // A card that is not JSON only loses its link.
      continue;
    }
    const id = asText(card?.id);
    if (!card || id === undefined) continue;
    const image = asObject(card.image);
    const url = asAbsoluteUrl(card.url) ?? asAbsoluteUrl(image?.link);
    if (url === null) continue;
    cards.set(id, {
      title: asText(image?.title) ?? asText(card.title) ?? null,
      url,
      snippet: null,
    });
  }
  return cards;
}

/** The answer's text with its cards made `[n]` citations and its artifacts made documents. */
export function renderGrokText(
  text: string,
  cardsJson: unknown,
  artifacts: Map<string, number>,
  conversationId: string,
  context: ConversionContext,
): { text: string; citations: Citation[]; attachments: Attachment[] } {
  const citations: Citation[] = [];
  const attachments: Attachment[] = [];
  if (!text.includes('<grok:render') && !text.includes('<xaiArtifact'))
    return { text, citations, attachments };
  const cards = cardsOf(cardsJson);
  const numbers = new Map<string, number>();
  let out = text.replace(RENDER, (_tag, attributes: string) => {
    const id = attribute(attributes, 'card_id') ?? '';
    const card = cards.get(id);
    if (!card?.url) return '';
    let n = numbers.get(card.url);
    if (n === undefined) {
      citations.push(card);
      n = citations.length;
      numbers.set(card.url, n);
    }
    return ` [${n}]`;
  });
  out = out.replace(ARTIFACT, (_tag, attributes: string, body: string) => {
    const title = attribute(attributes, 'title')?.trim() || 'Untitled artifact';
    const id = attribute(attributes, 'artifact_id') ?? title;
    const version = (artifacts.get(id) ?? 0) + 1;
    artifacts.set(id, version);
    const content = body.replace(/^\n+/, '').replace(/\s+$/, '\n');
    attachments.push({
      type: 'document',
      name: version === 1 ? title : `${title} (version ${version})`,
      mime_type: attribute(attributes, 'contentType') ?? 'text/plain',
      size_bytes: Buffer.byteLength(content, 'utf8'),
      ref: context.attachText(conversationId, title, content),
      provider_id: attribute(attributes, 'artifact_version_id') ?? null,
    });
    return '';
  });
  // A tag removed at a line's end, or a marker at a line's start, leaves no stray space.
  out = out
    .replace(/[ \t]+\n/g, '\n')
    .replace(/^ (\[\d+\])/gm, '$1')
    .replace(/\n{3,}/g, '\n\n');
  return { text: out.trim(), citations, attachments };
}
