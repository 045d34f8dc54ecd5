import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphBatch } from '../src/graph/graph-batch.js';
import { projectGrowth, settleDocument } from '../src/graph/project-growth.js';
import { project, type ProjectOptions } from '../src/graph/project.js';
import { emptyProjectMemo, type ProjectMemo } from '../src/graph/project-memo.js';
import { buildConversation, emptyBuildMemo } from '../src/model/build-conversation.js';
import type { DraftConversation, DraftMessage } from '../src/model/draft.js';
import type { Conversation } from '../src/model/pam.js';
import { toIndexEntry } from '../src/bundle/memory-store.js';
import type { LiveConversation } from '../src/live/convert-session.js';
import { LiveStoreWriter } from '../src/live/live-store-writer.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { snapshot } from './support/patch-fixtures.js';

/**
 * Review (hostile) test: the grown path all the way to the SQLite store. Drafts change as a
 * growing log changes them (and as it must not); each step is built with a memo, its delta
 * made by `projectGrowth` and written by `LiveStoreWriter` (delta or whole fallback), settled
 * at random; a second store gets the whole build's graph written whole. The two stores must
 * read the same (search hits, subgraph, counts, stats) and the live store's full-text index
 * must pass FTS5's own integrity check against its content tables.
 */

type Step =
  | { kind: 'reply'; to: 'last' | number; time: number | undefined; role: 'user' | 'assistant' }
  | { kind: 'root'; time: number }
  | { kind: 'redraft'; back: number; text: string }
  | { kind: 'edit'; at: number; output: string }
  | { kind: 'edit-in-place'; at: number; output: string }
  | { kind: 'repeat'; at: number }
  | { kind: 'off-thread'; time: number }
  | { kind: 'attach'; time: number }
  | { kind: 'retime'; back: number; time: number | undefined }
  | { kind: 'swap'; back: number; time: number | undefined; root: boolean };

const time = fc.integer({ min: 0, max: 40 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('reply' as const),
      to: fc.constant('last' as const),
      time: fc.option(time, { nil: undefined, freq: 12 }),
      role: fc.constantFrom('user' as const, 'assistant' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('reply' as const),
      to: fc.nat(),
      time: fc.option(time, { nil: undefined, freq: 8 }),
      role: fc.constantFrom('user' as const, 'assistant' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('root' as const), time }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('redraft' as const),
      back: fc.integer({ min: 1, max: 3 }),
      text: fc.constantFrom('alpha', 'omega'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      at: fc.nat(),
      output: fc.constantFrom('ok', 'failed'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('edit-in-place' as const),
      at: fc.nat(),
      output: fc.constantFrom('ok', 'failed'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('off-thread' as const), time }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('attach' as const), time }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('retime' as const),
      back: fc.integer({ min: 1, max: 2 }),
      time: fc.option(time, { nil: undefined, freq: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('swap' as const),
      back: fc.integer({ min: 1, max: 2 }),
      time: fc.option(time, { nil: undefined, freq: 3 }),
      root: fc.boolean(),
    }),
  },
);

const at = (t: number): string => `2026-01-01T10:00:${String(t).padStart(2, '0')}.000000Z`;
const WORDS = ['alpha', 'omega', 'zebra', 'quokka', 'attached', 'hidden', 'root'];

function draftOf(
  key: string,
  parentKey: string | null,
  t: number | undefined,
  role: DraftMessage['role'],
  text: string,
  n: number,
): DraftMessage {
  return {
    key,
    parentKey,
    provider_message_id: key,
    role,
    content: { type: 'text', text },
    createdAt: t === undefined ? undefined : at(t),
    model: role === 'assistant' ? 'claude-x' : null,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls:
      role === 'assistant'
        ? [
            {
              id: `call-${key}`,
              name: n % 2 === 0 ? 'Read' : 'Edit',
              input: { file_path: n % 3 === 0 ? '/a.ts' : '/b.ts' },
              output: null,
            },
          ]
        : [],
    raw_metadata: role === 'system' ? { hidden: true } : {},
  };
}

function apply(drafts: DraftMessage[], s: Step, n: number, changed: Set<DraftMessage>): void {
  const last = drafts.at(-1);
  const key = `k${n}`;
  const words = n % 2 === 0 ? 'zebra' : 'quokka';
  if (s.kind === 'reply') {
    const parent = s.to === 'last' ? last : drafts[s.to % Math.max(1, drafts.length)];
    drafts.push(draftOf(key, parent?.key ?? null, s.time, s.role, `${words} ${n}`, n));
  } else if (s.kind === 'root') drafts.push(draftOf(key, null, s.time, 'user', `root ${n}`, n));
  else if (s.kind === 'off-thread')
    drafts.push(draftOf(key, last?.key ?? null, s.time, 'system', 'hidden', n));
  else if (s.kind === 'attach') {
    const draft = draftOf(key, last?.key ?? null, s.time, 'user', `${words} with a file`, n);
    draft.attachments = [
      {
        type: 'document',
        name: `f${n}`,
        mime_type: 'text/plain',
        size_bytes: 1,
        ref: `ref-${n % 2}`,
        provider_id: null,
      },
    ];
    drafts.push(draft);
  } else if (s.kind === 'redraft') {
    const back = drafts.splice(Math.max(0, drafts.length - s.back));
    for (const old of back) drafts.push({ ...old, content: { type: 'text', text: s.text } });
  } else if (s.kind === 'edit') {
    const target = drafts[s.at % Math.max(1, drafts.length)];
    const call = target?.tool_calls[0];
    if (target && call) {
      target.tool_calls = [{ ...call, output: s.output }];
      changed.add(target);
    }
  } else if (s.kind === 'edit-in-place') {
    // As `pairToolResults` does: the call object itself gets the output.
    const target = drafts[s.at % Math.max(1, drafts.length)];
    const call = target?.tool_calls[0];
    if (target && call) {
      call.output = call.output === null ? s.output : `${call.output}\n${s.output}`;
      changed.add(target);
    }
  } else if (s.kind === 'retime') {
    const back = drafts.splice(Math.max(0, drafts.length - s.back));
    for (const old of back)
      drafts.push({ ...old, createdAt: s.time === undefined ? undefined : at(s.time) });
  } else if (s.kind === 'swap') {
    drafts.splice(Math.max(0, drafts.length - s.back));
    const parent = s.root ? null : (drafts.at(-1)?.key ?? null);
    drafts.push(draftOf(key, parent, s.time, 'assistant', `${words} swapped`, n));
  } else {
    const copied = drafts[s.at % Math.max(1, drafts.length)];
    // A copy of its own (a provider drafts each line anew): no call object shared.
    if (copied) drafts.push({ ...copied, tool_calls: copied.tool_calls.map((c) => ({ ...c })) });
  }
}

function conversationOf(drafts: DraftMessage[]): DraftConversation {
  const times = drafts.flatMap((d) => (d.createdAt === undefined ? [] : [d.createdAt])).sort();
  return {
    provider: {
      name: 'claude-code',
      conversation_id: 'c1',
      account_id: null,
      export_format_version: null,
    },
    title: 'grown',
    createdAt: times[0],
    updatedAt: times.at(-1),
    messages: drafts,
    shownLeafKey: undefined,
    model: null,
    system_instruction: null,
    is_archived: false,
    raw_metadata: { cwd: '/work/p', git_branch: 'main' },
    assistantName: 'Claude Code',
  };
}

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
    step: { of: 1, n },
    version: `live:${n}`,
    delta: change && projectGrowth(conversation, { ...options, change }),
    batch: () => project(conversation, { ...options, settle: false }),
    settle: () => ({
      text: new Uint8Array(),
      contentHash: `settled:${n}`,
      delta: settleDocument(conversation, options),
      batch: () => project(conversation, { ...options, settle: true }),
    }),
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

export async function runPlan(plan: Step[], settles: boolean[], dir: string): Promise<void> {
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

describe('review: a grown conversation written as deltas', () => {
  it('leaves the SQLite store as the whole build written whole, step after step', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        async (plan, settles) => {
          await runPlan(plan, settles, mkdtempSync(join(tmpdir(), 'chatgraph-review-')));
        },
      ),
      { numRuns: Number(process.env.REVIEW_RUNS ?? 60) },
    );
  }, 600_000);
});
