import { buildConversation, conversationIdOf } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import { stableId } from '../../model/ids.js';
import type { Attachment, Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { oneLineTitle } from '../../model/title.js';
import { baseName } from '../../read/entry.js';
import { notAConversation } from '../not-a-conversation.js';
import type { ConversionContext, Detection, Provider } from '../provider.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';
import { parseActivityHtml } from './activity-html.js';
import { htmlToText } from './html-text.js';
import { addressOf } from '../platform-url.js';

/** Activity records further apart than this start a new conversation when no id groups them. */
const GAP_MS = 60 * 60 * 1000;
const PREFIX =
  /^(Prompted|Asked|Live Prompt|Branched|Answered|Created|Used|Gave feedback|Selected preferred draft|Added)\s*/i;
const CONVERSATION_URL = /gemini\.google\.com\/app\/([A-Za-z0-9_-]+)/;

function detect(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (name.endsWith('.json') && /"header"\s*:\s*"Gemini( Apps)?"/.test(head)) {
    return { role: 'conversations', format: { kind: 'json-file' }, variant: 'takeout-activity' };
  }
  // The HTML variant (My Activity.html, localized names): a page of outer-cells naming Gemini.
  if (name.endsWith('.html') && /class="outer-cell/.test(head) && /Gemini/.test(head)) {
    return {
      role: 'conversations',
      format: { kind: 'text-file' },
      variant: 'takeout-activity-html',
    };
  }
  return undefined;
}

interface Exchange {
  record: JsonObject;
  /** A canvas Gemini created ("Created Gemini Canvas titled …"): its name and its text. */
  canvas?: { name: string; text: string };
  time: string | undefined;
  group: string | undefined;
  prompt: string;
  response: string;
  attachments: Attachment[];
  index: number;
}

// Variant B: userInteractions[{userInteraction{request, response}}], JSON strings whose text is read.
function interactionText(value: unknown): string {
  if (typeof value !== 'string') return '';
  try {
    const parsed: unknown = JSON.parse(value);
    const texts: string[] = [];
    const walk = (node: unknown): void => {
      if (typeof node === 'string') return;
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, inner] of Object.entries(node as JsonObject)) {
          if (key === 'text' && typeof inner === 'string') texts.push(inner);
          else walk(inner);
        }
      }
    };
    walk(parsed);
    return texts.length > 0 ? texts.join('\n') : value;
  } catch {
    // Not JSON: the string is the text.
    return value;
  }
}

function toExchange(record: JsonObject, index: number): Exchange {
  const title = asString(record.title) ?? '';
  const details = asArray(record.details) ?? [];
  const urls = [
    asString(record.titleUrl),
    ...details.map((d) => asString(asObject(d)?.url)),
    ...(asArray(record.subtitles) ?? []).map((s) => asString(asObject(s)?.url)),
  ];
  const group = urls
    .map((u) => (u ? CONVERSATION_URL.exec(u)?.[1] : undefined))
    .find((g) => g !== undefined);
  const interactions = (asArray(record.userInteractions) ?? [])
    .map((i) => asObject(asObject(i)?.userInteraction))
    .filter((i): i is JsonObject => !!i);
  let prompt = title.replace(PREFIX, '');
  let response = (asArray(record.safeHtmlItem) ?? [])
    .map((item) => htmlToText(asString(asObject(item)?.html) ?? ''))
    .filter(Boolean)
    // Several items are regenerations: all are kept, one after the other.
    .join('\n\n---\n\n');
  const detailResponse = details
    .map((d) => asObject(d))
    .find((d) => d && asString(d.name) !== 'Request');
  const detailRequest = details
    .map((d) => asObject(d))
    .find((d) => d && asString(d.name) === 'Request');
  if (detailRequest && asText(detailRequest.value))
    prompt = asString(detailRequest.value) ?? prompt;
  if (!response && detailResponse && asText(detailResponse.value))
    response = asString(detailResponse.value) ?? '';
  if (interactions.length > 0) {
    prompt = interactions.map((i) => interactionText(i.request)).join('\n') || prompt;
    response = interactions.map((i) => interactionText(i.response)).join('\n') || response;
  }
  const attachments: Attachment[] = [
    ...(asArray(record.attachedFiles) ?? []).flatMap((f) =>
      typeof f === 'string'
        ? [
            {
              type: 'file' as const,
              name: f,
              mime_type: null,
              size_bytes: null,
              ref: null,
              provider_id: null,
            },
          ]
        : [],
    ),
    ...(typeof record.imageFile === 'string'
      ? [
          {
            type: 'image' as const,
            name: record.imageFile,
            mime_type: null,
            size_bytes: null,
            ref: null,
            provider_id: null,
          },
        ]
      : []),
  ];
  const canvas = canvasOf(title, record);
  return {
    record,
    time: toTimestamp(record.time),
    group,
    prompt,
    response,
    attachments,
    index,
    ...(canvas ? { canvas } : {}),
  };
}

// "Created Gemini Canvas titled <name>": Takeout keeps the canvas's text in `subtitles[].name`.
const CANVAS_TITLE = /^Created Gemini Canvas(?: titled)?\s*(.*)$/i;

function canvasOf(title: string, record: JsonObject): { name: string; text: string } | undefined {
  const name = CANVAS_TITLE.exec(title.trim())?.[1];
  if (name === undefined) return undefined;
  const text = (asArray(record.subtitles) ?? [])
    .map((s) => asString(asObject(s)?.name) ?? '')
    .filter((t) => t !== '')
    .join('\n\n');
  return text === '' ? undefined : { name: name.trim() || 'Untitled canvas', text };
}

/** One activity as an exchange; one that cannot be read costs only itself (the file is one record). */
function readExchange(raw: unknown, index: number, context: ConversionContext): Exchange[] {
  const record = asObject(raw);
  if (!record) return [];
  try {
    return [toExchange(record, index)];
  } catch (error) {
    context.report({
      level: 'error',
      code: 'activity-unreadable',
      message: `activity ${index} could not be read (${error instanceof Error ? error.message : String(error)}); it is skipped, the rest of the file is read`,
      record: `${context.record} activity ${index}`,
    });
    return [];
  }
}

/** A Takeout "My Activity" file for Gemini Apps: one record per exchange, grouped into conversations. */
function toConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation[] | undefined {
  const records = typeof raw === 'string' ? parseActivityHtml(raw) : asArray(raw);
  if (!records) {
    notAConversation(
      context,
      'a Gemini activity file holds an array of activity records; this one does not',
    );
    return;
  }
  const exchanges = records
    .flatMap((r, i) => readExchange(r, i, context))
    .filter((e) => /gemini/i.test(asString(e.record.header) ?? ''));
  // Takeout lists newest first: oldest first here, then grouped by id or by time.
  exchanges.sort((a, b) => (a.time ?? '').localeCompare(b.time ?? '') || b.index - a.index);
  return groupExchanges(exchanges).map((group) => groupConversation(group, variant, context));
}

/**
 * Exchanges that name a conversation id are grouped by it; the others (older exports have no
 * id) run together until more than GAP_MS passes between two. Groups keep first-seen order.
 */
function groupExchanges(exchanges: Exchange[]): Exchange[][] {
  const groups: Exchange[][] = [];
  const byId = new Map<string, Exchange[]>();
  let loose: Exchange[] = [];
  for (const exchange of exchanges) {
    if (exchange.group !== undefined) {
      const list = byId.get(exchange.group) ?? [];
      if (list.length === 0) groups.push(list);
      list.push(exchange);
      byId.set(exchange.group, list);
      continue;
    }
    const last = loose.at(-1);
    if (last?.time && exchange.time && Date.parse(exchange.time) - Date.parse(last.time) > GAP_MS)
      loose = [];
    if (loose.length === 0) groups.push(loose);
    loose.push(exchange);
  }
  return groups;
}

function groupConversation(
  group: Exchange[],
  variant: string,
  context: ConversionContext,
): Conversation {
  const first = group[0] as Exchange;
  const conversationId = first.group ?? stableId('gemini', first.time ?? '', first.prompt);
  // No titles in Takeout: the first prompt, on one line, cut at a word to 100 characters.
  const title = oneLineTitle(first.prompt, 100);
  return buildConversation(
    {
      provider: {
        name: 'gemini',
        conversation_id: conversationId,
        account_id: null,
        export_format_version: `gemini/${variant}${first.group ? '' : '+grouped-by-time'}`,
      },
      title,
      createdAt: first.time,
      updatedAt: group.at(-1)?.time,
      messages: exchangeDrafts(group, conversationIdOf('gemini', conversationId), context),
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: {
        grouped_by: first.group ? 'conversation id' : 'time (60-minute gaps)',
        title_from: 'first prompt',
      },
      assistantName: 'Gemini',
    },
    {
      report: context.report,
      record: `${context.record} (${conversationId})`,
      fallbackTime: context.fallbackTime,
    },
  );
}

/**
 * Each exchange as a prompt and, when there is one, its response, chained one after another; a
 * canvas Gemini created is a reply of Gemini's holding it as a document (named, searchable, as
 * ChatGPT's canvases are), not a prompt of the person's.
 */
function exchangeDrafts(
  group: Exchange[],
  conversationId: string,
  context: ConversionContext,
): DraftMessage[] {
  const drafts: DraftMessage[] = [];
  let previous: string | null = null;
  for (const exchange of group) {
    const key = `${exchange.time ?? ''}#${exchange.index}`;
    if (exchange.canvas) {
      drafts.push(canvasDraft(exchange, exchange.canvas, key, previous, conversationId, context));
      previous = `${key}/canvas`;
      continue;
    }
    const extra = without(exchange.record, [
      'header',
      'title',
      'time',
      'safeHtmlItem',
      'titleUrl',
      'attachedFiles',
      'imageFile',
      'userInteractions',
    ]);
    drafts.push({
      key: `${key}/prompt`,
      parentKey: previous,
      provider_message_id: null,
      role: 'user',
      content: { type: 'text', text: exchange.prompt },
      createdAt: exchange.time,
      model: null,
      is_thought: false,
      attachments: exchange.attachments,
      citations: [],
      tool_calls: [],
      raw_metadata: { activity_title: exchange.record.title ?? null, ...extra },
    });
    previous = `${key}/prompt`;
    if (exchange.response !== '') {
      drafts.push({
        key: `${key}/response`,
        parentKey: previous,
        provider_message_id: null,
        role: 'assistant',
        content: { type: 'text', text: exchange.response },
        createdAt: exchange.time,
        model: null,
        is_thought: false,
        attachments: [],
        citations: [],
        tool_calls: [],
        raw_metadata: {},
      });
      previous = `${key}/response`;
    }
  }
  return drafts;
}

/** A canvas Gemini created, as its reply holding the canvas as a document. */
function canvasDraft(
  exchange: Exchange,
  canvas: { name: string; text: string },
  key: string,
  previous: string | null,
  conversationId: string,
  context: ConversionContext,
): DraftMessage {
  const { name, text } = canvas;
  return {
    key: `${key}/canvas`,
    parentKey: previous,
    provider_message_id: null,
    role: 'assistant',
    content: { type: 'text', text: '' },
    createdAt: exchange.time,
    model: null,
    is_thought: false,
    attachments: [
      {
        type: 'document',
        name,
        mime_type: 'text/markdown',
        size_bytes: Buffer.byteLength(text, 'utf8'),
        ref: context.attachText(conversationId, name, text),
        provider_id: null,
      },
    ],
    citations: [],
    tool_calls: [],
    raw_metadata: {
      activity_title: exchange.record.title ?? null,
      canvas: { name },
      ...without(exchange.record, ['header', 'title', 'time', 'subtitles']),
    },
  };
}

/** Gemini Apps (Google Takeout → My Activity → Gemini Apps, JSON). */
export const gemini: Provider = {
  // Takeout gives no conversation id; exporters that do give Gemini's own (16 hex digits).
  conversationUrl: (id) =>
    addressOf('https://gemini.google.com/app/', id.replace(/^c_/, ''), /^[0-9a-f]{16}$/),
  name: 'gemini',
  source: 'gemini',
  label: 'Gemini',
  product: 'Gemini',
  howToExport:
    'Google Takeout → My Activity → Gemini Apps; give MyActivity.json (or the HTML page, best effort)',
  detect,
  toConversation,
};
