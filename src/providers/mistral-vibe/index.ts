import { baseName } from '../../read/entry.js';
import type { Detection, Provider } from '../provider.js';
import { toVibeConversations } from './to-conversation.js';

// A session folder's name: `<prefix>_<YYYYmmdd>_<HHMMSS>_<first 8 of the id>`.
const SESSION_FOLDER = /^[\w-]+_\d{8}_\d{6}_[0-9a-f]{8}$/i;

/**
 * Claims Mistral Vibe sessions: a session folder by its `meta.json` (read with its
 * `messages.jsonl` and its sub-agents' folders), and a session file of the versions before 2.0.
 * A sub-agent's folder inside a session folder of the input is read with that session, not
 * alone (one given by itself is read alone).
 */
export function detectVibe(path: string, head: string): Detection | undefined {
  const parts = path.split('/');
  const name = baseName(path).toLowerCase();
  if (
    name === 'meta.json' &&
    /"session_id"\s*:/.test(head) &&
    /"(environment|start_time)"\s*:/.test(head)
  ) {
    const [session, agents] = [parts.at(-4), parts.at(-3)];
    if (
      agents === 'agents' &&
      session !== undefined &&
      SESSION_FOLDER.test(session) &&
      parts.at(-5) !== 'agents'
    )
      return undefined;
    return {
      role: 'conversations',
      format: {
        kind: 'file-set',
        main: 'json-file',
        with: ['messages.jsonl', 'agents/*/meta.json', 'agents/*/messages.jsonl'],
      },
      variant: 'session-folder',
    };
  }
  if (
    name.endsWith('.json') &&
    SESSION_FOLDER.test(name.replace(/\.json$/, '')) &&
    /"metadata"\s*:/.test(head) &&
    /"session_id"\s*:/.test(head)
  )
    return { role: 'conversations', format: { kind: 'json-file' }, variant: 'session-json' };
  return undefined;
}

/** Mistral Vibe CLI sessions (`~/.vibe/logs/session/`, or `$VIBE_HOME/logs/session/`). */
export const mistralVibe: Provider = {
  name: 'mistral-vibe',
  source: 'mistral-vibe',
  label: 'Mistral Vibe',
  product: 'Mistral Vibe',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.vibe/logs/session (or VIBE_HOME); or give a session folder or the session folder above them',
  fileTools: {
    read: ['read', 'read_file'],
    modify: ['edit', 'write_file', 'search_replace'],
  },
  agent: {
    writes: 'append',
    locations: [
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.vibe/logs/session',
        env: { name: 'VIBE_HOME', path: 'logs/session' },
      },
    ],
  },
  detect: detectVibe,
  toConversation: toVibeConversations,
};
