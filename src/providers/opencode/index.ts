import type { Provider } from '../provider.js';
import { isSqliteNamed, sqliteSession } from '../sqlite-session.js';
import { sessionFromSqlite } from './from-sqlite.js';
import { STORAGE_SIDES, isStorageSession, sessionFromStorage } from './from-storage.js';
import { asObject } from '../untrusted.js';
import { OPENCODE_STORE } from './store-query.js';
import { toOpenCodeConversation } from './to-conversation.js';

/** OpenCode's sessions: `opencode.db` under `$XDG_DATA_HOME/opencode`, and its older JSON storage. */
export const opencode: Provider = {
  name: 'opencode',
  source: 'opencode',
  label: 'OpenCode',
  product: 'OpenCode',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.local/share/opencode/opencode.db (or $XDG_DATA_HOME/opencode), or give it that file',
  fileTools: { read: ['read'], modify: ['edit', 'write', 'multiedit'] },
  // Its SQLite store, sniffed by name (then claimed by its header and refused by its tables).
  fileNames: /(^|\/)opencode\.db$/i,
  agent: {
    writes: 'sqlite',
    locations: [
      {
        platforms: ['linux', 'darwin'],
        path: '$XDG_DATA_HOME/opencode/opencode.db',
      },
      // OpenCode resolves its folders with xdg-basedir on every platform, Windows too.
      { platforms: ['win32'], path: '%USERPROFILE%/.local/share/opencode/opencode.db' },
      // Its JSON storage, before opencode.db (one file a session, message and part).
      { platforms: ['linux', 'darwin'], path: '$XDG_DATA_HOME/opencode/storage' },
      { platforms: ['win32'], path: '%USERPROFILE%/.local/share/opencode/storage' },
    ],
  },
  detect(path, head) {
    if (isSqliteNamed(path, head, ['opencode.db']))
      return {
        role: 'conversations',
        format: { kind: 'sqlite', store: OPENCODE_STORE },
        variant: 'sqlite',
      };
    if (isStorageSession(path, head))
      return {
        role: 'conversations',
        format: { kind: 'file-set', main: 'json-file', with: STORAGE_SIDES },
        variant: 'storage',
      };
    return undefined;
  },
  toConversation(raw, variant, context) {
    if (variant === 'storage') {
      const value = asObject(raw);
      const main = asObject(value?.main);
      if (!main) return undefined;
      const side: Record<string, string> = {};
      for (const [name, text] of Object.entries(asObject(value?.side) ?? {}))
        if (typeof text === 'string') side[name] = text;
      return toOpenCodeConversation(sessionFromStorage(main, side, context), variant, context);
    }
    const record = sqliteSession(raw);
    if (!record) return undefined;
    return toOpenCodeConversation(sessionFromSqlite(record), variant, context);
  },
};
