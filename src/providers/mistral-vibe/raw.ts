import { z } from 'zod';
import {
  looseArray,
  looseFlag,
  looseList,
  looseNumber,
  looseObject,
  looseRecord,
  looseText,
} from '../loose-schema.js';

/*
 * Mistral Vibe's sessions (mistralai/mistral-vibe, vibe/core/session/session_logger.py and
 * vibe/core/types.py): since 2.0 a folder `<prefix>_<YYYYmmdd_HHMMSS>_<id8>/` holding
 * `messages.jsonl` (one `LLMMessage` a line, appended, the system prompt left out) and
 * `meta.json` (rewritten after each turn); before, one `<prefix>_….json` of both.
 */

/** One message as `LLMMessage.model_dump(exclude_none=True)` writes it. */
export const VibeMessage = looseRecord({
  role: looseText,
  content: z.unknown(),
  injected: looseFlag,
  reasoning_content: z.unknown(),
  tool_calls: looseArray(
    looseRecord({
      id: looseText,
      function: looseRecord({ name: looseText, arguments: z.unknown() })
        .optional()
        .catch(undefined),
    }),
  ),
  name: looseText,
  tool_call_id: looseText,
  message_id: looseText,
  images: looseList,
  user_display_content: looseObject,
});
export type VibeMessage = z.infer<typeof VibeMessage>;

/** `meta.json`: the session's metadata, statistics and configuration when last saved. */
export const VibeMeta = looseRecord({
  session_id: looseText,
  parent_session_id: looseText,
  start_time: looseText,
  end_time: looseText,
  git_commit: looseText,
  git_branch: looseText,
  environment: looseRecord({ working_directory: looseText }).optional().catch(undefined),
  username: looseText,
  title: looseText,
  title_source: looseText,
  total_messages: looseNumber,
  stats: looseRecord({
    session_prompt_tokens: looseNumber,
    session_completion_tokens: looseNumber,
    steps: looseNumber,
  })
    .optional()
    .catch(undefined),
  config: looseRecord({
    active_model: looseText,
    models: looseArray(looseRecord({ name: looseText, alias: looseText, provider: looseText })),
  })
    .optional()
    .catch(undefined),
  agent_profile: looseRecord({ name: looseText }).optional().catch(undefined),
  system_prompt: looseRecord({ content: z.unknown() }).optional().catch(undefined),
});
export type VibeMeta = z.infer<typeof VibeMeta>;

/** A session before 2.0: one JSON file of its metadata and messages. */
export const VibeSessionFile = looseRecord({ metadata: looseObject, messages: looseList });
