import type { JsonObject } from '../../model/pam.js';
import type { AgentLog } from '../agent-log.js';
import type { ConversionContext } from '../provider.js';
import type { CopilotEvent, SubagentData } from './raw.js';

/** One agent of the session: the main one (key '') or a sub-agent a tool call started. */
export interface Agent {
  key: string;
  log: AgentLog;
  /** Reasoning already kept since the last reply (a message repeats it as `reasoningText`). */
  thoughts: Set<string>;
  /** A sub-agent's name, description and model, from the `subagent.started` of its call. */
  info: JsonObject;
}

/** What the events say of the session beside its messages. */
export interface Facts {
  sessionId: string | undefined;
  version: string | undefined;
  context: JsonObject;
  model: string | undefined;
  title: string | undefined;
  shutdown: JsonObject | undefined;
  systemPrompts: Set<string>;
  counts: Record<string, number>;
  unknown: JsonObject[];
  /** Whether per-call usage events are on disk: then replies' `outputTokens` are not added too. */
  callUsage: boolean;
}

export interface At {
  agent: Agent;
  time: string | undefined;
  line: number;
  /** The message the event follows (from its `parentId`), for the main agent. */
  parent: string | null | undefined;
  facts: Facts;
  context: ConversionContext;
}

// A sub-agent's events name it by `agentId` (mapped to the call that started it, when its
// `subagent.started` said so) or, in earlier versions, by the `parentToolCallId` in their data.
export function agentKeyOf(
  event: CopilotEvent,
  data: JsonObject,
  agentIds: ReadonlyMap<string, string>,
): string | undefined {
  if (event.type === 'subagent.started' || event.type?.startsWith('session.') === true)
    return undefined;
  if (event.agentId !== undefined) return agentIds.get(event.agentId) ?? event.agentId;
  const parentCall = data.parentToolCallId;
  return typeof parentCall === 'string' && parentCall !== '' ? parentCall : undefined;
}

/** A sub-agent a call started: the agent that made the call, and what it said of it. */
export interface Started {
  owner: Agent;
  id: string;
  info: JsonObject;
}

// The agent whose call it was links it (once the session's id is known); the sub-agent's own
// conversation takes its name and description.
export function subagentStarted(
  started: ReturnType<typeof SubagentData.parse>,
  agents: readonly Agent[],
): Started | undefined {
  const id = started.toolCallId;
  if (id === undefined) return undefined;
  const info: JsonObject = {};
  for (const key of ['agentName', 'agentDisplayName', 'agentDescription', 'model'] as const) {
    const value = started[key];
    if (value !== undefined) info[key] = value;
  }
  const owner = agents.find((a) => a.log.callOf(id) !== undefined) ?? agents[0];
  return owner ? { owner, id, info } : undefined;
}
