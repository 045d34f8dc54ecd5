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
 * VS Code's chat sessions (`ISerializableChatData`, version 3: microsoft/vscode,
 * src/vs/workbench/contrib/chat/common/model/chatModel.ts and chatSessionOperationLog.ts), as
 * the Copilot Chat extension's conversations are kept: each request the person's message and
 * the response's parts (markdown, thinking, tool invocations, edits, references).
 */

/** One request: the person's message, and the response VS Code recorded for it. */
export const ChatRequest = looseRecord({
  requestId: looseText,
  timestamp: looseNumber,
  message: looseRecord({ text: looseText, parts: looseList }).optional().catch(undefined),
  variableData: looseRecord({ variables: looseList }).optional().catch(undefined),
  response: looseList,
  responseId: looseText,
  result: looseRecord({
    timings: looseRecord({ totalElapsed: looseNumber, firstProgress: looseNumber })
      .optional()
      .catch(undefined),
    metadata: looseObject,
    errorDetails: looseRecord({ message: looseText }).optional().catch(undefined),
  })
    .optional()
    .catch(undefined),
  agent: looseRecord({ id: looseText, name: looseText, fullName: looseText })
    .optional()
    .catch(undefined),
  modelId: looseText,
  modelState: looseObject,
  isCanceled: looseFlag,
  editedFileEvents: looseList,
  contentReferences: looseList,
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** The session: its id, times, title and requests. */
export const ChatSession = looseRecord({
  version: looseNumber,
  sessionId: looseText,
  creationDate: looseNumber,
  lastMessageDate: looseNumber,
  customTitle: looseText,
  requesterUsername: looseText,
  responderUsername: looseText,
  initialLocation: z.unknown(),
  requests: looseArray(z.unknown()),
});

/** A response part VS Code serialized with a `kind` (a markdown part has none). */
export const ResponsePart = looseRecord({
  kind: looseText,
  value: z.unknown(),
  content: z.unknown(),
  toolId: looseText,
  toolCallId: looseText,
  invocationMessage: z.unknown(),
  pastTenseMessage: z.unknown(),
  resultDetails: z.unknown(),
  toolSpecificData: looseObject,
  isComplete: looseFlag,
  isConfirmed: z.unknown(),
  subAgentInvocationId: looseText,
  inlineReference: z.unknown(),
  name: looseText,
  uri: z.unknown(),
  edits: looseList,
  title: z.unknown(),
  message: z.unknown(),
});
export type ResponsePart = z.infer<typeof ResponsePart>;
