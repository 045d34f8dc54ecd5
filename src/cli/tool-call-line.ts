import type { MessageView } from '../api/view.js';
import { graphemes } from './graphemes.js';

/** A tool call as a conversation view holds it. */
export type ToolCallView = MessageView['toolCalls'][number];

// The argument that says what a call did, by the names coding agents give them (Claude Code's
// Bash `command`, Read/Write/Edit `file_path`, Grep/Glob `pattern`, WebFetch `url`, WebSearch
// `query`, Task `description`), in this order of preference.
const TELLING = [
  'command',
  'file_path',
  'notebook_path',
  'path',
  'pattern',
  'url',
  'query',
  'description',
  'prompt',
  'code',
];

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function parsed(input: string): Record<string, unknown> | undefined {
  if (!/^\s*\{/.test(input)) return undefined;
  try {
    const value: unknown = JSON.parse(input);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value))
      : undefined;
  } catch {
    // Not JSON after all (a browser call's `search("…")`): said as it is written.
    return undefined;
  }
}

/** What a call was given, in a few words: its telling argument, else its input's first words. */
function inputGist(call: ToolCallView): string {
  if (call.input === null || call.input.trim() === '')
    return call.inputAbove ? '(the text above)' : '';
  const args = parsed(call.input);
  if (!args) return oneLine(call.input);
  const key = TELLING.find((name) => typeof args[name] === 'string' && args[name] !== '');
  const found =
    key !== undefined ? args[key] : Object.values(args).find((v) => typeof v === 'string');
  if (typeof found === 'string') return oneLine(found);
  const names = Object.keys(args);
  return names.length > 0 ? `{${names.join(', ')}}` : '';
}

/** What a call gave back, in a few words: one line as it is, else its last line and how many. */
function outputGist(call: ToolCallView): string {
  if (call.output === null || call.output.trim() === '') return '';
  const lines = call.output.split('\n').filter((line) => line.trim() !== '');
  if (call.isError) return `failed: ${oneLine(lines[0] ?? '')}`;
  if (lines.length === 1) return oneLine(lines[0] ?? '');
  return `${String(lines.length)} lines, ending: ${oneLine(lines.at(-1) ?? '')}`;
}

function cut(text: string, width: number): string {
  const chars = graphemes(text);
  return chars.length <= width ? text : `${chars.slice(0, Math.max(1, width - 1)).join('')}…`;
}

/**
 * A tool call in one line of at most `width` characters: `⚙ Bash: npm test → 5 passed`. The
 * input's telling argument first (the command, the file, the pattern), then what came back.
 */
export function toolCallLine(call: ToolCallView, indent: string, width: number): string {
  const input = inputGist(call);
  const output = outputGist(call);
  const text = `⚙ ${call.name}${input !== '' ? `: ${input}` : ''}${output !== '' ? ` → ${output}` : ''}`;
  return `${indent}${cut(text, Math.max(20, width - indent.length))}`;
}

/**
 * A tool call whole (`thread --tools`): each argument of its input on its own line (a text of
 * several lines below its name, as written, not as a JSON string), then its output, indented.
 */
export function toolCallLines(call: ToolCallView, indent: string): string[] {
  const lines = [`${indent}⚙ ${call.name}${call.isError ? ' (failed)' : ''}`];
  const label = `${indent}  `;
  const inner = `${indent}    `;
  const block = (text: string): string[] =>
    text
      .replace(/\n+$/, '')
      .split('\n')
      .map((line) => `${inner}${line}`.trimEnd());
  const args = call.input !== null ? parsed(call.input) : undefined;
  if (args)
    for (const [name, value] of Object.entries(args)) {
      if (typeof value === 'string' && value.includes('\n'))
        lines.push(`${label}${name}:`, ...block(value));
      else
        lines.push(`${label}${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    }
  else if (call.input !== null && call.input.trim() !== '')
    lines.push(`${label}input:`, ...block(call.input));
  else if (call.inputAbove) lines.push(`${label}input: the text above`);
  if (call.output !== null && call.output.trim() !== '')
    lines.push(`${label}${call.isError ? 'error' : 'output'}:`, ...block(call.output));
  return lines;
}
