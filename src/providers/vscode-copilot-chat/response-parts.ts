import type { JsonObject, ToolCall } from '../../model/pam.js';
import { callInput } from '../call-input.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';
import { ResponsePart } from './raw.js';
import { markdownText, uriPath } from './uris.js';

/** A tool invocation of a response: the call, whether it failed, and its sub-agent's. */
export interface PartCall {
  call: ToolCall;
  error: boolean;
  /** The invocation of `runSubagent` this call was made inside (its sub-agent's own call). */
  subAgent: string | undefined;
  /** What a sub-agent's own invocation says of it (`toolSpecificData` of kind `subagent`). */
  subagent: JsonObject | undefined;
}

/** A response read: its thinking, its words, its tool calls and what else it showed. */
export interface ReadResponse {
  thoughts: string[];
  texts: string[];
  calls: PartCall[];
  raw: JsonObject;
}

// Parts that show progress or controls, not words of the reply: counted.
const SHOWN_ONLY = new Set([
  'undoStop',
  'codeblockUri',
  'progressMessage',
  'progressTask',
  'progressTaskSerialized',
  'prepareToolInvocation',
  'command',
  'extensions',
  'treeData',
  'multiDiffData',
  'mcpServersStarting',
  'hook',
  'disabledClaudeHooks',
  'clearToPreviousToolInvocation',
  'workspaceEdit',
  'pullRequest',
  'references',
  'codeCitation',
]);

/**
 * Reads a response's parts in order: markdown (a part without `kind`) and `markdownVuln` as
 * the reply's words, a file `inlineReference` as its path in the words (as VS Code shows it),
 * `thinking` as thoughts, `toolInvocationSerialized` as tool calls, an edit group as a call
 * that changed its file; warnings and confirmations kept in `raw_metadata`.
 */
export function readResponse(parts: readonly unknown[]): ReadResponse {
  const out: ReadResponse = { thoughts: [], texts: [], calls: [], raw: {} };
  const counts: Record<string, number> = {};
  for (const item of parts) {
    const parsed = ResponsePart.safeParse(item);
    if (!parsed.success) continue;
    const part = parsed.data;
    const kind = part.kind;
    if (kind === undefined || kind === 'markdownContent') {
      const text = markdownText(part.content) ?? markdownText(part);
      if (text !== undefined) out.texts.push(text);
    } else if (kind === 'markdownVuln') {
      const text = markdownText(part.content);
      if (text !== undefined) out.texts.push(text);
    } else if (kind === 'inlineReference') {
      const path = uriPath(part.inlineReference);
      const name = part.name ?? path;
      if (name !== undefined) out.texts.push(`\`${name}\``);
    } else if (kind === 'thinking') {
      const value = part.value;
      const text = Array.isArray(value)
        ? value.filter((v) => typeof v === 'string').join('')
        : asString(value);
      if (text !== undefined && text !== '') out.thoughts.push(text);
    } else if (kind === 'toolInvocationSerialized' || kind === 'toolInvocation')
      out.calls.push(toolCall(part));
    else if (kind === 'textEditGroup' || kind === 'notebookEditGroup')
      out.calls.push(editCall(part, kind));
    else if (
      kind === 'warning' ||
      kind === 'confirmation' ||
      kind === 'elicitationSerialized' ||
      kind === 'questionCarousel'
    ) {
      const text =
        markdownText(part.content) ?? markdownText(part.message) ?? markdownText(part.title);
      if (text !== undefined) append(out.raw, kind === 'warning' ? 'warnings' : 'prompts', text);
    } else if (!SHOWN_ONLY.has(kind)) {
      // A part a later VS Code writes: its words kept when it has them, counted when not.
      const text = markdownText(part.value) ?? markdownText(part.content);
      if (text !== undefined) out.texts.push(text);
      else counts[kind] = (counts[kind] ?? 0) + 1;
    }
  }
  if (Object.keys(counts).length > 0) out.raw.unknown_parts = counts;
  return out;
}

function toolCall(part: ResponsePart): PartCall {
  const data = part.toolSpecificData ?? {};
  const kind = asString(data.kind);
  const details = asObject(part.resultDetails);
  const locations = asArray(part.resultDetails);
  const invocation = markdownText(part.invocationMessage);
  const input: JsonObject = {};
  if (invocation !== undefined) input.message = invocation;
  // The file a tool worked on, as its message links it (`Reading [](file:///…/a.py)`).
  const linked = Object.values(asObject(asObject(part.invocationMessage)?.uris) ?? {})
    .map(uriPath)
    .find((p) => p !== undefined);
  if (linked !== undefined) input.path = linked;
  let given: JsonObject | string | null = null;
  let output: string | null = null;
  if (kind === 'terminal') {
    const command = asString(asObject(data.commandLine)?.original) ?? asString(data.command);
    if (command !== undefined) input.command = command;
    output = asString(asObject(data.terminalCommandOutput)?.text) ?? null;
  } else if (kind === 'input') given = callInput(data.rawInput);
  else if (kind === 'subagent') {
    for (const key of ['agentName', 'description', 'prompt'])
      if (typeof data[key] === 'string') input[key] = data[key];
    output = asString(data.result) ?? null;
  }
  if (details) {
    if (given === null && details.input !== undefined) given = callInput(details.input);
    const texts = (asArray(details.output) ?? []).flatMap((o) => {
      const value = asObject(o);
      return asString(value?.value) !== undefined && value?.isText !== false
        ? [asString(value?.value) ?? '']
        : [];
    });
    if (texts.length > 0) output = texts.join('\n');
  } else if (locations) {
    const paths = locations.map(uriPath).filter((p): p is string => p !== undefined);
    if (paths.length > 0) output = paths.join('\n');
  }
  output ??= markdownText(part.pastTenseMessage) ?? null;
  const merged =
    given === null
      ? input
      : typeof given === 'string'
        ? { ...input, input: given }
        : { ...input, ...given };
  return {
    call: {
      id: part.toolCallId ?? null,
      name: part.toolId ?? 'tool',
      input: Object.keys(merged).length > 0 ? merged : null,
      output,
    },
    error: details?.isError === true,
    subAgent: part.subAgentInvocationId,
    subagent: kind === 'subagent' ? data : undefined,
  };
}

// An edit group: the model's edits to one file, kept as a call that changed it.
function editCall(part: ResponsePart, kind: string): PartCall {
  const path = uriPath(part.uri);
  const edits = (part.edits ?? []).flatMap((group) =>
    (asArray(group) ?? [group]).flatMap((edit) => {
      const text = asText(asObject(edit)?.text);
      return text !== undefined ? [text] : [];
    }),
  );
  return {
    call: {
      id: null,
      name: kind,
      input: path !== undefined ? { path } : null,
      output: edits.length > 0 ? edits.join('\n') : null,
    },
    error: false,
    subAgent: undefined,
    subagent: undefined,
  };
}

function append(raw: JsonObject, key: string, value: string): void {
  const list = asArray(raw[key]) ?? [];
  raw[key] = [...list, value];
}
