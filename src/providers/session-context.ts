import type { JsonObject } from '../model/pam.js';

/**
 * Turns a coding agent writes into the session itself, in the person's or the model's place:
 * instructions files, the environment, skills and plugins. Each is kept as a message of its
 * own, its text searchable, but marked as the session's context (hidden, off the thread), not
 * as words a person typed.
 */
const CONTEXT_TURNS: readonly (readonly [kind: string, pattern: RegExp])[] = [
  // Codex: the project's AGENTS.md, and the user's instructions, put before the first prompt.
  ['agents-md', /^\s*#\s*AGENTS\.md instructions for /],
  ['instructions', /^\s*<(user_instructions|INSTRUCTIONS|developer_instructions)>/],
  // Codex: the working folder, shell, sandbox and date, repeated at each turn.
  ['environment-context', /^\s*<environment_context>/],
  // Cline, Roo Code, Kilo Code: the open files, the terminal and the folder listing.
  ['environment-details', /^\s*<environment_details>/],
  // Skills and plugins a session loaded (Codex, Claude Code, Gemini CLI).
  ['skill', /^\s*<(skill|skills|skill_instructions|skill_content)\b/],
  ['plugin', /^\s*<(plugin|plugins|plugin_instructions)\b/],
  ['permissions', /^\s*<permissions instructions>/],
  // Codex: a turn the person stopped, noted for the model.
  ['turn-aborted', /^\s*<turn_aborted>/],
  // Gemini CLI and Qwen Code: the session's context and hooks' output.
  ['session-context', /^\s*<(session_context|hook_context)>/],
  // Claude Code's reminders, when another agent replays them.
  ['system-reminder', /^\s*<system-reminder>/],
];

/** The kind of context a turn's text is (`agents-md`, `environment-context`…), or undefined. */
export function contextKindOf(text: string): string | undefined {
  return CONTEXT_TURNS.find(([, pattern]) => pattern.test(text))?.[0];
}

/** Marks a message's `raw_metadata` as the session's context of this kind: hidden, not typed. */
export function markContext(raw: JsonObject, kind: string): JsonObject {
  raw.hidden = true;
  raw.context = kind;
  return raw;
}
