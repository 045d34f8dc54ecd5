import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Conversation, JsonObject, ToolCall } from '../../model/pam.js';
import { thoughtDrafts } from '../../model/thought-drafts.js';
import { toTimestamp } from '../../model/time.js';
import { baseName } from '../../read/entry.js';
import { readAnthropicBlocks } from '../anthropic-blocks.js';
import { toolResultText } from '../tool-result-text.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString } from '../untrusted.js';

/** True for a transcript Cursor's agent writes as a file (`agent-transcripts/<id>.jsonl`). */
export function isAgentTranscript(path: string, head: string): boolean {
  return /(^|\/)agent-transcripts\/(.+\/)?[^/]+\.jsonl$/i.test(path) && /"role"\s*:/.test(head);
}

/**
 * Converts one of Cursor's agent transcripts (`~/.cursor/projects/<project>/agent-transcripts/`):
 * one message a line, `{role, message: {content: [...]}}` with Anthropic's blocks (text,
 * thinking, tool_use, and tool_result blocks that fill their calls). The transcript keeps no
 * times (each message takes the file's) and no model or token usage; its project is the folder
 * Cursor names after the workspace, kept as given (`project_folder`), its path's separators lost.
 */
export function toTranscriptConversation(
  input: unknown,
  context: ConversionContext,
): Conversation | undefined {
  const value = asObject(input);
  const lines = (asArray(value?.entries) ?? []).map((e) => asObject(e));
  for (const item of asArray(value?.badLines) ?? []) {
    const bad = asObject(item);
    context.report({
      level: 'error',
      code: 'malformed-line',
      message: `line ${String(bad?.line)} is not valid JSON (${asString(bad?.message) ?? ''}); skipped`,
      record: `line ${String(bad?.line)}`,
    });
  }
  const id = baseName(context.file).replace(/\.jsonl$/i, '');
  const drafts = transcriptDrafts(lines, id, context);
  if (drafts.length === 0) return undefined;
  const parts = context.file.split('/');
  const at = parts.lastIndexOf('agent-transcripts');
  const raw: JsonObject = {};
  if (at > 0) raw.project_folder = parts[at - 1] ?? null;
  const sub = parts.indexOf('subagents');
  if (sub > 0) raw.parent_session_id = parts[sub - 1] ?? null;
  return buildConversation(
    {
      provider: {
        name: 'cursor',
        conversation_id: id,
        account_id: null,
        export_format_version: 'cursor/agent-transcript',
      },
      title: firstLine(drafts),
      createdAt: undefined,
      updatedAt: undefined,
      messages: drafts,
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: raw,
      assistantName: 'Cursor',
    },
    context,
  );
}

function transcriptDrafts(
  lines: readonly (JsonObject | undefined)[],
  id: string,
  context: ConversionContext,
): DraftMessage[] {
  const calls = new Map<string, ToolCall>();
  const owners = new Map<ToolCall, DraftMessage>();
  const drafts: DraftMessage[] = [];
  let previous: string | null = null;
  lines.forEach((line, n) => {
    if (!line) return;
    const role = asString(line.role);
    const message = asObject(line.message);
    const content = message?.content ?? line.content;
    const blocks =
      typeof content === 'string' ? [{ type: 'text', text: content }] : (asArray(content) ?? []);
    const read = readAnthropicBlocks(blocks, calls, context, `line ${n + 1}`);
    for (const result of read.results) {
      const call = calls.get(asString(result.tool_use_id) ?? '');
      if (!call) continue;
      const output = toolResultText(result.content);
      call.output = call.output === null ? output : `${call.output}\n${output}`;
      const owner = owners.get(call);
      if (result.is_error === true && owner && call.id !== null)
        owner.raw_metadata.tool_errors = [
          ...(asArray(owner.raw_metadata.tool_errors) ?? []),
          call.id,
        ];
    }
    if (read.texts.length === 0 && read.toolCalls.length === 0 && read.thoughts.length === 0)
      return;
    const key = `${id}#${n + 1}`;
    const assistant = role === 'assistant';
    const createdAt = toTimestamp(line.timestamp);
    const thinking = thoughtDrafts(
      key,
      previous,
      read.thoughts.map((t) => ({ text: t.text, createdAt, raw: t.raw })),
      null,
    );
    const draft: DraftMessage = {
      key,
      parentKey: thinking.replyParent,
      provider_message_id: null,
      role: assistant ? 'assistant' : 'user',
      content: { type: 'text', text: unwrapped(read.texts.join('\n\n')) },
      createdAt,
      model: null,
      is_thought: false,
      attachments: read.images,
      citations: read.citations,
      tool_calls: read.toolCalls,
      raw_metadata: {},
    };
    for (const item of thinking.drafts) drafts.push(item);
    drafts.push(draft);
    for (const call of read.toolCalls) owners.set(call, draft);
    previous = key;
  });
  return drafts;
}

// Cursor wraps what the person typed in <user_query> tags.
function unwrapped(text: string): string {
  return /^\s*<user_query>\s*([\s\S]*?)\s*<\/user_query>\s*$/.exec(text)?.[1] ?? text;
}

function firstLine(drafts: readonly DraftMessage[]): string | null {
  const line = (drafts.find((d) => d.role === 'user')?.content?.text ?? '').split('\n')[0]?.trim();
  if (!line) return null;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
