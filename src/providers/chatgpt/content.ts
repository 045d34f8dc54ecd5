import type { Attachment, Citation, ContentPart, JsonObject } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { asAbsoluteUrl, asArray, asCount, asObject, asString, asText } from '../untrusted.js';

/** What a ChatGPT `content` object says, in PAM terms. */
export interface MappedContent {
  text: string;
  parts: ContentPart[];
  attachments: Attachment[];
  citations: Citation[];
  isThought: boolean;
  /** Custom instructions (`user_editable_context`), for the conversation. */
  systemInstruction?: string;
  /** Metadata of asset pointers (DALL-E prompts, sizes), kept verbatim. */
  assetMetadata: JsonObject[];
  /** The content object, kept whole when its type is not one chatgraph maps. */
  unknownContent?: JsonObject;
}

function stringParts(parts: unknown[] | undefined): string[] {
  return (parts ?? []).filter((part): part is string => typeof part === 'string');
}

/** Maps a message's `content` by its `content_type`. */
export function mapContent(content: JsonObject, context: ConversionContext): MappedContent {
  const type = asString(content.content_type) ?? '';
  const parts = asArray(content.parts);
  const mapped: MappedContent = {
    text: '',
    parts: [],
    attachments: [],
    citations: [],
    isThought: false,
    assetMetadata: [],
  };
  switch (type) {
    case 'text':
      mapped.text = stringParts(parts).join('\n');
      break;
    case 'multimodal_text':
      mapMultimodal(parts ?? [], mapped, context);
      break;
    case 'code': {
      // A tool call's input (browser search(...), python, DALL-E JSON, canmore JSON).
      const text = asString(content.text) ?? stringParts(parts).join('\n');
      mapped.text = text;
      mapped.parts.push({ type: 'code', text, language: asText(content.language) ?? null });
      break;
    }
    case 'execution_output':
    case 'tether_browsing_code':
      mapped.text = asString(content.text) ?? stringParts(parts).join('\n');
      break;
    case 'tether_browsing_display':
      mapped.text = [asString(content.result), asString(content.summary)]
        .filter((s): s is string => !!s)
        .join('\n\n');
      break;
    case 'tether_quote':
    case 'sonic_webpage': {
      mapped.text = asString(content.text) ?? asString(content.snippet) ?? '';
      mapped.citations.push({
        title: asText(content.title) ?? null,
        url: asAbsoluteUrl(content.url),
        snippet: asText(content.snippet) ?? asText(content.text) ?? null,
      });
      break;
    }
    case 'system_error':
      mapped.text = [asString(content.name), asString(content.text)].filter((s) => !!s).join(': ');
      break;
    case 'user_editable_context':
      mapped.text = customInstructions(content);
      if (mapped.text) mapped.systemInstruction = mapped.text;
      break;
    case 'model_editable_context':
      mapped.text = asString(content.model_set_context) ?? '';
      break;
    case 'thoughts': {
      const thoughts = thoughtTexts(content);
      mapped.text = thoughts.length > 0 ? thoughts.join('\n\n') : stringParts(parts).join('\n');
      mapped.isThought = true;
      break;
    }
    case 'reasoning_recap':
      mapped.text = asString(content.content) ?? stringParts(parts).join('\n');
      mapped.isThought = true;
      break;
    default:
      mapUnknown(type, content, parts, mapped, context);
  }
  return mapped;
}

/** `user_editable_context`: the custom instructions and the user profile, as one text. */
function customInstructions(content: JsonObject): string {
  const instructions = asString(content.user_instructions) ?? '';
  const profile = asString(content.user_profile) ?? '';
  const sections: string[] = [];
  if (instructions) sections.push(`Custom instructions:\n${instructions}`);
  if (profile) sections.push(`User profile:\n${profile}`);
  return sections.join('\n\n');
}

/** `thoughts`: each thought's summary and content. */
function thoughtTexts(content: JsonObject): string[] {
  return (asArray(content.thoughts) ?? []).flatMap((item) => {
    const thought = asObject(item);
    if (!thought) return [];
    return [[asString(thought.summary), asString(thought.content)].filter((s) => !!s).join('\n')];
  });
}

/** An unknown or new content type: keep it whole, and take what text it plainly has. */
function mapUnknown(
  type: string,
  content: JsonObject,
  parts: unknown[] | undefined,
  mapped: MappedContent,
  context: ConversionContext,
): void {
  mapped.unknownContent = content;
  mapped.text =
    stringParts(parts).join('\n') || asString(content.text) || asString(content.result) || '';
  context.report({
    level: 'info',
    code: 'unknown-content-type',
    message: `content type "${type}" is not mapped; it is kept in raw_metadata.content`,
    record: context.record,
  });
}

function mapMultimodal(parts: unknown[], mapped: MappedContent, context: ConversionContext): void {
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    const object = asObject(part);
    if (!object) continue;
    const partType = asString(object.content_type);
    if (partType === 'image_asset_pointer') {
      addAsset(object, 'image', asString(object.asset_pointer), mapped, context);
    } else if (partType === 'audio_asset_pointer') {
      addAsset(
        object,
        'audio',
        asString(object.asset_pointer) ?? asString(object.audio_asset_pointer),
        mapped,
        context,
      );
    } else if (partType === 'audio_transcription') {
      const text = asString(object.text);
      if (text) texts.push(text);
    } else if (partType === 'real_time_user_audio_video_asset_pointer') {
      const audio = asObject(object.audio_asset_pointer);
      if (audio) addAsset(audio, 'audio', asString(audio.asset_pointer), mapped, context);
      for (const frame of asArray(object.frames_asset_pointers) ?? []) {
        const pointer = asObject(frame);
        if (pointer) addAsset(pointer, 'image', asString(pointer.asset_pointer), mapped, context);
      }
      mapped.assetMetadata.push(object);
    } else {
      mapped.assetMetadata.push(object);
      context.report({
        level: 'info',
        code: 'unknown-content-part',
        message: `multimodal part "${partType ?? 'without type'}" is not mapped; it is kept in raw_metadata.asset_metadata`,
        record: context.record,
      });
    }
  }
  mapped.text = texts.join('\n');
  const assetParts = mapped.parts;
  mapped.parts = [...texts.map((text): ContentPart => ({ type: 'text', text })), ...assetParts];
}

function addAsset(
  object: JsonObject,
  type: 'image' | 'audio',
  pointer: string | undefined,
  mapped: MappedContent,
  context: ConversionContext,
): void {
  const ref = pointer !== undefined ? (context.resolveAsset(pointer) ?? null) : null;
  mapped.parts.push({ type, ref, mime_type: null });
  mapped.attachments.push({
    type,
    name: null,
    mime_type: asText(object.format) ? `audio/${asString(object.format) ?? ''}` : null,
    size_bytes: asCount(object.size_bytes),
    ref,
    provider_id: pointer ?? null,
  });
  mapped.assetMetadata.push(object);
}
