import type { Provider } from '../provider.js';
import { baseName } from '../../read/entry.js';
import { isSqliteNamed, sqliteSession } from '../sqlite-session.js';
import { asObject } from '../untrusted.js';
import { sessionFromLines, sessionFromSqlite } from './from-store.js';
import { GOOSE_STORE } from './store-query.js';
import { toGooseConversation } from './to-conversation.js';

/** Goose's sessions: `sessions.db`, and the JSON Lines files it kept before. */
export const goose: Provider = {
  name: 'goose',
  source: 'goose',
  label: 'Goose',
  product: 'Goose',
  howToExport:
    'nothing to export; chatgraph import --agents reads ~/.local/share/goose/sessions/sessions.db (Windows: %APPDATA%\\Block\\goose\\data\\sessions), or give it that file',
  fileTools: {
    read: ['developer__text_editor:view', 'text_editor:view'],
    modify: [
      'developer__text_editor:write',
      'developer__text_editor:str_replace',
      'developer__text_editor:insert',
      'text_editor:write',
      'text_editor:str_replace',
      'text_editor:insert',
    ],
  },
  // Its SQLite store, sniffed by name (then claimed by its header and refused by its tables).
  fileNames: /(^|\/)sessions\.db$/i,
  agent: {
    writes: 'sqlite',
    locations: [
      // Goose's folders follow the XDG layout on macOS too (etcetera's choose_app_strategy).
      {
        platforms: ['linux', 'darwin'],
        path: '$XDG_DATA_HOME/goose/sessions',
        env: { name: 'GOOSE_PATH_ROOT', path: 'data/sessions' },
      },
      {
        platforms: ['win32'],
        path: '%APPDATA%/Block/goose/data/sessions',
        env: { name: 'GOOSE_PATH_ROOT', path: 'data/sessions' },
      },
    ],
  },
  detect(path, head) {
    if (isSqliteNamed(path, head, ['sessions.db']))
      return {
        role: 'conversations',
        format: { kind: 'sqlite', store: GOOSE_STORE },
        variant: 'sqlite',
      };
    const name = baseName(path).toLowerCase();
    const firstLine = head.slice(0, head.indexOf('\n') === -1 ? undefined : head.indexOf('\n'));
    if (
      name.endsWith('.jsonl') &&
      /"working_dir"\s*:/.test(firstLine) &&
      !/"sessionId"\s*:/.test(firstLine)
    )
      return { role: 'conversations', format: { kind: 'jsonl-file' }, variant: 'jsonl' };
    return undefined;
  },
  toConversation(raw, variant, context) {
    if (variant === 'jsonl')
      return toGooseConversation(sessionFromLines(asObject(raw) ?? {}, context), variant, context);
    const record = sqliteSession(raw);
    return record ? toGooseConversation(sessionFromSqlite(record), variant, context) : undefined;
  },
};
