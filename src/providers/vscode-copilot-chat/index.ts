import { baseName } from '../../read/entry.js';
import type { Detection, Provider } from '../provider.js';
import { editorStorage } from '../vscode-storage.js';
import { toVsCodeConversations } from './to-conversation.js';

// The session's own keys, written before its requests (VS Code writes primitives first).
const SESSION_KEYS = /"(sessionId|creationDate|responderUsername|requesterUsername)"\s*:/;

/**
 * Claims VS Code chat sessions: `chatSessions/<id>.json` (the whole session) and, since 2026,
 * `<id>.jsonl` (its operation log), each read with the workspace's `workspace.json` above it.
 */
export function detectVsCodeChat(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (name === 'workspace.json') return undefined;
  const sides = ['../workspace.json'];
  if (
    name.endsWith('.jsonl') &&
    /^\s*\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{/.test(head) &&
    SESSION_KEYS.test(head)
  )
    return {
      role: 'conversations',
      format: { kind: 'file-set', main: 'jsonl-file', with: sides },
      variant: 'session-jsonl',
    };
  if (
    name.endsWith('.json') &&
    /^\s*\{/.test(head) &&
    /"requests"\s*:\s*\[/.test(head) &&
    SESSION_KEYS.test(head) &&
    /"version"\s*:\s*\d/.test(head)
  )
    return {
      role: 'conversations',
      format: { kind: 'file-set', main: 'json-file', with: sides },
      variant: 'session-json',
    };
  return undefined;
}

/** VS Code's chat (GitHub Copilot Chat) sessions, kept per workspace in each editor of the family. */
export const vscodeCopilotChat: Provider = {
  name: 'vscode-copilot-chat',
  source: 'vscode-copilot-chat',
  label: 'VS Code Copilot Chat',
  product: 'VS Code Copilot Chat',
  howToExport:
    'nothing to export; chatgraph import --agents reads the chatSessions of every workspace in VS Code’s (and Insiders’, VSCodium’s, Cursor’s…) workspaceStorage and emptyWindowChatSessions; or give a workspace’s folder, its chatSessions folder or one session file',
  fileTools: {
    read: [
      'copilot_readFile',
      'read_file',
      'copilot_getNotebookSummary',
      'copilot_readNotebookCellOutput',
    ],
    modify: [
      'copilot_createFile',
      'copilot_replaceString',
      'copilot_multiReplaceString',
      'copilot_insertEdit',
      'copilot_applyPatch',
      'copilot_editNotebook',
      'vscode_editFile_internal',
      'create_file',
      'replace_string_in_file',
      'insert_edit_into_file',
      'textEditGroup',
      'notebookEditGroup',
    ],
  },
  agent: {
    writes: 'rewrite',
    locations: [
      ...editorStorage('User/workspaceStorage'),
      ...editorStorage('User/globalStorage/emptyWindowChatSessions'),
    ],
  },
  detect: detectVsCodeChat,
  toConversation: toVsCodeConversations,
};
