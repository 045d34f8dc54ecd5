import { z } from 'zod';
import { looseList, looseNumber, looseObject, looseRecord, looseText } from '../loose-schema.js';

/*
 * Amp's threads (ampcode.com; Sourcegraph's agent): one JSON document per thread, rewritten as
 * it grows, named by its id (`T-<uuid>.json`), in `~/.local/share/amp/threads/` (the CLI, and
 * the editor extensions since they moved there) or, before, the VS Code extension's
 * `globalStorage/sourcegraph.amp/threads3/`. Described by the projects that read them
 * (cross_agent_session_resumer's Amp provider, houston's and amp-thread-manager's notes).
 */

/** A thread: its id, creation time (epoch ms), title, messages, and where it ran. */
export const AmpThread = looseRecord({
  v: looseNumber,
  id: looseText,
  created: looseNumber,
  title: looseText,
  agentMode: looseText,
  visibility: looseText,
  messages: looseList,
  env: looseObject,
  relationships: looseList,
});
export type AmpThread = z.infer<typeof AmpThread>;

/** A message: `user`, `assistant` or `info` (a summary Amp put in), its blocks and usage. */
export const AmpMessage = looseRecord({
  role: looseText,
  messageId: z.union([z.number(), z.string()]).optional().catch(undefined),
  content: z.unknown(),
  state: looseObject,
  usage: looseObject,
  meta: looseObject,
});
export type AmpMessage = z.infer<typeof AmpMessage>;

/** A model call's usage, on the assistant message it wrote. */
export const AmpUsage = looseRecord({
  model: looseText,
  inputTokens: looseNumber,
  outputTokens: looseNumber,
  cacheCreationInputTokens: looseNumber,
  cacheReadInputTokens: looseNumber,
  totalInputTokens: looseNumber,
  timestamp: z.unknown(),
});
export type AmpUsage = z.infer<typeof AmpUsage>;

/** A tool's run, on the `tool_result` block that answers its call (`toolUseID`). */
export const AmpRun = looseRecord({
  status: looseText,
  result: z.unknown(),
  progress: z.unknown(),
  error: z.unknown(),
});
export type AmpRun = z.infer<typeof AmpRun>;

/** A link to another thread: a handoff or fork, `role` being this thread's part in it. */
export const AmpRelationship = looseRecord({
  threadID: looseText,
  type: looseText,
  role: looseText,
  messageIndex: looseNumber,
  comment: looseText,
});
export type AmpRelationship = z.infer<typeof AmpRelationship>;
