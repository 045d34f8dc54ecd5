import { stableId } from '../../model/ids.js';
import type { Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import type { TokenUsage } from '../../model/token-usage.js';
import { AgentLog, logConversation } from '../agent-log.js';
import type { ConversionContext } from '../provider.js';
import { asObject, asString } from '../untrusted.js';
import {
  readChatHistory,
  readInputHistory,
  tokensLine,
  type HistoryRun,
  type InputEntry,
} from './chat-history.js';

/** The file read beside the chat history: the inputs, each with the time it was typed. */
export const INPUT_HISTORY = '.aider.input.history';

/**
 * Converts an Aider chat history (`.aider.chat.history.md`, beside the repository it worked
 * on) into PAM conversations, one per run of Aider: the person's inputs (commands such as
 * `/run` hidden as context), the model's replies (with the model the run's header names and
 * the tokens Aider printed after each), and Aider's own output as hidden context. Times come
 * from `.aider.input.history` when it is beside it (local times, the zone not written).
 */
export function toAiderConversations(
  raw: unknown,
  _variant: string,
  context: ConversionContext,
): Conversation[] | undefined {
  const value = asObject(raw) ?? {};
  const text = asString(value.main) ?? (typeof raw === 'string' ? raw : '');
  const inputs = readInputHistory(asString(asObject(value.side)?.[INPUT_HISTORY]) ?? '');
  const folder = projectFolder(context);
  const conversations = readChatHistory(text).flatMap((run) => {
    const conversation = runConversation(run, { inputs, folder, context });
    return conversation ? [conversation] : [];
  });
  return conversations.length > 0 ? conversations : undefined;
}

function runConversation(
  run: HistoryRun,
  at: { inputs: InputEntry[]; folder: string | undefined; context: ConversionContext },
): Conversation | undefined {
  const log = new AgentLog(at.context);
  const started = localTime(run.started);
  let model: string | null = null;
  let time = started;
  let lastReply: ReturnType<AgentLog['add']> | undefined;
  const inputs = at.inputs.filter((i) => run.started === undefined || i.time >= run.started);
  for (const block of run.blocks) {
    if (block.kind === 'aider') {
      model = /(?:Main model|Model): (\S+)/.exec(block.text)?.[1] ?? model;
      const tokens = tokensLine(block.text);
      if (tokens && lastReply) log.usage(usageOf(tokens), lastReply);
      log.contextTurn(lastReply || log.drafts.length > 0 ? 'aider-output' : 'aider-startup', {
        role: 'system',
        text: block.text,
        time,
      });
    } else if (block.kind === 'user') {
      const typed = takeInput(inputs, block.text);
      time = localTime(typed?.time) ?? time;
      const turn = { role: 'user' as const, text: block.text, time };
      if (/^\s*\//.test(block.text)) log.contextTurn('command', turn);
      else log.add(turn);
      lastReply = undefined;
    } else lastReply = log.add({ role: 'assistant', text: block.text, time, model });
  }
  const raw: JsonObject = {};
  if (at.folder !== undefined) raw.cwd = at.folder;
  if (run.started !== undefined) raw.started_local = run.started;
  raw.local_times = true;
  raw.history_line = run.line;
  const first = log.drafts.find((d) => d.role === 'user')?.content?.text ?? '';
  const id = `${run.started ?? 'undated'}#${stableId('aider-run', first).slice(0, 8)}`;
  return logConversation(
    {
      provider: 'aider',
      id,
      format: 'aider/chat-history-md',
      createdAt: started,
      raw,
      assistantName: 'Aider',
    },
    log,
    at.context,
  );
}

// The input typed for a block: the next entry of the input history with the same text.
function takeInput(inputs: InputEntry[], text: string): InputEntry | undefined {
  const at = inputs.findIndex((entry) => entry.text.trim() === text.trim());
  if (at === -1) return undefined;
  return inputs.splice(0, at + 1).at(-1);
}

// Aider writes local times without their zone: read as written (as if UTC), and said so.
function localTime(text: string | undefined): string | undefined {
  return text === undefined ? undefined : toTimestamp(`${text.replace(' ', 'T')}Z`);
}

function usageOf(tokens: NonNullable<ReturnType<typeof tokensLine>>): TokenUsage {
  const usage: TokenUsage = {
    input_tokens: Math.max(0, tokens.sent - (tokens.cacheWrite ?? 0)),
    output_tokens: tokens.received,
  };
  if (tokens.cacheWrite !== undefined) usage.cache_creation_tokens = tokens.cacheWrite;
  if (tokens.cacheHit !== undefined) usage.cache_read_tokens = tokens.cacheHit;
  return usage;
}

// The repository the history sits in: the folder of the file on disk, else of its path.
function projectFolder(context: ConversionContext): string | undefined {
  const path = context.localPath ?? (context.file.includes('/') ? context.file : undefined);
  if (path === undefined) return undefined;
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut > 0 ? path.slice(0, cut) : undefined;
}
