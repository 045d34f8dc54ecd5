import type { Detection, Provider } from '../provider.js';
import { baseName } from '../../read/entry.js';
import { PROJECT_ROOT_FILES, toGeminiCliConversation } from './to-conversation.js';

/**
 * Claims Gemini CLI chat files: `session-….jsonl` and the older `session-….json` under a
 * `chats/` folder, and a sub-agent's `chats/<parent>/<id>.jsonl`, by their metadata
 * (`sessionId` and `projectHash`). Qwen Code's first files, of the same shape, are Qwen's.
 */
export function detectGeminiCli(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (!/"sessionId"\s*:/.test(head) || !/"projectHash"\s*:/.test(head)) return undefined;
  if (/"type"\s*:\s*"qwen"/.test(head)) return undefined;
  const chats = /(^|\/)chats\//.test(path) || name.startsWith('session-');
  if (!chats) return undefined;
  const main = name.endsWith('.json')
    ? 'json-file'
    : name.endsWith('.jsonl')
      ? 'jsonl-file'
      : undefined;
  if (main === undefined) return undefined;
  return {
    role: 'conversations',
    format: { kind: 'file-set', main, with: PROJECT_ROOT_FILES },
    variant: main === 'json-file' ? 'session-json' : 'session-jsonl',
  };
}

/** Gemini CLI chats (`~/.gemini/tmp/<project>/chats/`). */
export const geminiCli: Provider = {
  name: 'gemini-cli',
  source: 'gemini-cli',
  label: 'Gemini CLI',
  product: 'Gemini CLI',
  howToExport:
    "nothing to export; chatgraph import --agents reads ~/.gemini/tmp (or GEMINI_CLI_HOME); or give a project's chats/ folder or one session file",
  fileTools: {
    read: ['read_file', 'read_many_files', 'glob', 'search_file_content', 'list_directory'],
    modify: ['write_file', 'replace', 'edit'],
    pathKeys: ['absolute_path'],
  },
  agent: {
    writes: 'append',
    locations: [
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.gemini/tmp',
        env: { name: 'GEMINI_CLI_HOME', path: '.gemini/tmp' },
      },
    ],
  },
  detect: detectGeminiCli,
  toConversation: toGeminiCliConversation,
};
