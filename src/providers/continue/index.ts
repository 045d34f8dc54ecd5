import { baseName } from '../../read/entry.js';
import type { Detection, Provider } from '../provider.js';
import { toContinueConversation } from './to-conversation.js';

/**
 * Claims Continue's sessions: a `<sessionId>.json` holding a `history` list of chat items
 * (read with `sessions.json` beside it, the list of sessions with their creation times).
 * `sessions.json` itself is not a session.
 */
export function detectContinue(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (!name.endsWith('.json') || name === 'sessions.json' || !/^\s*\{/.test(head)) return undefined;
  if (!/"history"\s*:\s*\[/.test(head)) return undefined;
  // Continue writes the session's keys or its first item's (`message`, `contextItems`).
  if (!/"(sessionId|workspaceDirectory)"\s*:/.test(head) && !/"contextItems"\s*:/.test(head))
    return undefined;
  return {
    role: 'conversations',
    format: { kind: 'file-set', main: 'json-file', with: ['sessions.json'] },
    variant: 'session',
  };
}

/** Continue (continue.dev), its VS Code and JetBrains extensions and its CLI. */
export const continueDev: Provider = {
  name: 'continue',
  source: 'continue',
  label: 'Continue',
  product: 'Continue',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.continue/sessions (or CONTINUE_GLOBAL_DIR); or give that folder or one session file',
  fileTools: {
    read: ['read_file', 'read_currently_open_file'],
    modify: ['edit_existing_file', 'create_new_file', 'single_find_and_replace', 'multi_edit'],
    pathKeys: ['filepath'],
  },
  agent: {
    writes: 'rewrite',
    locations: [
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.continue/sessions',
        env: { name: 'CONTINUE_GLOBAL_DIR', path: 'sessions' },
      },
    ],
  },
  detect: detectContinue,
  toConversation: toContinueConversation,
};
