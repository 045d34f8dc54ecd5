import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DataFolder } from '../data-folder/data-folder.js';
import type { FolderDigests } from '../data-folder/sync-support.js';
import type { GroupLike } from './group-contract.js';
import { listExports, openExport } from './read-export.js';
import { emptyState, parseState, serializeState, type SyncState } from './sync-state.js';
import { seqName, seqOf, STORE_FILE, sealedPath } from './sync-names.js';
import { writeSyncExport, type SentExport } from './write-export.js';

/** How {@link syncFolder} runs. */
export interface SyncOptions {
  /** Fold this machine's exports into one full export (written first, the old ones removed). */
  compact?: boolean;
  now?: () => Date;
}

/** What came from one machine. */
export interface Received {
  machine: string;
  name: string;
  exports: number;
  conversations: number;
  memories: number;
  deletions: number;
}

/** A file refused or an export not complete yet, named. */
export interface SyncProblem {
  level: 'refused' | 'pending' | 'error';
  file: string;
  message: string;
}

/** What one sync did: the `--json` report (docs/sync.md). */
export interface SyncReport {
  dir: string;
  machine: { id: string; name: string };
  /** This machine's export written now, or null when nothing changed since its last sync. */
  sent: SentExport | null;
  received: Received[];
  /** Deleted here because another machine deleted them. */
  deleted: number;
  /** This machine's old exports removed by `--compact`. */
  compacted: number;
  problems: SyncProblem[];
  /** 0 all read; 1 something refused or not imported (a sync that cannot run throws: 2). */
  exitCode: 0 | 1;
}

/**
 * One sync of `folder` through `dir` (docs/sync.md): under the folder's write lock, this
 * machine's changes since its last sync are written as its next export, then every other
 * machine's exports not taken in yet are opened, checked and imported in each machine's order;
 * the state is written last.
 */
export async function syncFolder(
  folder: DataFolder,
  group: GroupLike,
  dir: string,
  options: SyncOptions = {},
): Promise<SyncReport> {
  const now = options.now ?? (() => new Date());
  const self = group.self;
  const machineDir = join(dir, self.id);
  return folder.writing(async () => {
    const state = parseState(await folder.syncState(), 'sync-state.json', {
      machine: self.id,
      dir: resolve(dir),
    });
    const report: SyncReport = {
      dir,
      machine: { id: self.id, name: self.name },
      sent: null,
      received: [],
      deleted: 0,
      compacted: 0,
      problems: [],
      exitCode: 0,
    };
    const before = await folder.syncDigests();
    const fresh =
      options.compact === true ? { ...emptyState(self.id, state.dir), seen: state.seen } : state;
    const seq = Math.max(state.seq, await lastSeq(machineDir)) + 1;
    const sent = await send(folder, group, fresh, before, { machineDir, seq, now: now() });
    if (sent && 'refused' in sent)
      report.problems.push({ level: 'error', file: machineDir, message: sent.refused });
    else if (sent) {
      report.sent = sent;
      state.seq = sent.seq;
      if (sent.exportType === 'full') state.full = sent.exportId;
      if (options.compact === true) report.compacted = await removeBefore(machineDir, sent.seq);
    }
    await takeIn(folder, group, dir, state, report, before.ownerId);
    const after = await folder.syncDigests();
    state.known = {
      conversations: after.conversations,
      memories: after.memories,
      relations: Object.fromEntries(
        Object.entries(after.relations).map(([id, r]) => [id, r.digest]),
      ),
      deletions: (await folder.tombstones()).map((t) => t.id),
    };
    await folder.saveSyncState(serializeState(state));
    report.exitCode = exitCodeOf(report);
    return report;
  });
}

// Every other machine's exports not taken in yet, each opened, checked and imported in order.
async function takeIn(
  folder: DataFolder,
  group: GroupLike,
  dir: string,
  state: SyncState,
  report: SyncReport,
  owner: string | undefined,
): Promise<void> {
  let ownerId = owner;
  for (const found of await listExports(dir, group.self.id)) {
    if (state.seen[found.machine]?.includes(found.seq)) continue;
    const temp = await mkdtemp(join(tmpdir(), 'chatgraph-sync-in-'));
    try {
      const opened = await openExport(group, found, temp, ownerId);
      if ('refused' in opened) {
        const { file, reason } = opened.refused;
        report.problems.push({ level: 'refused', file, message: reason });
        continue;
      }
      if ('pending' in opened) {
        report.problems.push({
          level: 'pending',
          file: found.dir,
          message: `not all there yet (${String(opened.pending.missing.length)} files): taken at a later sync`,
        });
        continue;
      }
      const imported = await folder.import([temp]);
      for (const problem of imported.problems)
        if (problem.level === 'error')
          for (const example of problem.examples)
            report.problems.push({
              level: 'error',
              file: sealedPath(found.dir, STORE_FILE),
              message: example.message,
            });
      report.deleted += await folder.receiveDeletions(opened.deletions);
      ownerId ??= (await folder.syncDigests()).ownerId;
      (state.seen[found.machine] ??= []).push(found.seq);
      tally(report, opened.signer, opened);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }
}

async function send(
  folder: DataFolder,
  group: GroupLike,
  state: SyncState,
  now: FolderDigests,
  at: { machineDir: string; seq: number; now: Date },
): Promise<SentExport | { refused: string } | undefined> {
  if (now.ownerId === undefined) return undefined;
  const changed = (mine: Record<string, string>, known: Record<string, string>): Set<string> =>
    new Set(Object.keys(mine).filter((id) => known[id] !== mine[id]));
  const conversations = changed(now.conversations, state.known.conversations);
  const memories = changed(now.memories, state.known.memories);
  // A relation travels with its two memories (PAM 13: both ends in the file).
  for (const [id, relation] of Object.entries(now.relations))
    if (state.known.relations[id] !== relation.digest) {
      memories.add(relation.from);
      memories.add(relation.to);
    }
  const known = new Set(state.known.deletions);
  const deletions = (await folder.tombstones()).filter((t) => !known.has(t.id));
  const full = state.full === null;
  if (!full && conversations.size === 0 && memories.size === 0 && deletions.length === 0)
    return undefined;
  return writeSyncExport(folder, group, {
    machineDir: at.machineDir,
    seq: at.seq,
    base: state.full,
    only: full ? undefined : { conversations, memories },
    deletions,
    now: at.now,
  });
}

// The last export number this machine wrote into DIR (its state may be older: a sync killed
// after writing it); an export cut off before its store was written is removed.
async function lastSeq(machineDir: string): Promise<number> {
  let last = 0;
  for (const name of await readdir(machineDir).catch(() => [] as string[])) {
    const seq = seqOf(name);
    if (seq === undefined) continue;
    const complete = await stat(sealedPath(join(machineDir, name), STORE_FILE)).then(
      () => true,
      () => false,
    );
    if (!complete) await rm(join(machineDir, name), { recursive: true, force: true });
    last = Math.max(last, seq);
  }
  return last;
}

async function removeBefore(machineDir: string, seq: number): Promise<number> {
  let removed = 0;
  for (const name of await readdir(machineDir)) {
    const old = seqOf(name);
    if (old === undefined || old >= seq) continue;
    await rm(join(machineDir, seqName(old)), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

function tally(
  report: SyncReport,
  signer: { id: string; name: string },
  opened: { conversations: number; memories: number; deletions: readonly unknown[] },
): void {
  let entry = report.received.find((r) => r.machine === signer.id);
  if (!entry) {
    entry = {
      machine: signer.id,
      name: signer.name,
      exports: 0,
      conversations: 0,
      memories: 0,
      deletions: 0,
    };
    report.received.push(entry);
  }
  entry.exports++;
  entry.conversations += opened.conversations;
  entry.memories += opened.memories;
  entry.deletions += opened.deletions.length;
}

// 1 when anything was refused or not imported (the sync itself went through: this machine's
// export is out, the rest taken in); 2 is left to a sync that could not run (no group, no
// folder), which throws.
function exitCodeOf(report: SyncReport): 0 | 1 {
  return report.problems.some((p) => p.level !== 'pending') ? 1 : 0;
}
