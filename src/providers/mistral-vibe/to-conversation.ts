import type { Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { tokenUsageJson } from '../../model/token-usage.js';
import { logConversation } from '../agent-log.js';
import type { ConversionContext } from '../provider.js';
import { textLines } from '../text-lines.js';
import { asObject } from '../untrusted.js';
import { VibeMeta, VibeSessionFile } from './raw.js';
import { modelOf, sessionLog, type PlacedMessage, type SessionLog } from './session-log.js';

/** A session as read: its metadata, its messages, and where it was kept. */
interface VibeSession {
  meta: VibeMeta;
  messages: PlacedMessage[];
  /** The folder's name (`session_20260412_081503_3f9a2c1d`), the id when the metadata has none. */
  name: string;
}

/**
 * Converts a Mistral Vibe session: a session folder (`meta.json`, `messages.jsonl` and the
 * sub-agents its `task` calls started, each a folder of `agents/`) into its conversation and
 * one for each sub-agent, linked from the call that started it; or a session file of the
 * versions before 2.0 (`{metadata, messages}`).
 */
export function toVibeConversations(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation[] {
  const name = (context.file.split('/').at(-2) ?? '').replace(/\.json$/i, '');
  if (variant === 'session-json') {
    const file = VibeSessionFile.safeParse(raw);
    const body = file.success ? file.data : { metadata: undefined, messages: undefined };
    const session: VibeSession = {
      meta: metaOf(body.metadata, 'the session file', context),
      messages: (body.messages ?? []).map((value, i) => ({ value, record: `messages[${i}]` })),
      name: (context.file.split('/').at(-1) ?? '').replace(/\.json$/i, ''),
    };
    const one = conversationOf(session, sessionLog(session.meta, session.messages, context), {
      format: 'mistral-vibe/session-json',
      context,
    });
    return one ? [one] : [];
  }
  const set = asObject(raw) ?? {};
  const side: Record<string, string> = {};
  for (const [key, value] of Object.entries(asObject(set.side) ?? {}))
    if (typeof value === 'string') side[key] = value;
  const main: VibeSession = {
    meta: metaOf(set.main, 'meta.json', context),
    messages: placed(side['messages.jsonl'], 'messages.jsonl', context),
    name,
  };
  return folderConversations(main, subagentsOf(side, context), context);
}

function folderConversations(
  main: VibeSession,
  subagents: VibeSession[],
  context: ConversionContext,
): Conversation[] {
  const format = 'mistral-vibe/session-folder';
  const parent = sessionLog(main.meta, main.messages, context);
  const children = subagents.map((session) => ({
    session,
    drafted: sessionLog(session.meta, session.messages, context),
  }));
  const waiting = [...parent.tasks];
  for (const child of children) {
    // The call that gave the sub-agent its task: the one whose task its first prompt ends
    // with (Vibe may put a scratchpad note first), else the first of its agent profile.
    const prompt = child.drafted.firstPrompt ?? '';
    let at = waiting.findIndex((t) => t.task !== undefined && prompt.endsWith(t.task));
    if (at < 0) at = waiting.findIndex((t) => t.agent === child.session.meta.agent_profile?.name);
    const task = waiting[at];
    if (task === undefined) continue;
    waiting.splice(at, 1);
    parent.log.started(task.id, idOf(child.session));
  }
  const out: Conversation[] = [];
  const own = conversationOf(main, parent, { format, context });
  if (own) out.push(own);
  for (const { session, drafted } of children) {
    const sub = conversationOf(session, drafted, { format, context });
    if (sub) out.push(sub);
  }
  return out;
}

function conversationOf(
  session: VibeSession,
  drafted: SessionLog,
  at: { format: string; context: ConversionContext },
): Conversation | undefined {
  const { meta } = session;
  return logConversation(
    {
      provider: 'mistral-vibe',
      id: idOf(session),
      format: at.format,
      title: meta.title,
      createdAt: toTimestamp(meta.start_time),
      updatedAt: toTimestamp(meta.end_time),
      model: modelOf(meta),
      raw: sessionRaw(meta),
      assistantName: 'Vibe',
    },
    drafted.log,
    at.context,
  );
}

function idOf(session: VibeSession): string {
  return session.meta.session_id ?? session.name;
}

function sessionRaw(meta: VibeMeta): JsonObject {
  const raw: JsonObject = {};
  const cwd = meta.environment?.working_directory;
  if (cwd !== undefined) raw.cwd = cwd;
  if (meta.git_branch !== undefined) raw.git_branch = meta.git_branch;
  if (meta.git_commit !== undefined) raw.git_commit = meta.git_commit;
  if (meta.parent_session_id !== undefined) raw.parent_session_id = meta.parent_session_id;
  const profile = meta.agent_profile?.name;
  if (profile !== undefined) raw.agent_profile = profile;
  if (meta.title_source !== undefined) raw.title_source = meta.title_source;
  // Vibe counts the session's tokens, not each message's: kept on the conversation.
  const usage = tokenUsageJson({
    input_tokens: meta.stats?.session_prompt_tokens,
    output_tokens: meta.stats?.session_completion_tokens,
  });
  if (usage) raw.session_token_usage = usage;
  if (meta.stats?.steps !== undefined) raw.steps = meta.stats.steps;
  return raw;
}

function metaOf(value: unknown, name: string, context: ConversionContext): VibeMeta {
  const parsed = VibeMeta.safeParse(value);
  if (parsed.success) return parsed.data;
  context.report({
    level: 'warning',
    code: 'bad-record',
    message: `${name} holds no session metadata (not a JSON object); the messages are read without it`,
    record: name,
  });
  return VibeMeta.parse({});
}

function placed(
  text: string | undefined,
  name: string,
  context: ConversionContext,
): PlacedMessage[] {
  if (text === undefined) return [];
  return textLines(text, name, context).map(({ line, entry }) => ({
    value: entry,
    record: `${name} line ${line}`,
  }));
}

// The sub-agents' folders the file set brought (`agents/<folder>/meta.json` and its messages).
function subagentsOf(
  side: Readonly<Record<string, string>>,
  context: ConversionContext,
): VibeSession[] {
  const folders = new Set<string>();
  for (const key of Object.keys(side)) {
    const match = /^agents\/([^/]+)\/meta\.json$/.exec(key);
    if (match?.[1] !== undefined) folders.add(match[1]);
  }
  return [...folders].sort().flatMap((folder) => {
    const name = `agents/${folder}/meta.json`;
    let meta: VibeMeta;
    try {
      meta = metaOf(JSON.parse(side[name] ?? ''), name, context);
    } catch (error) {
      // Only its title, times and model are lost: its messages are in their own file.
      context.report({
        level: 'warning',
        code: 'malformed-file',
        message: `${name} is not JSON (${error instanceof Error ? error.message : 'unreadable'}); the sub-agent's messages are read without it`,
        record: name,
      });
      meta = VibeMeta.parse({});
    }
    return [
      {
        meta,
        messages: placed(
          side[`agents/${folder}/messages.jsonl`],
          `agents/${folder}/messages.jsonl`,
          context,
        ),
        name: folder,
      },
    ];
  });
}
