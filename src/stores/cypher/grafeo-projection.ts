import { createRequire } from 'node:module';
import type { GrafeoDB as GrafeoDatabase, WriteCounters } from '@grafeo-db/js';
import {
  EDGE_KINDS,
  EDGES,
  LABEL_NAMES,
  edgeTypeName,
  type EdgeKind,
  type Label,
} from '../../graph/schema.js';
import { QueryError, type Row } from '../store.js';
import { footprint } from './cypher-text.js';

// @grafeo-db/js is CommonJS; its named exports are reached through require.
const require = createRequire(import.meta.url);
const { GrafeoDB } = require('@grafeo-db/js') as typeof import('@grafeo-db/js');

/** Where the projection reads the graph from (the SQLite store). */
export interface GraphSource {
  nodes(label: Label): Iterable<Record<string, unknown>>;
  edges(kind: EdgeKind): Iterable<{ src: string; dst: string }>;
  /** Changes whenever the graph does, so a warm projection knows when to reload. */
  version(): string;
}

const CHUNK = 20_000;

/** A query the engine's counters caught changing the graph (its transaction was rolled back). */
export class WriteRefused extends QueryError {}

/** Called as a query goes from loading the graph it reads to running (to bound the second only). */
export interface ProjectionHooks {
  beforeLoad?: () => void;
  beforeQuery?: () => void;
}

/**
 * Runs Cypher without a server: the labels a query needs are loaded from the store into an
 * in-memory Grafeo graph (never a file, never its text index), kept warm until the store
 * changes. It is only ever made inside a query child process (see `cypher-children`), which
 * nothing else reads.
 */
export class CypherProjection {
  private db: GrafeoDatabase | undefined;
  private loaded = new Set<Label>();
  private loadedVersion = '';
  private ids = new Map<string, number>();

  constructor(private readonly source: GraphSource) {}

  /**
   * Runs a query and returns its rows keyed by column name; a query that changed anything is
   * refused (the caller refuses writes by their text first, with `assertReadOnly`).
   */
  async run(
    query: string,
    params: Record<string, unknown> = {},
    hooks: ProjectionHooks = {},
  ): Promise<Row[]> {
    const needs = footprint(query);
    const labels = needs.all ? new Set(LABEL_NAMES) : needs.labels;
    hooks.beforeLoad?.();
    await this.ensure(labels);
    hooks.beforeQuery?.();
    const db = this.db as GrafeoDatabase;
    // The query runs in a transaction that is always rolled back: whatever it changed is gone
    // before the next query, and the engine's counters (labels included) refuse it.
    const transaction = db.beginTransaction();
    try {
      const result = await transaction.executeCypher(query, params);
      if (changed(result.counters)) {
        throw new WriteRefused('writes are refused: this store is read-only through Cypher');
      }
      return result.toArray().map((row) => cleanRow(row));
    } catch (error) {
      if (error instanceof QueryError) throw error;
      throw new QueryError(oneLine(error));
    } finally {
      if (transaction.isActive) transaction.rollback();
    }
  }

  private reset(): void {
    this.db?.close();
    this.db = undefined;
    this.loaded = new Set();
    this.ids = new Map();
  }

  private async ensure(labels: Set<Label>): Promise<void> {
    const version = this.source.version();
    if (version !== this.loadedVersion) {
      this.reset();
      this.loadedVersion = version;
    }
    const missing = [...labels].filter((label) => !this.loaded.has(label));
    if (missing.length === 0 && this.db) return;
    this.db ??= GrafeoDB.create();
    const db = this.db;
    for (const label of missing) {
      let batch: Record<string, unknown>[] = [];
      let keys: string[] = [];
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return;
        const created = await db.batchCreateNodesWithProps(label, batch);
        created.forEach((id, i) => this.ids.set(keys[i] as string, id));
        batch = [];
        keys = [];
      };
      for (const row of this.source.nodes(label)) {
        const properties: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(row))
          if (value !== null && value !== undefined) properties[key] = value;
        batch.push(properties);
        keys.push(String(row.id));
        if (batch.length >= CHUNK) await flush();
      }
      await flush();
      this.loaded.add(label);
    }
    // Edges whose two ends are now loaded, and were not before.
    for (const kind of EDGE_KINDS) {
      const { from, to } = EDGES[kind];
      const ready = this.loaded.has(from) && this.loaded.has(to);
      const wasReady = !missing.includes(from) && !missing.includes(to);
      if (!ready || wasReady) continue;
      let batch: { src: number; dst: number; type: string }[] = [];
      for (const edge of this.source.edges(kind)) {
        const src = this.ids.get(edge.src);
        const dst = this.ids.get(edge.dst);
        if (src === undefined || dst === undefined) continue;
        batch.push({ src, dst, type: edgeTypeName(kind) });
        if (batch.length >= CHUNK) {
          await db.batchCreateEdges(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await db.batchCreateEdges(batch);
    }
  }

  /** Frees the in-memory graph. */
  close(): void {
    this.reset();
  }
}

/** Whether a query's counters show any change at all. */
export function changed(counters: WriteCounters): boolean {
  return (
    counters.nodesCreated +
      counters.nodesDeleted +
      counters.edgesCreated +
      counters.edgesDeleted +
      counters.propertiesSet +
      counters.labelsAdded +
      counters.labelsRemoved >
    0
  );
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter(
      (line) =>
        line !== '' &&
        !/^\|?\s*\^*$/.test(line) &&
        !line.startsWith('-->') &&
        !/^\d+\s*\|/.test(line),
    )
    .join(' ')
    .replace(/^Query error:\s*/, '');
}

// Grafeo returns nodes with `_id` and `_labels`; rows keep plain values.
function cleanRow(row: Record<string, unknown>): Row {
  const result: Row = {};
  for (const [key, value] of Object.entries(row)) result[key] = cleanValue(value);
  return result;
}

function cleanValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(cleanValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === '_id') continue;
      out[key === '_labels' ? 'labels' : key] = cleanValue(inner);
    }
    return out;
  }
  return value;
}
