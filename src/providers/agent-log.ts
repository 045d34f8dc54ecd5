import { buildConversation } from '../model/build-conversation.js';
import type { DraftMessage } from '../model/draft.js';
import type {
  Attachment,
  Citation,
  Conversation,
  JsonObject,
  Role,
  ToolCall,
} from '../model/pam.js';
import {
  tokenUsageJson,
  tokenUsageOf,
  TOKEN_FIELDS,
  TOKEN_USAGE_KEY,
  type TokenUsage,
} from '../model/token-usage.js';
import type { ConversionContext } from './provider.js';
import { firstPromptTitle } from './first-prompt-title.js';
import { markContext } from './session-context.js';

/** A message of a coding agent's log, as its provider reads it. */
export interface LogMessage {
  role: Role;
  text: string;
  time?: string | undefined;
  model?: string | null | undefined;
  raw?: JsonObject;
  /** The log's own id of the message, when it has one (kept as the PAM provider message id). */
  id?: string | undefined;
  /** The key of the message it answers; by default the message added before it. */
  parent?: string | null | undefined;
  attachments?: Attachment[];
  citations?: Citation[];
}

/**
 * A coding agent's session drafted message by message, as most agents log it: a chain in
 * the order written (a message may name another parent: a branch), thoughts before the reply
 * they belong to, tool calls on the assistant message that made them (one with no text made
 * for calls that come first), their results paired by call id, the session's context kept as
 * hidden messages, and each model call's token usage on its message. The drafts go to
 * `buildConversation`.
 */
export class AgentLog {
  readonly drafts: DraftMessage[] = [];
  private readonly calls = new Map<string, { call: ToolCall; owner: DraftMessage }>();
  private readonly keys = new Set<string>();
  private previous: string | null = null;
  /** The assistant message that takes the next tool calls, until a person's turn. */
  private carrier: DraftMessage | undefined;
  /** Where the person's last turn is in `drafts` (a reply after it is of this turn). */
  private personAt = -1;
  /** A model call's tokens counted before the turn had a reply: for the next reply. */
  private held: TokenUsage | undefined;

  constructor(private readonly context: Pick<ConversionContext, 'report' | 'record'>) {}

  /** The key of the last message added (the parent of the next one). */
  get last(): string | null {
    return this.previous;
  }

  /** Adds a message after the last one (or after `parent`); returns its draft. */
  add(message: LogMessage): DraftMessage {
    return this.push(message, false);
  }

  private push(message: LogMessage, isThought: boolean): DraftMessage {
    const key = this.keyFor(message.id);
    const parentKey = message.parent !== undefined ? message.parent : this.previous;
    const draft: DraftMessage = {
      key,
      parentKey,
      provider_message_id: message.id ?? null,
      role: message.role,
      content: { type: 'text', text: message.text },
      createdAt: message.time,
      model: message.model ?? null,
      is_thought: isThought,
      attachments: message.attachments ?? [],
      citations: message.citations ?? [],
      tool_calls: [],
      raw_metadata: message.raw ?? {},
    };
    const visible = draft.raw_metadata.hidden !== true;
    // A turn's first call whose tokens came before its reply was written is left to that reply;
    // a person's turn before any reply leaves it to the last reply there is.
    if (this.held && visible && message.role === 'user') this.settle();
    this.drafts.push(draft);
    this.previous = key;
    // Thinking ends what the last reply said: the next tool calls are of the next reply.
    if (message.role === 'assistant' && visible && isThought) this.carrier = undefined;
    else if (message.role === 'assistant' && visible) {
      this.carrier = draft;
      if (this.held) this.usage(this.held, draft);
      this.held = undefined;
    } else if (message.role === 'user' && visible) {
      this.carrier = undefined;
      this.personAt = this.drafts.length - 1;
    }
    return draft;
  }

  /** Adds the model's thinking, as an `is_thought` message before what follows. */
  thought(
    text: string,
    time: string | undefined,
    model: string | null,
    raw: JsonObject = {},
    parent?: string | null,
  ): DraftMessage {
    return this.push({ role: 'assistant', text, time, model, raw, parent }, true);
  }

  /** Adds the session's context (an instructions file, the environment): hidden, searchable. */
  contextTurn(kind: string, message: LogMessage): DraftMessage {
    return this.add({ ...message, raw: markContext(message.raw ?? {}, kind) });
  }

  /**
   * Adds a tool call to the assistant message that made it: the last one since the person's
   * last turn, else a new one with no text. Its result is paired by `id` later.
   */
  call(call: ToolCall, time: string | undefined, model: string | null): ToolCall {
    let owner = this.carrier;
    if (!owner) {
      owner = this.push(
        { role: 'assistant', text: '', time, model, raw: { tool_calls_only: true } },
        false,
      );
      this.carrier = owner;
    }
    owner.tool_calls.push(call);
    if (call.id !== null) this.calls.set(call.id, { call, owner });
    return call;
  }

  /**
   * Gives a tool call its result, by the call's id (several results of one call are joined);
   * a result whose call is not in the log is reported and kept on the last message.
   */
  result(
    id: string | undefined,
    output: string,
    options: { error?: boolean; line?: number } = {},
  ): void {
    const found = id !== undefined ? this.calls.get(id) : undefined;
    if (!found) {
      this.context.report({
        level: 'warning',
        code: 'orphan-tool-result',
        message: `a tool result for ${id ?? 'no id'} has no matching call; kept in raw_metadata.orphan_tool_results`,
        record: options.line !== undefined ? `line ${options.line}` : this.context.record,
      });
      const target = this.drafts.at(-1);
      if (target) appendRaw(target, 'orphan_tool_results', { tool_use_id: id ?? null, output });
      return;
    }
    const { call, owner } = found;
    call.output = call.output === null ? output : `${call.output}\n${output}`;
    if (options.error === true && call.id !== null) appendRaw(owner, 'tool_errors', call.id);
  }

  /** Whether a call of this id has a result already. */
  answered(id: string): boolean {
    return (this.callOf(id)?.output ?? null) !== null;
  }

  /** The tool call of this id, when the log has one. */
  callOf(id: string): ToolCall | undefined {
    return this.calls.get(id)?.call;
  }

  /** Links the call of this id to the sub-agent conversation it started (the graph's STARTED). */
  started(id: string, conversationId: string): void {
    const found = this.calls.get(id);
    if (found)
      appendRaw(found.owner, 'subagents', { tool_use_id: id, conversation_id: conversationId });
  }

  /**
   * Adds one model call's tokens to the message it wrote (`raw_metadata.token_usage`): the
   * given draft, else the last reply of this turn; a turn with no reply yet (Codex 0.60 counts
   * a call's tokens before writing its reply) holds them for its next reply. Two calls that
   * wrote one message add up.
   */
  usage(usage: TokenUsage, target?: DraftMessage): void {
    const draft = target ?? this.lastReply(this.personAt + 1);
    if (!draft) {
      this.held = this.held ? sumUsage(this.held, usage) : usage;
      return;
    }
    const json = tokenUsageJson(sumUsage(tokenUsageOf(draft.raw_metadata) ?? {}, usage));
    if (json) draft.raw_metadata[TOKEN_USAGE_KEY] = json;
  }

  /** Gives tokens held for a reply that never came to the last reply there is. */
  settle(): void {
    const held = this.held;
    this.held = undefined;
    const draft = this.lastReply(0);
    if (held && draft) this.usage(held, draft);
  }

  // The last reply (not thinking) from index `from` on.
  private lastReply(from: number): DraftMessage | undefined {
    for (let i = this.drafts.length - 1; i >= from; i--) {
      const d = this.drafts[i];
      if (d?.role === 'assistant' && !d.is_thought) return d;
    }
    return undefined;
  }

  // A key of its own for every message: the log's id when it has one not used yet.
  private keyFor(id: string | undefined): string {
    let key = id ?? `m${this.drafts.length}`;
    for (let n = 2; this.keys.has(key); n++) key = `${id ?? `m${this.drafts.length}`}#${n}`;
    this.keys.add(key);
    return key;
  }
}

function sumUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = {};
  for (const field of TOKEN_FIELDS) {
    const x = a[field];
    const y = b[field];
    if (x !== undefined || y !== undefined) sum[field] = (x ?? 0) + (y ?? 0);
  }
  return sum;
}

function appendRaw(draft: DraftMessage, field: string, value: unknown): void {
  const before: unknown = draft.raw_metadata[field];
  const list: unknown[] = Array.isArray(before) ? [...(before as unknown[])] : [];
  list.push(value);
  draft.raw_metadata[field] = list;
}

/** What a coding agent's session is, besides its messages. */
export interface LogSession {
  /** The provider's PAM name (`codex`). */
  provider: string;
  /** The session's id in the agent (a file name, a UUID). */
  id: string;
  /** `provider.export_format_version`: the format generation read (`codex/rollout/0.46.0`). */
  format: string;
  title?: string | null | undefined;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  model?: string | null | undefined;
  /** The session's `raw_metadata`: `cwd` and `git_branch` make its Project and GitBranch. */
  raw: JsonObject;
  /** The assistant's name (`Codex`). */
  assistantName: string;
}

/**
 * The session as a PAM conversation: named by its title, else its first prompt; its times the
 * earliest and latest of its messages unless the log says; undefined (reported) when it holds
 * no message at all.
 */
export function logConversation(
  session: LogSession,
  log: AgentLog,
  context: ConversionContext,
): Conversation | undefined {
  log.settle();
  const { drafts } = log;
  if (drafts.length === 0) {
    context.report({
      level: 'warning',
      code: 'empty-session',
      message: 'the session holds no messages; skipped',
      record: context.record,
    });
    return undefined;
  }
  let first: string | undefined;
  let last: string | undefined;
  for (const { createdAt } of drafts) {
    if (createdAt === undefined) continue;
    if (first === undefined || createdAt < first) first = createdAt;
    if (last === undefined || createdAt > last) last = createdAt;
  }
  const raw = session.raw;
  return buildConversation(
    {
      provider: {
        name: session.provider,
        conversation_id: session.id,
        account_id: null,
        export_format_version: session.format,
      },
      title: session.title ?? firstPromptTitle(drafts, raw),
      createdAt: session.createdAt ?? first,
      updatedAt: session.updatedAt ?? last,
      messages: drafts,
      shownLeafKey: undefined,
      model: session.model ?? null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: raw,
      assistantName: session.assistantName,
    },
    context,
  );
}
