/** Types of neo4j-server.mjs (a plain script, shared by the tests and the benchmark). */
export declare const NEO4J_PASSWORD: string;

/** Compiles the launcher and lists its classpath when either is missing or stale. */
export declare function buildNeo4j(): string;

/** A running test server. */
export interface Neo4jServer {
  target: { url: string; user: string; password: string };
  home: string;
  /** Stops it: `SIGKILL` to pull the plug, else a clean shutdown. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and home (after `stop`). */
  restart(): Promise<void>;
  /** Stops it and removes its home. */
  dispose(): Promise<void>;
}

/** Builds (once) and starts a server with the given Java heap (default 1g). */
export declare function startNeo4j(options?: { heap?: string }): Promise<Neo4jServer>;
