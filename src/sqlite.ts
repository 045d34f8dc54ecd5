/**
 * `chatgraph/sqlite`: the embedded store itself (SQLite with FTS5, Cypher through Grafeo) and
 * its vector cache, for code that opens a store file directly. `openStore` in `chatgraph`
 * opens it too, loading this code only then.
 */
export { SqliteStore } from './stores/sqlite/sqlite-store.js';
export { VectorCache } from './embed/vector-cache.js';
