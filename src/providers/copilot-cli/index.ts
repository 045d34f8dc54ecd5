import { baseName } from '../../read/entry.js';
import type { Detection, Provider } from '../provider.js';
import { asObject } from '../untrusted.js';
import { eventsConversations } from './events.js';
import { historyConversation } from './history.js';

const EVENT_TYPE =
  /"type"\s*:\s*"(session\.start|session\.resume|user\.message|assistant\.message|system\.message)"/;

/**
 * Claims Copilot CLI sessions: a session folder's `events.jsonl` (read with its
 * `workspace.yaml`), an earlier flat `<session>.jsonl` of the same events, and the first CLI's
 * `history-session-state` JSON dumps.
 */
export function detectCopilotCli(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  const events = EVENT_TYPE.test(head) && /"data"\s*:\s*\{/.test(head);
  if (name === 'events.jsonl' && events)
    return {
      role: 'conversations',
      format: { kind: 'file-set', main: 'jsonl-file', with: ['workspace.yaml'] },
      variant: 'events-folder',
    };
  if (name.endsWith('.jsonl') && events)
    return { role: 'conversations', format: { kind: 'jsonl-file' }, variant: 'events' };
  if (name.endsWith('.json') && /"chatMessages"\s*:/.test(head) && /"sessionId"\s*:/.test(head))
    return { role: 'conversations', format: { kind: 'json-file' }, variant: 'history' };
  return undefined;
}

/** GitHub Copilot CLI (`~/.copilot/session-state/`); `copilot` is Microsoft Copilot's export. */
export const copilotCli: Provider = {
  name: 'copilot-cli',
  source: 'copilot-cli',
  label: 'Copilot CLI',
  product: 'GitHub Copilot CLI',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.copilot/session-state and history-session-state (or COPILOT_HOME); or give a session folder, its events.jsonl or the session-state folder',
  fileTools: {
    read: ['view', 'read_file', 'str_replace_editor:view'],
    modify: [
      'create',
      'edit',
      'str_replace',
      'write_file',
      'str_replace_editor:create',
      'str_replace_editor:str_replace',
      'str_replace_editor:insert',
    ],
  },
  agent: {
    writes: 'append',
    locations: [
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.copilot/session-state',
        env: { name: 'COPILOT_HOME', path: 'session-state' },
      },
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.copilot/history-session-state',
        env: { name: 'COPILOT_HOME', path: 'history-session-state' },
      },
    ],
  },
  detect: detectCopilotCli,
  toConversation(raw, variant, context) {
    if (variant === 'history') return historyConversation(raw, context);
    if (variant === 'events-folder') {
      const set = asObject(raw) ?? {};
      const side: Record<string, string> = {};
      for (const [key, value] of Object.entries(asObject(set.side) ?? {}))
        if (typeof value === 'string') side[key] = value;
      return eventsConversations(set.main, side, context);
    }
    return eventsConversations(raw, {}, context);
  },
};
