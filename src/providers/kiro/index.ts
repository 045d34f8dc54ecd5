import type { Provider } from '../provider.js';
import { isSqliteNamed, sqliteSession } from '../sqlite-session.js';
import { KIRO_STORE } from './store-query.js';
import { toKiroConversation } from './to-conversation.js';

/** Kiro CLI's conversations, kept in its `data.sqlite3`. */
export const kiro: Provider = {
  name: 'kiro',
  source: 'kiro',
  label: 'Kiro',
  product: 'Kiro CLI',
  howToExport:
    "nothing to export; chatgraph import --agents reads Kiro CLI's data.sqlite3 (~/.local/share/kiro-cli, ~/Library/Application Support/kiro-cli, %LOCALAPPDATA%\\kiro-cli), or give it that file; its login is never read",
  fileTools: { read: ['fs_read'], modify: ['fs_write'] },
  // Its SQLite store, sniffed by name (then claimed by its header and refused by its tables).
  fileNames: /(^|\/)data\.sqlite3$/i,
  agent: {
    writes: 'sqlite',
    locations: [
      { platforms: ['linux'], path: '$XDG_DATA_HOME/kiro-cli/data.sqlite3' },
      { platforms: ['darwin'], path: '~/Library/Application Support/kiro-cli/data.sqlite3' },
      { platforms: ['win32'], path: '%LOCALAPPDATA%/kiro-cli/data.sqlite3' },
    ],
  },
  detect(path, head) {
    if (!isSqliteNamed(path, head, ['data.sqlite3'])) return undefined;
    return {
      role: 'conversations',
      format: { kind: 'sqlite', store: KIRO_STORE },
      variant: 'data.sqlite3',
    };
  },
  toConversation(raw, _variant, context) {
    const record = sqliteSession(raw);
    return record ? toKiroConversation(record, context) : undefined;
  },
};
