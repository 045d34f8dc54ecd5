/**
 * The shapes of a Claude.ai export as far as chatgraph reads them; every field is untrusted.
 */

/** The all-zero uuid Claude.ai uses as the parent of a conversation's first message. */
export const ROOT_PARENT = '00000000-0000-4000-8000-000000000000';

/** Keys of a conversation that chatgraph maps to PAM fields (the rest go to `raw_metadata`). */
export const MAPPED_CONVERSATION_KEYS = [
  'uuid',
  'name',
  'created_at',
  'updated_at',
  'account',
  'chat_messages',
  'model',
  'current_leaf_message_uuid',
] as const;

/** Keys of a message that chatgraph maps (the rest go to the message's `raw_metadata`). */
export const MAPPED_MESSAGE_KEYS = [
  'uuid',
  'text',
  'content',
  'sender',
  'created_at',
  'parent_message_uuid',
  'attachments',
  'files',
] as const;

/** Image extensions, for telling an image file from another file. */
export const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|svg|bmp|heic)$/i;
