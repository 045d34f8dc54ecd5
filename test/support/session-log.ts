import { appendFileSync, copyFileSync } from 'node:fs';
import { layoutOf } from '../../src/folder/layout.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';

/** Writes a Claude Code session log line by line, as Claude Code does (a chain of entries). */
export class SessionLog {
  private parent: string | null = null;
  private count = 0;

  constructor(
    readonly path: string,
    readonly sessionId: string,
    /** Part of the entries' uuids, so two logs of one session make different entries. */
    private readonly tag = 'a',
  ) {}

  /**
   * Another log of the same session that starts as a copy of this one (Claude Code's resumed
   * or forked session), its entries then going on from there.
   */
  copyTo(path: string, tag: string): SessionLog {
    copyFileSync(this.path, path);
    const copy = new SessionLog(path, this.sessionId, tag);
    copy.parent = this.parent;
    copy.count = this.count;
    return copy;
  }

  /** Appends a user (even) or assistant (odd) entry with `text`, the n-th at second n; returns its line. */
  append(text: string): string {
    const n = this.count++;
    const role = n % 2 === 0 ? 'user' : 'assistant';
    const uuid = `${this.sessionId}-${this.tag}-${n}`;
    const value = {
      type: role,
      uuid,
      parentUuid: this.parent,
      sessionId: this.sessionId,
      timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
      cwd: '/work/app',
      message:
        role === 'assistant'
          ? { id: `msg-${uuid}`, role, model: 'claude-sonnet-4', content: [{ type: 'text', text }] }
          : { role, content: text },
    };
    this.parent = uuid;
    const line = `${JSON.stringify(value)}\n`;
    appendFileSync(this.path, line);
    return line;
  }
}

/** The messages of a conversation (by its platform id) in the data folder's store. */
export async function messagesOf(data: string, platformId: string): Promise<string[]> {
  const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
  try {
    const info = await store.conversation(platformId);
    if (!info) return [];
    return (await store.thread(info.id, { allBranches: true })).map((m) => m.content);
  } finally {
    await store.close();
  }
}

// When a file was imported, and what only `import` records of it (a reindex does not know).
const UNSTABLE = new Set(['imported_at', 'size', 'crc32', 'redacted']);

/**
 * What a data folder's store holds, times of import left out: every conversation's subgraph,
 * the counts, and the Import nodes (with their size and redaction mode unless `withFileFacts`
 * is false: a reindex does not know them).
 */
export async function graphOf(data: string, withFileFacts = true): Promise<unknown> {
  const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
  try {
    const ids = (await store.listConversations({ limit: 1000 })).items.map((c) => c.id);
    const graphs = [];
    for (const id of ids.sort()) {
      const graph = await store.subgraph(id);
      graphs.push({
        nodes: (graph?.nodes ?? [])
          .map((n) => JSON.stringify(n, (key, v: unknown) => (UNSTABLE.has(key) ? '' : v)))
          .sort(),
        edges: (graph?.edges ?? []).map((e) => JSON.stringify(e)).sort(),
      });
    }
    const imports = (await store.importedFiles())
      .map(({ id, checksum, sourceFile, size, redacted }) => ({
        id,
        checksum,
        sourceFile,
        ...(withFileFacts ? { size, redacted } : {}),
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    return { graphs, counts: await store.counts(), imports };
  } finally {
    await store.close();
  }
}
