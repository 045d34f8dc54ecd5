import { baseName } from '../../read/entry.js';
import type { Detection, Provider } from '../provider.js';
import { INPUT_HISTORY, toAiderConversations } from './to-conversation.js';

const HISTORY = '.aider.chat.history.md';

/** Claims Aider's chat history, by its name and its first run's header. */
export function detectAider(path: string, head: string): Detection | undefined {
  if (baseName(path) !== HISTORY) return undefined;
  if (!/^#{1,4} |^> /m.test(head)) return undefined;
  return {
    role: 'conversations',
    format: { kind: 'file-set', main: 'text-file', with: [INPUT_HISTORY] },
    variant: 'chat-history',
  };
}

/** Aider's chat history (`.aider.chat.history.md` in each repository it worked on). */
export const aider: Provider = {
  name: 'aider',
  source: 'aider',
  label: 'Aider',
  product: 'Aider',
  howToExport:
    'nothing to export; chatgraph import --agents finds .aider.chat.history.md in the folders other agents worked in and a few folders below your home; or give the file (its .aider.input.history beside it gives the times)',
  fileNames: /(^|\/)\.aider\.chat\.history\.md$/,
  agent: {
    writes: 'append',
    locations: [],
    beside: { file: HISTORY, homeDepth: 3 },
  },
  detect: detectAider,
  toConversation: toAiderConversations,
};
