import { baseName } from '../../read/entry.js';
import type { Detection, Provider } from '../provider.js';
import { extensionStorage } from '../vscode-storage.js';
import { toAmpConversation } from './to-conversation.js';

// A thread's id: `T-` and a UUID.
const THREAD_ID = /^T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Claims Amp threads: a JSON object named by its thread id (`T-<uuid>.json`), or one whose
 * `id` is a thread id, holding Amp's thread keys (`messages`, `created`, `v`).
 */
export function detectAmp(path: string, head: string, where?: string): Detection | undefined {
  const name = baseName(path);
  if (!name.toLowerCase().endsWith('.json') || !/^\s*\{/.test(head)) return undefined;
  const named = THREAD_ID.test(name.replace(/\.json$/i, ''));
  const idInHead = /"id"\s*:\s*"T-[0-9a-f]{8}-[0-9a-f-]{27}"/i.test(head);
  if (!named && !idInHead) return undefined;
  if (!/"(messages|created|v)"\s*:/.test(head)) return undefined;
  const place = `${where ?? ''}/${path}`.replace(/\\/g, '/');
  return {
    role: 'conversations',
    format: { kind: 'json-file' },
    // The VS Code extension's own store, before the threads moved to ~/.local/share/amp.
    variant: place.includes('/threads3/') ? 'thread-vscode' : 'thread',
  };
}

/** Amp (ampcode.com), its CLI and editor extensions. */
export const amp: Provider = {
  name: 'amp',
  source: 'amp',
  label: 'Amp',
  product: 'Amp',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.local/share/amp/threads (or $XDG_DATA_HOME/amp/threads) and the VS Code extension’s older globalStorage/sourcegraph.amp/threads3; or give a thread file (T-….json) or a folder of them',
  fileTools: {
    read: ['Read', 'read_file'],
    modify: ['edit_file', 'create_file', 'undo_edit', 'format_file'],
  },
  agent: {
    writes: 'rewrite',
    locations: [
      { platforms: ['linux', 'darwin'], path: '$XDG_DATA_HOME/amp/threads' },
      { platforms: ['win32'], path: '~/.local/share/amp/threads' },
      ...extensionStorage('sourcegraph.amp', 'threads3'),
    ],
  },
  detect: detectAmp,
  toConversation: toAmpConversation,
};
