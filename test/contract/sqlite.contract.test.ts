import { join } from 'node:path';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { tempDir } from '../support/convert-to-temp.js';
import { idContract } from './id-contract.js';
import { listContract } from './list-contract.js';
import { memoryContract } from './memory-contract.js';
import { relationContract } from './relation-contract.js';
import { stemsContract } from './stems-contract.js';
import { storeContract } from './store-contract.js';
import { usageContract } from './usage-contract.js';
import { vectorContract } from './vector-contract.js';

storeContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
vectorContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
listContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
memoryContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
relationContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
idContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
stemsContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
usageContract('embedded SQLite', () =>
  Promise.resolve(SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'))),
);
