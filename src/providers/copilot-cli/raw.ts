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
 * GitHub Copilot CLI's session events, as its SDK declares them (github/copilot-sdk,
 * nodejs/src/generated/session-events.ts): one JSON object a line, `{type, data, id, parentId,
 * timestamp}`, `parentId` naming the event before it, `agentId` set on a sub-agent's events.
 * Events marked `ephemeral` (deltas, per-call usage) are not meant to reach the file.
 */

/** One line of `events.jsonl` (or of a flat `<session>.jsonl`). */
export const CopilotEvent = looseRecord({
  type: looseText,
  id: looseText,
  parentId: looseText,
  timestamp: looseText,
  agentId: looseText,
  ephemeral: looseFlag,
  data: looseObject,
});
export type CopilotEvent = z.infer<typeof CopilotEvent>;

/** The working folder and git state (`session.start`, `session.resume`, `session.context_changed`). */
export const WorkingContext = looseRecord({
  cwd: looseText,
  gitRoot: looseText,
  branch: looseText,
  repository: looseText,
  headCommit: looseText,
});

export const StartData = looseRecord({
  sessionId: looseText,
  copilotVersion: looseText,
  producer: looseText,
  selectedModel: looseText,
  startTime: looseText,
  version: looseNumber,
  context: WorkingContext.optional().catch(undefined),
});

export const UserMessageData = looseRecord({
  content: looseText,
  source: looseText,
  agentMode: looseText,
  isAutopilotContinuation: looseFlag,
  attachments: looseList,
});

export const ToolRequest = looseRecord({
  toolCallId: looseText,
  name: looseText,
  arguments: z.unknown(),
});

export const AssistantMessageData = looseRecord({
  content: looseText,
  messageId: looseText,
  model: looseText,
  outputTokens: looseNumber,
  reasoningText: looseText,
  toolRequests: looseArray(ToolRequest),
  parentToolCallId: looseText,
});

export const ReasoningData = looseRecord({ content: looseText, reasoningId: looseText });

export const ToolStartData = looseRecord({
  toolCallId: looseText,
  toolName: looseText,
  arguments: z.unknown(),
  model: looseText,
  parentToolCallId: looseText,
});

export const ToolCompleteData = looseRecord({
  toolCallId: looseText,
  success: looseFlag,
  result: z.unknown(),
  error: z.unknown(),
  model: looseText,
  parentToolCallId: looseText,
});

export const SubagentData = looseRecord({
  toolCallId: looseText,
  agentName: looseText,
  agentDisplayName: looseText,
  agentDescription: looseText,
  model: looseText,
  error: looseText,
});

/** A model's totals at shutdown: `inputTokens` counts the cache reads and writes inside it. */
export const ModelMetric = looseRecord({
  requests: looseObject,
  usage: looseRecord({
    inputTokens: looseNumber,
    outputTokens: looseNumber,
    cacheReadTokens: looseNumber,
    cacheWriteTokens: looseNumber,
    reasoningTokens: looseNumber,
  })
    .optional()
    .catch(undefined),
});

export const ShutdownData = looseRecord({
  shutdownType: looseText,
  currentModel: looseText,
  modelMetrics: z.record(z.unknown()).optional().catch(undefined),
  codeChanges: looseObject,
});

/** One model call's tokens (`assistant.usage`, ephemeral: on disk only in some versions). */
export const UsageData = looseRecord({
  model: looseText,
  inputTokens: looseNumber,
  outputTokens: looseNumber,
  cacheReadTokens: looseNumber,
  cacheWriteTokens: looseNumber,
  reasoningTokens: looseNumber,
  parentToolCallId: looseText,
});

export const TextData = looseRecord({
  content: looseText,
  summaryContent: looseText,
  message: looseText,
  title: looseText,
  newModel: looseText,
  name: looseText,
  role: looseText,
  kind: z.unknown(),
  success: looseFlag,
  errorType: looseText,
  warningType: looseText,
  reason: looseText,
});

/**
 * The first CLI's session dump (`~/.copilot/history-session-state/session_<id>_<time>.json`):
 * the OpenAI chat messages sent to the model, and a timeline the CLI showed.
 */
export const HistorySession = looseRecord({
  sessionId: looseText,
  startTime: looseText,
  chatMessages: looseList,
  timeline: looseList,
});

/** One OpenAI chat message of a history dump. */
export const ChatMessage = looseRecord({
  role: looseText,
  content: z.unknown(),
  name: looseText,
  tool_call_id: looseText,
  tool_calls: looseArray(
    looseRecord({
      id: looseText,
      function: looseRecord({ name: looseText, arguments: z.unknown() })
        .optional()
        .catch(undefined),
    }),
  ),
});
