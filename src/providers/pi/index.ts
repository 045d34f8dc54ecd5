import { baseName } from '../../read/entry.js';
import type { Detection, Provider } from '../provider.js';
import { toPiConversation } from './to-conversation.js';

/**
 * Claims pi sessions (and oh-my-pi's, told apart by where they are kept): a `.jsonl` whose
 * first line is the `session` header (after oh-my-pi's `title` line, when it has one).
 */
export function detectPi(path: string, head: string, where?: string): Detection | undefined {
  if (!baseName(path).toLowerCase().endsWith('.jsonl')) return undefined;
  const lines = head.split('\n', 3);
  const first = /^\s*\{\s*"type"\s*:\s*"title"/.test(lines[0] ?? '') ? lines[1] : lines[0];
  if (
    first === undefined ||
    !/^\s*\{\s*"type"\s*:\s*"session"\s*[,}]/.test(first) ||
    !/"(cwd|id|timestamp)"\s*:/.test(first)
  )
    return undefined;
  const place = `${where ?? ''}/${path}`.replace(/\\/g, '/');
  return {
    role: 'conversations',
    format: { kind: 'jsonl-file' },
    variant: place.includes('/.omp/') ? 'oh-my-pi' : 'pi',
  };
}

/** The pi coding agent (`~/.pi/agent/sessions/`) and oh-my-pi (`~/.omp/agent/sessions/`). */
export const pi: Provider = {
  name: 'pi',
  source: 'pi',
  label: 'pi',
  product: 'pi coding agent',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.pi/agent/sessions (or PI_CODING_AGENT_DIR) and oh-my-pi’s ~/.omp/agent/sessions (or OMP_CODING_AGENT_DIR); or give a session file or a folder of them',
  fileTools: { read: ['read'], modify: ['edit', 'write'] },
  agent: {
    writes: 'append',
    locations: [
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.pi/agent/sessions',
        env: { name: 'PI_CODING_AGENT_DIR', path: 'sessions' },
      },
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.omp/agent/sessions',
        env: { name: 'OMP_CODING_AGENT_DIR', path: 'sessions' },
      },
    ],
  },
  detect: detectPi,
  toConversation: toPiConversation,
};
