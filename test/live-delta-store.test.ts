import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphBatch } from '../src/graph/graph-batch.js';
import { projectGrowth, settleDocument } from '../src/graph/project-growth.js';
import { project, type ProjectOptions } from '../src/graph/project.js';
import { emptyProjectMemo, type ProjectMemo } from '../src/graph/project-memo.js';
import { buildConversation, emptyBuildMemo } from '../src/model/build-conversation.js';
import type { DraftMessage } from '../src/model/draft.js';
import type { Conversation } from '../src/model/pam.js';
import { toIndexEntry } from '../src/bundle/memory-store.js';
import type { LiveConversation } from '../src/live/convert-session.js';
import { LiveStoreWriter } from '../src/pipeline/live-store-writer.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { snapshot } from './support/patch-fixtures.js';
import { WORDS, apply, conversationOf, step, type Step } from './support/growing-drafts.js';

/**
 * The grown path all the way to the SQLite store. Drafts change as a
 * growing log changes them (and as it must not); each step is built with a memo, its delta
 * made by `projectGrowth` and written by `LiveStoreWriter` (delta or whole fallback), settled
 * at random; a second store gets the whole build's graph written whole. The two stores must
 * read the same (search hits, subgraph, counts, stats) and the live store's full-text index
 * must pass FTS5's own integrity check against its content tables.
 */

const base: ProjectOptions = {
  source: 'claude-code',
  label: 'Claude Code',
  deep: false,
  importId: 'import:1',
  fileTools: { read: ['Read'], modify: ['Edit'] },
  attachmentText: (ref) => `attached text of ${ref}`,
};

// A LiveConversation as `SessionConversion.finish` makes one, from a build with a memo.
function liveOf(
  conversation: Conversation,
  memo: ProjectMemo,
  change: ReturnType<typeof emptyBuildMemo>['change'],
  n: number,
): LiveConversation {
  const options = { ...base, memo };
  return {
    id: conversation.id,
    index: toIndexEntry(conversation),
    messages: conversation.messages.length,
    step: { of: 'conversion-1', n },
    version: `live:${n}`,
    delta: change && projectGrowth(conversation, { ...options, change }),
    batch: () => project(conversation, { ...options, settle: false }),
    settle: () => ({
      text: new Uint8Array(),
      contentHash: `settled:${n}`,
      delta: settleDocument(conversation, options),
      batch: () => project(conversation, { ...options, settle: true }),
    }),
    conversation,
    // This test's store steps never meet an earlier copy.
    carry: () => undefined,
  };
}

// FTS5's own check of an external-content index against its content table.
function ftsProblems(file: string): string[] {
  const db = new Database(file);
  const problems: string[] = [];
  try {
    for (const table of ['message_fts', 'attachment_fts']) {
      try {
        db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('integrity-check', 1)`).run();
      } catch (error) {
        problems.push(`${table}: ${(error as Error).message}`);
      }
    }
  } finally {
    db.close();
  }
  return problems;
}

// The Document as of the last settle is what an unsettled live store holds: left out then.
function withoutDocument(shot: Awaited<ReturnType<typeof snapshot>>) {
  return {
    ...shot,
    nodes: shot.nodes.filter((n) => !n.includes('"label":"Document"')),
  };
}

async function runPlan(plan: Step[], settles: boolean[], dir: string): Promise<void> {
  const live = SqliteStore.open(join(dir, 'live.sqlite'));
  const whole = SqliteStore.open(join(dir, 'whole.sqlite'));
  try {
    const writer = new LiveStoreWriter(live, false);
    const drafts: DraftMessage[] = [];
    const memo = emptyBuildMemo();
    const projected = emptyProjectMemo();
    for (const [n, s] of plan.entries()) {
      apply(drafts, s, n, memo.changed);
      const conversation = buildConversation(conversationOf(drafts), {
        record: '#0',
        fallbackTime: undefined,
        memo,
        report: () => undefined,
      });
      const current = liveOf(conversation, projected, memo.change, n + 1);
      await writer.step(current);
      const settle = settles[n % settles.length] === true;
      if (settle) await writer.settled(current, current.settle());
      const reference = buildConversation(conversationOf(drafts), {
        record: '#0',
        fallbackTime: undefined,
        report: () => undefined,
      });
      const batch = project(reference, base);
      await whole.upsert([{ ...batch, hash: `whole:${n}` } as GraphBatch]);
      const a = await snapshot(live, conversation.id, WORDS);
      const b = await snapshot(whole, conversation.id, WORDS);
      if (settle) expect(a, `step ${n} (${s.kind}), settled`).toEqual(b);
      else expect(withoutDocument(a), `step ${n} (${s.kind})`).toEqual(withoutDocument(b));
      expect(ftsProblems(join(dir, 'live.sqlite')), `step ${n} (${s.kind})`).toEqual([]);
    }
  } finally {
    await live.close();
    await whole.close();
  }
}

describe('a grown conversation written as deltas', () => {
  it('leaves the SQLite store as the whole build written whole, step after step', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        async (plan, settles) => {
          await runPlan(plan, settles, mkdtempSync(join(tmpdir(), 'chatgraph-live-delta-')));
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 60) },
    );
  }, 600_000);
});
