import type { Detection, Provider } from '../provider.js';
import { baseName } from '../../read/entry.js';
import { toQwenConversation } from './to-conversation.js';

/**
 * Claims Qwen Code sessions: JSON Lines records with `uuid`/`parentUuid` links and Gemini API
 * `parts` (Claude Code's carry `content` and `userType`), and the first versions' Gemini
 * CLI-shaped `session-….json` whose model messages are of type `qwen`.
 */
export function detectQwen(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (
    name.endsWith('.jsonl') &&
    /"sessionId"\s*:/.test(head) &&
    /"parentUuid"\s*:/.test(head) &&
    !/"userType"\s*:/.test(head) &&
    (/"parts"\s*:\s*\[/.test(head) || /"systemPayload"\s*:/.test(head))
  )
    return { role: 'conversations', format: { kind: 'jsonl-file' }, variant: 'session-jsonl' };
  if (
    name.endsWith('.json') &&
    /"sessionId"\s*:/.test(head) &&
    /"projectHash"\s*:/.test(head) &&
    /"type"\s*:\s*"qwen"/.test(head)
  )
    return { role: 'conversations', format: { kind: 'json-file' }, variant: 'session-json' };
  return undefined;
}

/** Qwen Code sessions (`~/.qwen/projects/<project>/chats/`, first versions `~/.qwen/tmp/`). */
export const qwenCode: Provider = {
  name: 'qwen-code',
  source: 'qwen-code',
  label: 'Qwen Code',
  product: 'Qwen Code',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.qwen/projects and ~/.qwen/tmp (or QWEN_HOME, QWEN_RUNTIME_DIR); or give a chats/ folder or one session file',
  fileTools: {
    read: ['read_file', 'read_many_files', 'glob', 'grep_search', 'list_directory'],
    modify: ['write_file', 'edit', 'replace'],
    pathKeys: ['absolute_path'],
  },
  agent: {
    writes: 'append',
    locations: [
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.qwen/projects',
        env: { name: 'QWEN_HOME', path: 'projects' },
      },
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.qwen/projects',
        env: { name: 'QWEN_RUNTIME_DIR', path: 'projects' },
      },
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.qwen/tmp',
        env: { name: 'QWEN_HOME', path: 'tmp' },
      },
    ],
  },
  detect: detectQwen,
  toConversation: toQwenConversation,
};
