import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Attachment, Citation, Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { baseName } from '../../read/entry.js';
import { notAConversation } from '../not-a-conversation.js';
import { anonymousId } from '../anonymous-id.js';
import type { ConversionContext, Detection, Provider } from '../provider.js';
import { asAbsoluteUrl, asArray, asObject, asString, asText, without } from '../untrusted.js';
import { addressOf, keptAddress } from '../platform-url.js';
import { conversationIdOf } from '../../model/build-conversation.js';
import { renderGrokText } from './inline.js';
import { isMediaPost, mediaPostConversation } from './media-posts.js';

// Grok's message times are BSON extended JSON: {"$date": {"$numberLong": "<ms>"}} (or ISO).
function bsonTime(value: unknown): string | undefined {
  const date = asObject(value)?.$date;
  const long = asObject(date)?.$numberLong;
  if (typeof long === 'string') return toTimestamp(Number(long));
  return toTimestamp(date ?? value);
}

function detect(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  const wrapped =
    /"conversations"\s*:\s*\[\s*\{\s*"conversation"\s*:/.test(head) ||
    /"responses"\s*:\s*\[/.test(head);
  if (!name.endsWith('.json') || !(name === 'prod-grok-backend.json' || wrapped)) return undefined;
  if (!/"conversation"\s*:/.test(head)) return undefined;
  return {
    role: 'conversations',
    // Imagine posts (`media_posts`) come after the conversations in the same file.
    format: { kind: 'json', streamKeys: ['conversations', 'media_posts'] },
    variant: 'prod-grok-backend',
  };
}

/** One element of `conversations[]`: `{conversation, responses: [{response}]}`, unwrapped twice. */
function toConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const item = asObject(raw);
  const conversation = asObject(item?.conversation);
  const responses = asArray(item?.responses);
  if (!conversation && item && isMediaPost(item)) return mediaPostConversation(item, context);
  if (!conversation || !responses) {
    notAConversation(context, 'the record has no `conversation` and `responses`');
    return;
  }
  const id =
    asText(conversation.id) ??
    asText(conversation.conversation_id) ??
    anonymousId('grok', raw, context);
  const drafts: DraftMessage[] = [];
  const inline = {
    conversationId: conversationIdOf('grok', id),
    artifacts: new Map<string, number>(),
  };
  let previous: string | null = null;
  const withParents = responses.some(
    (r) => typeof asObject(asObject(r)?.response)?.parent_response_id === 'string',
  );
  responses.forEach((entry, index) => {
    const draft = responseDraft(entry, index, withParents ? undefined : previous, inline, context);
    if (!draft) return;
    drafts.push(draft);
    previous = draft.key;
  });
  return buildConversation(
    {
      provider: {
        name: 'grok',
        conversation_id: id,
        account_id: asText(conversation.user_id) ?? null,
        export_format_version: `grok/${variant}${withParents ? '+branches' : ''}`,
      },
      title: asText(conversation.title) ?? null,
      createdAt: toTimestamp(conversation.create_time),
      updatedAt: toTimestamp(conversation.modify_time),
      messages: drafts,
      shownLeafKey: asText(conversation.leaf_response_id),
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: without(conversation, ['id', 'title', 'create_time', 'modify_time', 'user_id']),
      assistantName: 'Grok',
    },
    context,
  );
}

/**
 * One `responses[]` entry as a message. Its parent is `parent_response_id` when the export has
 * them (`linearParent` undefined), else the message before it.
 */
function responseDraft(
  entry: unknown,
  index: number,
  linearParent: string | null | undefined,
  inline: { conversationId: string; artifacts: Map<string, number> },
  context: ConversionContext,
): DraftMessage | undefined {
  const wrapper = asObject(entry);
  const response = asObject(wrapper?.response);
  if (!response) {
    context.report({
      level: 'error',
      code: 'malformed-message',
      message: `responses[${index}] has no response; skipped`,
      record: context.record,
    });
    return undefined;
  }
  const key = asText(response._id) ?? `index-${index}`;
  const sender = (asString(response.sender) ?? '').toLowerCase();
  // Any sender but "human" is the assistant (assistant, ASSISTANT, grok-3, ...).
  const role = sender === 'human' || sender === 'user' ? 'user' : 'assistant';
  const raw = without(response, [
    '_id',
    'conversation_id',
    'message',
    'sender',
    'create_time',
    'model',
    'parent_response_id',
    'cited_web_search_results',
    'generated_image_urls',
    'file_attachments',
  ]);
  if (raw.metadata !== undefined) {
    raw.grok_metadata = raw.metadata;
    delete raw.metadata;
  }
  if (wrapper?.share_link !== undefined) raw.share_link = wrapper.share_link;
  const rendered = renderGrokText(
    asString(response.message) ?? '',
    response.card_attachments_json,
    inline.artifacts,
    inline.conversationId,
    context,
  );
  return {
    key,
    parentKey:
      linearParent === undefined ? (asText(response.parent_response_id) ?? null) : linearParent,
    provider_message_id: asText(response._id) ?? null,
    role,
    content: { type: 'text', text: rendered.text },
    createdAt: bsonTime(response.create_time),
    model: role === 'assistant' ? (asText(response.model) ?? null) : null,
    is_thought: false,
    attachments: [...responseAttachments(response), ...rendered.attachments],
    citations: [...rendered.citations, ...webCitations(response)],
    tool_calls: [],
    raw_metadata: raw,
  };
}

function webCitations(response: JsonObject): Citation[] {
  return (asArray(response.cited_web_search_results) ?? []).flatMap((c) => {
    const result = asObject(c);
    return result
      ? [
          {
            title: asText(result.title) ?? null,
            url: asAbsoluteUrl(result.url),
            snippet: asText(result.preview) ?? null,
          },
        ]
      : [];
  });
}

/** Generated images (by URL) and uploaded files (by id). */
function responseAttachments(response: JsonObject): Attachment[] {
  return [
    ...(asArray(response.generated_image_urls) ?? []).flatMap((u) =>
      typeof u === 'string'
        ? [
            {
              type: 'image' as const,
              name: null,
              mime_type: null,
              size_bytes: null,
              ref: u,
              provider_id: null,
            },
          ]
        : [],
    ),
    ...(asArray(response.file_attachments) ?? []).flatMap((f) =>
      typeof f === 'string'
        ? [
            {
              type: 'file' as const,
              name: null,
              mime_type: null,
              size_bytes: null,
              ref: null,
              provider_id: f,
            },
          ]
        : [],
    ),
  ];
}

/** Grok (accounts.x.ai → download your data → `prod-grok-backend.json`). */
export const grok: Provider = {
  conversationUrl: (id, raw) =>
    keptAddress(raw, ['grok.com']) ?? addressOf('https://grok.com/chat/', id),
  name: 'grok',
  source: 'grok',
  label: 'Grok',
  product: 'Grok',
  howToExport:
    'accounts.x.ai → download your data; give the .zip or prod-grok-backend.json (its Imagine posts too)',
  detect,
  toConversation,
};
