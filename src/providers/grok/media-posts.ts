import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { oneLineTitle } from '../../model/title.js';
import { addressOf } from '../platform-url.js';
import type { ConversionContext } from '../provider.js';
import { asString, asText, without } from '../untrusted.js';

/*
 * Grok's `media_posts` (top level of `prod-grok-backend.json`, after `conversations`): Imagine
 * posts, `{id, original_prompt, media_type: "image" | "video", create_time, link}`. A post is
 * not a chat, and nothing links it to one; it is kept as a conversation of its own: the prompt
 * (often empty), then the generated medium, linked to the post's page on grok.com.
 */

/** Whether a record of the file is an Imagine post rather than a conversation. */
export function isMediaPost(record: JsonObject): boolean {
  return typeof record.id === 'string' && ('media_type' in record || 'original_prompt' in record);
}

/** The post's page: its own `link` when it is on grok.com, else grok.com/imagine/post/<id>. */
function postAddress(id: string, link: string | undefined): string | undefined {
  try {
    const url = link === undefined ? undefined : new URL(link);
    if (url?.protocol === 'https:' && /(^|\.)grok\.com$/.test(url.hostname)) return url.href;
  } catch {
    // Not a URL: the page is made from the id.
  }
  return addressOf('https://grok.com/imagine/post/', id, /^[A-Za-z0-9_-]{6,128}$/);
}

export function mediaPostConversation(post: JsonObject, context: ConversionContext): Conversation {
  const id = asText(post.id) ?? '';
  const prompt = asString(post.original_prompt) ?? '';
  const video = asText(post.media_type)?.toLowerCase() === 'video';
  const time = toTimestamp(post.create_time);
  const url = postAddress(id, asText(post.link));
  const message = (key: string, role: 'user' | 'assistant', text: string): DraftMessage => ({
    key,
    parentKey: role === 'user' ? null : `${id}:prompt`,
    provider_message_id: null,
    role,
    content: { type: 'text', text },
    createdAt: time,
    model: null,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls: [],
    raw_metadata: {},
  });
  const media = message(`${id}:media`, 'assistant', '');
  media.attachments.push({
    type: video ? 'video' : 'image',
    name: null,
    mime_type: null,
    size_bytes: null,
    ref: url ?? null,
    provider_id: id,
  });
  return buildConversation(
    {
      provider: {
        name: 'grok',
        conversation_id: id,
        account_id: null,
        export_format_version: 'grok/media-post',
      },
      title: `Imagine: ${oneLineTitle(prompt, 90) ?? (video ? 'a video' : 'an image')}`,
      createdAt: time,
      updatedAt: time,
      messages: [message(`${id}:prompt`, 'user', prompt), media],
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: {
        imagine_post: true,
        ...without(post, ['id', 'original_prompt', 'create_time']),
        ...(url ? { platform_url: url } : {}),
      },
      assistantName: 'Grok',
    },
    context,
  );
}
