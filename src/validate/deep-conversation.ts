import { z } from 'zod';
import type { FileFindings } from './finding.js';

export const conversationSchema = z
  .object({
    id: z.string().nullish(),
    title: z.string().nullish(),
    provider: z.object({ name: z.string().nullish() }).passthrough().nullish(),
    temporal: z.object({ created_at: z.string().nullish() }).passthrough().nullish(),
    tags: z.array(z.string()).nullish(),
    messages: z.array(
      z
        .object({
          id: z.string(),
          parent_id: z.string().nullish(),
          children_ids: z.array(z.string()).nullish(),
        })
        .passthrough(),
    ),
  })
  .passthrough();

export type ConversationDocument = z.infer<typeof conversationSchema>;

/** The message graph (PAM §5): parents and children that exist and agree (warnings, as `pam validate`). */
export function checkConversation(conversation: ConversationDocument, at: FileFindings): void {
  const byId = new Map(conversation.messages.map((m) => [m.id, m]));
  conversation.messages.forEach((message, i) => {
    if (message.parent_id && !byId.has(message.parent_id))
      at.warning(
        `$.messages[${i}].parent_id`,
        'dag',
        `message '${message.id}': parent '${message.parent_id}' is not a message`,
      );
    (message.children_ids ?? []).forEach((child, j) => {
      const found = byId.get(child);
      if (!found)
        at.warning(
          `$.messages[${i}].children_ids[${j}]`,
          'dag',
          `message '${message.id}': child '${child}' is not a message`,
        );
      else if (found.parent_id !== message.id)
        at.warning(
          `$.messages[${i}].children_ids[${j}]`,
          'dag-bidirectional',
          `message '${message.id}' names child '${child}', whose parent_id is '${found.parent_id ?? 'none'}'`,
        );
    });
  });
}
