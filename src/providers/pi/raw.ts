import { z } from 'zod';
import {
  looseFlag,
  looseList,
  looseNumber,
  looseObject,
  looseRecord,
  looseText,
} from '../loose-schema.js';

/*
 * The pi coding agent's sessions (badlogic/pi-mono, packages/coding-agent/docs/session.md and
 * src/core/session-manager.ts), and its forks' (oh-my-pi, can1357/oh-my-pi): JSON Lines, a
 * `session` header first (oh-my-pi may put a `title` line before it, rewritten in place), then
 * entries linked into a tree by `id` and `parentId` (version 1 had neither: a plain sequence).
 */

/** The session header: its id, working folder, and the session it was forked from. */
export const PiHeader = looseRecord({
  type: looseText,
  version: looseNumber,
  id: looseText,
  timestamp: looseText,
  cwd: looseText,
  title: looseText,
  parentSession: looseText,
  branchedFrom: looseText,
});
export type PiHeader = z.infer<typeof PiHeader>;

/** Any entry after the header. */
export const PiEntry = looseRecord({
  type: looseText,
  id: looseText,
  parentId: looseText,
  timestamp: looseText,
  message: looseObject,
  provider: looseText,
  modelId: looseText,
  summary: looseText,
  fromId: looseText,
  customType: looseText,
  content: z.unknown(),
  display: looseFlag,
  targetId: looseText,
  label: looseText,
  name: looseText,
  title: looseText,
  injectedRules: looseList,
});
export type PiEntry = z.infer<typeof PiEntry>;

/** An `AgentMessage` (pi-ai's user, assistant and tool result; the agent's own roles). */
export const PiMessage = looseRecord({
  role: looseText,
  content: z.unknown(),
  timestamp: z.unknown(),
  model: looseText,
  provider: looseText,
  api: looseText,
  usage: looseObject,
  stopReason: looseText,
  errorMessage: looseText,
  toolCallId: looseText,
  toolName: looseText,
  isError: looseFlag,
  command: looseText,
  output: looseText,
  exitCode: looseNumber,
  customType: looseText,
  display: looseFlag,
  summary: looseText,
  files: looseList,
});
export type PiMessage = z.infer<typeof PiMessage>;
