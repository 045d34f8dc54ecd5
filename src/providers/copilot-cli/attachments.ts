import type { Attachment, JsonObject } from '../../model/pam.js';
import { asObject, asString, asText } from '../untrusted.js';

/**
 * What a person attached to a message (`user.message` `attachments`): files, folders and
 * selections named as PAM attachments (by path; their bytes are not in the log), images by
 * type; each kept in `raw_metadata.attachments` too, a pasted image's base64 data left out.
 */
export function userAttachments(items: readonly unknown[]): {
  attachments: Attachment[];
  kept: JsonObject[];
} {
  const attachments: Attachment[] = [];
  const kept: JsonObject[] = [];
  for (const item of items) {
    const object = asObject(item);
    if (!object) continue;
    const { data: _data, ...rest } = object;
    kept.push(rest);
    const type = asString(object.type);
    const path = asText(object.path) ?? asText(object.filePath);
    const name = asText(object.displayName) ?? path ?? null;
    if (type === 'file' || type === 'directory' || type === 'selection')
      attachments.push({
        type: 'file',
        name,
        mime_type: asText(object.mimeType) ?? null,
        size_bytes: null,
        ref: null,
        provider_id: path ?? null,
      });
    else if (type === 'blob')
      attachments.push({
        type: asString(object.mimeType)?.startsWith('image/') === true ? 'image' : 'file',
        name,
        mime_type: asText(object.mimeType) ?? null,
        size_bytes: null,
        ref: null,
        provider_id: null,
      });
  }
  return { attachments, kept };
}
