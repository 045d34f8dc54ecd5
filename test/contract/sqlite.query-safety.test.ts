import { join } from 'node:path';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { tempDir } from '../support/convert-to-temp.js';
import { querySafetyContract } from './query-safety-contract.js';

querySafetyContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
