import type { JsonObject } from '../../model/pam.js';

/**
 * The tools Cline, Roo Code and Kilo Code call by writing XML in their reply (before native
 * tool calling, and still with models without it): `<read_file><path>…</path></read_file>`.
 */
export const XML_TOOLS: readonly string[] = [
  'execute_command',
  'read_file',
  'simple_read_file',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'multi_apply_diff',
  'insert_content',
  'search_and_replace',
  'edit_file',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'codebase_search',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'load_mcp_documentation',
  'ask_followup_question',
  'attempt_completion',
  'plan_mode_respond',
  'act_mode_respond',
  'new_task',
  'switch_mode',
  'fetch_instructions',
  'update_todo_list',
  'web_fetch',
  'condense',
  'summarize_task',
  'report_bug',
  'new_rule',
  'run_slash_command',
  'generate_image',
  'use_skill',
];

const TOOL = new RegExp(`<(${XML_TOOLS.join('|')})>([\\s\\S]*?)(?:</\\1>|$)`, 'g');
const PARAM = /<([a-z_]+)>([\s\S]*?)<\/\1>/g;
const THINKING = /<thinking>([\s\S]*?)(?:<\/thinking>|$)/g;

/** A reply's text with its XML tool calls and `<thinking>` taken out. */
export interface XmlReply {
  text: string;
  thoughts: string[];
  calls: { name: string; input: JsonObject }[];
}

/**
 * Reads an assistant reply written with XML tools: each tool element a call (its child
 * elements the input: `<path>` gives `path`; nested ones, Roo Code's `<args><file><path>`,
 * are kept as their text, and the first `<path>` inside names the file), `<thinking>` the
 * model's thinking, and the rest the reply's text. A call cut off by the reply's end (a
 * stream stopped) is read as far as it goes.
 */
export function readXmlReply(text: string): XmlReply {
  const thoughts: string[] = [];
  const calls: XmlReply['calls'] = [];
  let rest = text.replace(THINKING, (_all, inner: string) => {
    const thought = inner.trim();
    if (thought !== '') thoughts.push(thought);
    return '';
  });
  rest = rest.replace(TOOL, (_all, name: string, inner: string) => {
    calls.push({ name, input: paramsOf(inner) });
    return '';
  });
  return { text: rest.replace(/\n{3,}/g, '\n\n').trim(), thoughts, calls };
}

function paramsOf(inner: string): JsonObject {
  const input: JsonObject = {};
  for (const match of inner.matchAll(PARAM)) {
    const [, key = '', value = ''] = match;
    if (!(key in input)) input[key] = value.replace(/^\n/, '').replace(/\n$/, '');
  }
  const nestedPath = /<path>([^<]+)<\/path>/.exec(inner)?.[1];
  if (typeof input.path !== 'string' && nestedPath !== undefined) input.path = nestedPath.trim();
  return input;
}

/** What a text block of a user turn is. */
export type UserBlock =
  | { kind: 'words'; text: string }
  | { kind: 'result'; tool: string; text: string }
  | { kind: 'context'; context: string; text: string };

const RESULT = /^\[([a-z_]+)(?: for [^\]]*)?\] Result:\s*/;
const WRAPPED = /^\s*<(task|feedback|answer|user_message)>\n?([\s\S]*?)\n?<\/\1>\s*$/;
const CONTEXT: readonly (readonly [string, RegExp])[] = [
  ['environment-details', /^\s*<environment_details>/],
  ['task-resumption', /^\s*\[TASK RESUMPTION\]/],
  ['tool-reminder', /^\s*\[ERROR\] You did not use a tool/],
  ['explicit-instructions', /^\s*<explicit_instructions\b/],
];

/**
 * Sorts the text blocks of a user turn: a tool's result (`[read_file for 'a.ts'] Result:`,
 * with the blocks after it up to the next), the app's context (`<environment_details>`, a
 * task resumed, a reminder to use a tool), or the person's words (`<task>`, `<feedback>`,
 * `<answer>` unwrapped).
 */
export function sortUserBlocks(texts: readonly string[]): UserBlock[] {
  const out: UserBlock[] = [];
  for (const text of texts) {
    const result = RESULT.exec(text);
    if (result) {
      out.push({ kind: 'result', tool: result[1] ?? '', text: text.slice(result[0].length) });
      continue;
    }
    const context = CONTEXT.find(([, pattern]) => pattern.test(text))?.[0];
    if (context !== undefined) {
      out.push({ kind: 'context', context, text });
      continue;
    }
    const last = out.at(-1);
    // The blocks after a result's header are its content, up to the next header or context.
    if (last?.kind === 'result' && !WRAPPED.test(text)) {
      last.text = last.text === '' ? text : `${last.text}\n${text}`;
      continue;
    }
    const wrapped = WRAPPED.exec(text);
    out.push({ kind: 'words', text: wrapped ? (wrapped[2] ?? '') : text });
  }
  return out;
}

/** The working folder Cline's or Roo Code's environment details name. */
export function cwdOfDetails(text: string): string | undefined {
  return /# Current (?:Working|Workspace) Directory \(([^)]+)\)/.exec(text)?.[1]?.trim();
}
