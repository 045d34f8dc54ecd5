import type { Detection } from '../provider.js';
import { baseName } from '../../read/entry.js';

const ROLLOUT_LINE =
  /"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context|message|function_call|reasoning)"|"record_type"\s*:|^\s*\{\s*"id"\s*:/m;

/**
 * Claims Codex CLI rollouts: `rollout-….jsonl` (every generation of its lines), the first
 * CLI's `rollout-….json` (`{session, items}`), and a renamed rollout by its `session_meta`.
 */
export function detectCodex(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  const rollout = name.startsWith('rollout-');
  if (rollout && name.endsWith('.jsonl') && ROLLOUT_LINE.test(head))
    return { role: 'conversations', format: { kind: 'jsonl-file' }, variant: 'rollout' };
  if (rollout && name.endsWith('.json') && /"session"\s*:/.test(head) && /"items"\s*:/.test(head))
    return { role: 'conversations', format: { kind: 'json-file' }, variant: 'rollout-json' };
  if (
    name.endsWith('.jsonl') &&
    /"type"\s*:\s*"session_meta"/.test(head) &&
    /"payload"\s*:/.test(head) &&
    /"(cli_version|originator)"\s*:/.test(head)
  )
    return { role: 'conversations', format: { kind: 'jsonl-file' }, variant: 'rollout' };
  return undefined;
}
