import type { Attachment, Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { AgentLog, logConversation } from '../agent-log.js';
import { logLines } from '../log-lines.js';
import type { ConversionContext } from '../provider.js';
import { contextKindOf } from '../session-context.js';
import { asNumber, asObject, asString, asText } from '../untrusted.js';
import { replayOperations } from './operation-log.js';
import { ChatRequest, ChatSession } from './raw.js';
import { readResponse, type PartCall } from './response-parts.js';
import { uriPath } from './uris.js';

/** A sub-agent `runSubagent` started in a request: its call, and the calls it made. */
interface Subagent {
  id: string;
  info: JsonObject;
  calls: PartCall[];
  time: string | undefined;
}

/**
 * Converts a VS Code chat session (`chatSessions/<id>.json`, or the operation log
 * `<id>.jsonl` replayed) into its conversation: each request's message (its attached files
 * and folders as attachments), the response's thinking, words and tool calls with their
 * results (a sub-agent's calls as the sub-agent's own conversation, STARTED by its call), the
 * model and tokens VS Code recorded; the workspace folder (`../workspace.json`) as its project.
 */
export function toVsCodeConversations(
  record: unknown,
  variant: string,
  context: ConversionContext,
): Conversation[] {
  const set = asObject(record) ?? {};
  const workspace = asString(asObject(set.side)?.['../workspace.json']);
  const value =
    variant === 'session-jsonl' ? replayOperations(logLines(set.main, context), context) : set.main;
  const parsed = ChatSession.safeParse(value);
  if (!parsed.success) {
    context.report({
      level: 'error',
      code: 'not-a-session',
      message: 'the chat session is not a JSON object; skipped',
      record: context.record,
    });
    return [];
  }
  const session = parsed.data;
  const id = session.sessionId ?? (context.file.split('/').at(-1) ?? '').replace(/\.jsonl?$/i, '');
  const log = new AgentLog(context);
  const subagents: Subagent[] = [];
  for (const [i, item] of session.requests.entries()) {
    const request = ChatRequest.safeParse(item);
    if (request.success) readRequest(request.data, { log, subagents, context, session: id });
    else
      context.report({
        level: 'warning',
        code: 'bad-record',
        message: `requests[${i}] is not a request; skipped`,
        record: `requests[${i}]`,
      });
  }
  const raw: JsonObject = sessionRaw(session, workspace, context);
  const format = `vscode-copilot-chat/${variant}/v${session.version ?? 0}`;
  const assistantName = session.responderUsername ?? 'GitHub Copilot';
  const out: Conversation[] = [];
  const own = logConversation(
    {
      provider: 'vscode-copilot-chat',
      id,
      format,
      title: session.customTitle,
      createdAt: toTimestamp(session.creationDate),
      updatedAt: toTimestamp(session.lastMessageDate),
      raw,
      assistantName,
    },
    log,
    context,
  );
  if (own) out.push(own);
  for (const sub of subagents) {
    const conversation = subagentConversation(sub, { id, raw, format, assistantName, context });
    if (conversation) out.push(conversation);
  }
  return out;
}

interface RequestAt {
  log: AgentLog;
  subagents: Subagent[];
  context: ConversionContext;
  /** The session's id, which its sub-agents' ids start with. */
  session: string;
}

function readRequest(request: ChatRequest, at: RequestAt): void {
  const { log } = at;
  const time = toTimestamp(request.timestamp);
  const text = request.message?.text ?? '';
  const raw: JsonObject = {};
  if (request.agent?.id !== undefined) raw.participant = request.agent.id;
  const edited = request.editedFileEvents;
  if (edited && edited.length > 0)
    raw.edited_files = edited.flatMap((e) => uriPath(asObject(e)?.uri) ?? []);
  const user = {
    role: 'user' as const,
    text,
    time,
    id: request.requestId,
    raw,
    attachments: attachmentsOf(request),
  };
  const kind = contextKindOf(text);
  if (kind !== undefined) log.contextTurn(kind, user);
  else log.add(user);
  const response = readResponse(request.response ?? []);
  const metadata = request.result?.metadata ?? {};
  const model =
    asText(metadata.resolvedModel) ?? request.modelId?.replace(/^copilot\//, '') ?? null;
  const elapsed = request.result?.timings?.totalElapsed;
  const replyTime =
    request.timestamp !== undefined && elapsed !== undefined
      ? toTimestamp(request.timestamp + elapsed)
      : time;
  for (const thought of response.thoughts) log.thought(thought, replyTime, model);
  const error = request.result?.errorDetails?.message;
  const replyRaw: JsonObject = { ...response.raw };
  if (error !== undefined) replyRaw.error = error;
  if (request.isCanceled === true || asNumber(request.modelState?.value) === 2)
    replyRaw.canceled = true;
  const words = response.texts.join('').trim();
  if (
    words === '' &&
    response.calls.length === 0 &&
    error === undefined &&
    request.response === undefined
  )
    return;
  const reply = log.add({
    role: 'assistant',
    text: words !== '' ? words : (error ?? ''),
    time: replyTime,
    model,
    id: request.responseId,
    raw: replyRaw,
  });
  const inside = new Set(
    response.calls.flatMap((c) => (c.subAgent !== undefined ? [c.subAgent] : [])),
  );
  for (const part of response.calls) {
    const sub =
      part.subAgent !== undefined ? at.subagents.find((s) => s.id === part.subAgent) : undefined;
    if (sub) {
      sub.calls.push(part);
      continue;
    }
    addCall(log, part, replyTime, model);
    const callId = part.call.id;
    if (callId !== null && inside.has(callId)) {
      at.subagents.push({ id: callId, info: part.subagent ?? {}, calls: [], time: replyTime });
      log.started(callId, `${at.session}:${callId}`);
    }
  }
  const usage = {
    input_tokens: asNumber(metadata.promptTokens),
    output_tokens: asNumber(metadata.outputTokens),
  };
  if (usage.input_tokens !== undefined || usage.output_tokens !== undefined)
    log.usage(usage, reply);
}

function addCall(
  log: AgentLog,
  part: PartCall,
  time: string | undefined,
  model: string | null,
): void {
  const { call } = part;
  if (call.id === null) {
    log.call(call, time, model);
    return;
  }
  log.call({ ...call, output: null }, time, model);
  if (call.output !== null || part.error)
    log.result(call.id, call.output ?? '', { error: part.error });
}

// A sub-agent's conversation: the task it was given, the calls it made, what it answered.
function subagentConversation(
  sub: Subagent,
  at: {
    id: string;
    raw: JsonObject;
    format: string;
    assistantName: string;
    context: ConversionContext;
  },
): Conversation | undefined {
  const log = new AgentLog(at.context);
  const prompt = asString(sub.info.prompt) ?? asString(sub.info.description) ?? '';
  log.add({ role: 'user', text: prompt, time: sub.time });
  for (const part of sub.calls) addCall(log, part, sub.time, null);
  const result = asString(sub.info.result);
  if (result !== undefined) log.add({ role: 'assistant', text: result, time: sub.time });
  const raw: JsonObject = { parent_session_id: at.id, tool_call_id: sub.id, subagent: sub.info };
  if (at.raw.cwd !== undefined) raw.cwd = at.raw.cwd;
  return logConversation(
    {
      provider: 'vscode-copilot-chat',
      id: `${at.id}:${sub.id}`,
      format: at.format,
      title: asString(sub.info.description) ?? asString(sub.info.agentName),
      raw,
      assistantName: at.assistantName,
    },
    log,
    at.context,
  );
}

// The files, folders, selections and images attached to a request (`variableData`).
function attachmentsOf(request: ChatRequest): Attachment[] {
  return (request.variableData?.variables ?? []).flatMap((item) => {
    const variable = asObject(item);
    if (!variable) return [];
    const path = uriPath(variable.value);
    const name = asText(variable.name) ?? path ?? null;
    const image = asString(variable.kind) === 'image' || variable.isImage === true;
    if (path === undefined && !image) return [];
    return [
      {
        type: image ? ('image' as const) : ('file' as const),
        name,
        mime_type: asText(variable.mimeType) ?? null,
        size_bytes: null,
        ref: null,
        provider_id: path ?? asText(variable.id) ?? null,
      },
    ];
  });
}

function sessionRaw(
  session: ReturnType<typeof ChatSession.parse>,
  workspace: string | undefined,
  context: ConversionContext,
): JsonObject {
  const raw: JsonObject = {};
  if (workspace !== undefined) {
    let folder: JsonObject | undefined;
    try {
      folder = asObject(JSON.parse(workspace));
    } catch {
      context.report({
        level: 'warning',
        code: 'bad-side-file',
        message:
          'workspace.json beside the chat sessions is not JSON; the session is read without its folder',
        record: context.record,
      });
    }
    const uri = asString(folder?.folder) ?? asString(folder?.workspace);
    if (uri !== undefined) {
      raw.workspace_uri = uri;
      const path = uriPath(uri);
      // A multi-root workspace names its `.code-workspace` file: its folder is the project.
      if (path !== undefined)
        raw.cwd = folder?.folder !== undefined ? path : path.replace(/[\\/][^\\/]*$/, '');
    }
  }
  if (session.initialLocation !== undefined) raw.initial_location = session.initialLocation;
  if (session.requesterUsername !== undefined) raw.requester = session.requesterUsername;
  return raw;
}
