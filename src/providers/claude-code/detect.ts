import type { Detection } from '../provider.js';
import { baseName } from '../../read/entry.js';

/** Claims Claude Code session logs: JSON Lines whose entries carry a `sessionId`. */
export function detectClaudeCode(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (!name.endsWith('.jsonl') || name === 'history.jsonl') return undefined;
  if (!/"sessionId"\s*:/.test(head) && !/"type"\s*:\s*"summary"/.test(head)) return undefined;
  if (!/"type"\s*:\s*"(user|assistant|system|summary)"/.test(head)) return undefined;
  const subagent = /(^|\/)subagents\/agent-[^/]*\.jsonl$/.test(path) || /^agent-/.test(name);
  return {
    role: 'conversations',
    format: { kind: 'jsonl-file' },
    variant: subagent ? 'subagent' : 'session',
  };
}
