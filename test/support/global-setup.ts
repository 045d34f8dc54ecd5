import { buildNeo4j } from './neo4j-server.js';

/** Once before any test file: the Neo4j launcher is built here, never by two files at once. */
export default function setup(): void {
  buildNeo4j();
}
