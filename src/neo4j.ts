/**
 * `chatgraph/neo4j`: the Neo4j store (a Neo4j 5 server or Aura over Bolt), for code that opens
 * one directly. `openStore` in `chatgraph` opens it too, loading the driver only then.
 */
export { Neo4jStore } from './stores/neo4j/neo4j-store.js';
