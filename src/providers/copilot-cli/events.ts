import type { Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { AgentLog, logConversation } from '../agent-log.js';
import { logLines, type LogLine } from '../log-lines.js';
import type { ConversionContext } from '../provider.js';
import { asText } from '../untrusted.js';
import { CopilotEvent, SubagentData } from './raw.js';
import {
  agentKeyOf,
  subagentStarted,
  type Agent,
  type At,
  type Facts,
  type Started,
} from './agent-state.js';
import { readEvent } from './event-handlers.js';
import { sessionUsage } from './results.js';
import { workspaceFacts } from './workspace.js';

/**
 * Converts a Copilot CLI session's events (`~/.copilot/session-state/<id>/events.jsonl`, or the
 * earlier flat `<id>.jsonl`) into its conversation and one for each sub-agent it started (their
 * events carry `agentId` or `parentToolCallId`), linked from the call that started them.
 */
export function eventsConversations(
  value: unknown,
  side: Readonly<Record<string, string>>,
  context: ConversionContext,
): Conversation[] {
  const { main, agents, started, facts } = readEvents(logLines(value, context), context);
  const workspace = workspaceFacts(side['workspace.yaml'], context);
  const sessionId = facts.sessionId ?? workspace.id ?? sessionIdOfPath(context.file);
  const raw = sessionRaw(facts, workspace.raw);
  for (const { owner, id } of started) owner.log.started(id, `${sessionId}:${id}`);
  const format = `copilot-cli/events${facts.version !== undefined ? `/${facts.version}` : ''}`;
  const title = facts.title ?? workspace.title;
  const session = { provider: 'copilot-cli', format, assistantName: 'Copilot' };
  const conversations: Conversation[] = [];
  const own = logConversation({ ...session, id: sessionId, title, raw }, main.log, context);
  if (own) conversations.push(own);
  for (const agent of agents) {
    Object.assign(agent.info, started.find((s) => s.id === agent.key)?.info ?? {});
    const name = agent.info.agentDisplayName;
    const sub = logConversation(
      {
        ...session,
        id: `${sessionId}:${agent.key}`,
        title: typeof name === 'string' ? name : undefined,
        raw: {
          ...subagentRaw(raw),
          parent_session_id: sessionId,
          subagent: agent.info,
          tool_call_id: agent.key,
        },
      },
      agent.log,
      context,
    );
    if (sub) conversations.push(sub);
  }
  return conversations;
}

/** The session's agents as its events drew them, and what the events said of it. */
interface ReadEvents {
  main: Agent;
  agents: Agent[];
  started: Started[];
  facts: Facts;
}

function readEvents(lines: readonly LogLine[], context: ConversionContext): ReadEvents {
  const facts: Facts = {
    sessionId: undefined,
    version: undefined,
    context: {},
    model: undefined,
    title: undefined,
    shutdown: undefined,
    systemPrompts: new Set(),
    counts: {},
    unknown: [],
    callUsage: lines.some((l) => l.entry?.type === 'assistant.usage'),
  };
  const newAgent = (key: string): Agent => ({
    key,
    log: new AgentLog(context),
    thoughts: new Set(),
    info: {},
  });
  const main = newAgent('');
  const agents = new Map<string, Agent>();
  const agentIds = new Map<string, string>();
  const started: Started[] = [];
  // Each event's id answers to the main conversation's last message when it was read.
  const keyOf = new Map<string, string | null>();
  for (const { line, entry } of lines) {
    if (!entry) continue;
    const event = CopilotEvent.parse(entry);
    const type = event.type ?? '(no type)';
    facts.counts[type] = (facts.counts[type] ?? 0) + 1;
    const data = event.data ?? {};
    const owner = agentKeyOf(event, data, agentIds);
    const agent = owner === undefined ? main : (agents.get(owner) ?? newAgent(owner));
    if (owner !== undefined) agents.set(owner, agent);
    const { parentId } = event;
    const parent =
      agent === main && parentId !== undefined && keyOf.has(parentId)
        ? keyOf.get(parentId)
        : undefined;
    const at: At = { agent, time: toTimestamp(event.timestamp), line, parent, facts, context };
    if (type === 'subagent.started') {
      const call = asText(data.toolCallId);
      if (event.agentId !== undefined && call !== undefined) agentIds.set(event.agentId, call);
      const link = subagentStarted(SubagentData.parse(data), [main, ...agents.values()]);
      if (link) started.push(link);
    } else readEvent(type, data, at, entry);
    if (event.id !== undefined) keyOf.set(event.id, main.log.last);
  }
  return { main, agents: [...agents.values()], started, facts };
}

function sessionRaw(facts: Facts, workspace: JsonObject): JsonObject {
  const raw: JsonObject = { ...workspace };
  const context = facts.context;
  if (typeof context.cwd === 'string') raw.cwd = context.cwd;
  if (typeof context.branch === 'string') raw.git_branch = context.branch;
  for (const [key, name] of [
    ['gitRoot', 'git_root'],
    ['repository', 'repository'],
    ['headCommit', 'head_commit'],
  ] as const)
    if (typeof context[key] === 'string') raw[name] = context[key];
  if (facts.version !== undefined) raw.cli_version = facts.version;
  if (facts.model !== undefined) raw.model = facts.model;
  if (facts.shutdown) {
    const usage = sessionUsage(facts.shutdown);
    if (usage) raw.session_token_usage = usage;
    const changes = facts.shutdown.codeChanges;
    if (changes !== undefined) raw.code_changes = changes;
    if (typeof facts.shutdown.shutdownType === 'string')
      raw.shutdown_type = facts.shutdown.shutdownType;
  }
  raw.entry_counts = facts.counts;
  if (facts.unknown.length > 0) raw.unknown_entries = facts.unknown;
  return raw;
}

// What a sub-agent shares with its session: where it ran.
function subagentRaw(raw: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of ['cwd', 'git_branch', 'git_root', 'repository', 'cli_version'])
    if (raw[key] !== undefined) out[key] = raw[key];
  return out;
}

// `<id>/events.jsonl` is named by its folder; a flat log by its own name.
function sessionIdOfPath(file: string): string {
  const parts = file.split('/');
  const name = parts.at(-1) ?? file;
  if (name === 'events.jsonl' && parts.length > 1) return parts.at(-2) ?? name;
  return name.replace(/\.jsonl$/i, '');
}
