import type { Provider } from '../provider.js';
import { isSqliteNamed, sqliteSession } from '../sqlite-session.js';
import { CURSOR_STORE } from './store-query.js';
import { toCursorConversations } from './to-conversation.js';
import { isAgentTranscript, toTranscriptConversation } from './agent-transcript.js';

/** Cursor's chats and agent sessions, kept in its `state.vscdb` stores. */
export const cursor: Provider = {
  name: 'cursor',
  source: 'cursor',
  label: 'Cursor',
  product: 'Cursor',
  howToExport:
    "nothing to export; chatgraph import --agents reads Cursor's User/globalStorage/state.vscdb and workspaceStorage (~/.config/Cursor, ~/Library/Application Support/Cursor, %APPDATA%\\Cursor), or give it a state.vscdb; only its chats are read, never its login tokens",
  fileTools: {
    read: ['read_file', 'read_file_v2'],
    modify: ['edit_file', 'edit_file_v2', 'search_replace', 'write', 'delete_file', 'apply_patch'],
  },
  // Its SQLite store, sniffed by name (then claimed by its header and refused by its tables).
  fileNames: /(^|\/)state\.vscdb$/i,
  agent: {
    writes: 'sqlite',
    locations: [
      { platforms: ['linux'], path: '$XDG_CONFIG_HOME/Cursor/User/globalStorage/state.vscdb' },
      { platforms: ['linux'], path: '$XDG_CONFIG_HOME/Cursor/User/workspaceStorage' },
      {
        platforms: ['darwin'],
        path: '~/Library/Application Support/Cursor/User/globalStorage/state.vscdb',
      },
      { platforms: ['darwin'], path: '~/Library/Application Support/Cursor/User/workspaceStorage' },
      { platforms: ['win32'], path: '%APPDATA%/Cursor/User/globalStorage/state.vscdb' },
      { platforms: ['win32'], path: '%APPDATA%/Cursor/User/workspaceStorage' },
      // The agent's transcripts, written as files beside the stores.
      { platforms: ['linux', 'darwin'], path: '~/.cursor/projects' },
      { platforms: ['win32'], path: '%USERPROFILE%/.cursor/projects' },
    ],
  },
  detect(path, head) {
    if (isAgentTranscript(path, head))
      return { role: 'conversations', format: { kind: 'jsonl-file' }, variant: 'agent-transcript' };
    if (!isSqliteNamed(path, head, ['state.vscdb'])) return undefined;
    return {
      role: 'conversations',
      format: { kind: 'sqlite', store: CURSOR_STORE },
      variant: 'state.vscdb',
    };
  },
  toConversation(raw, variant, context) {
    if (variant === 'agent-transcript') return toTranscriptConversation(raw, context);
    const record = sqliteSession(raw);
    return record ? toCursorConversations(record, context) : undefined;
  },
};
