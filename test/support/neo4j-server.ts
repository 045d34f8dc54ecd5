/** The real Neo4j server of the tests: a script shared with the benchmark. */
export { buildNeo4j, startNeo4j, type Neo4jServer } from '../../scripts/neo4j-server.mjs';
