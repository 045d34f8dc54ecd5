import type { Provider } from '../provider.js';
import { isSqliteNamed, sqliteSession } from '../sqlite-session.js';
import { ZED_STORE } from './store-query.js';
import { toZedConversation } from './to-conversation.js';

/** Zed's agent threads: `threads/threads.db` in Zed's data folder. */
export const zed: Provider = {
  name: 'zed',
  source: 'zed',
  label: 'Zed',
  product: 'Zed',
  howToExport:
    "nothing to export; chatgraph import --agents reads Zed's threads/threads.db (~/.local/share/zed, ~/Library/Application Support/Zed, %LOCALAPPDATA%\\Zed), or give it that file",
  fileTools: {
    read: ['read_file'],
    modify: ['edit_file', 'streaming_edit_file', 'write_file', 'create_file', 'save_file'],
  },
  // Its SQLite store, sniffed by name (then claimed by its header and refused by its tables).
  fileNames: /(^|\/)threads\.db$/i,
  agent: {
    writes: 'sqlite',
    locations: [
      { platforms: ['linux'], path: '$XDG_DATA_HOME/zed/threads/threads.db' },
      { platforms: ['darwin'], path: '~/Library/Application Support/Zed/threads/threads.db' },
      { platforms: ['win32'], path: '%LOCALAPPDATA%/Zed/threads/threads.db' },
    ],
  },
  detect(path, head) {
    if (!isSqliteNamed(path, head, ['threads.db'])) return undefined;
    return {
      role: 'conversations',
      format: { kind: 'sqlite', store: ZED_STORE },
      variant: 'threads',
    };
  },
  toConversation(raw, _variant, context) {
    const record = sqliteSession(raw);
    return record ? toZedConversation(record, context) : undefined;
  },
};
