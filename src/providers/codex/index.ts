import type { Provider } from '../provider.js';
import { detectCodex } from './detect.js';
import { toCodexConversation } from './to-conversation.js';

/** OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`). */
export const codex: Provider = {
  name: 'codex',
  source: 'codex',
  label: 'Codex',
  product: 'Codex CLI',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.codex/sessions and archived_sessions (or CODEX_HOME); or give a rollout-….jsonl or a folder of them',
  fileTools: { read: ['read_file', 'view_image'], modify: [], patch: ['apply_patch'] },
  agent: {
    writes: 'append',
    locations: [
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.codex/sessions',
        env: { name: 'CODEX_HOME', path: 'sessions' },
      },
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.codex/archived_sessions',
        env: { name: 'CODEX_HOME', path: 'archived_sessions' },
      },
    ],
  },
  detect: detectCodex,
  toConversation: toCodexConversation,
};
