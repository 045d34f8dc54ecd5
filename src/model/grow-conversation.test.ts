import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphBatch, GraphNode } from '../graph/graph-batch.js';
import type { GraphDelta } from '../graph/graph-delta.js';
import { projectGrowth, settleDocument } from '../graph/project-growth.js';
import { project } from '../graph/project.js';
import { emptyProjectMemo, type ProjectMemo } from '../graph/project-memo.js';
import { SHARED_LABELS } from '../graph/schema.js';
import type { Conversation } from './pam.js';
import { buildConversation, emptyBuildMemo } from './build-conversation.js';
import type { DraftMessage } from './draft.js';
import { apply, conversationOf, step } from '../../test/support/growing-drafts.js';

const options = { record: '#0', fallbackTime: undefined };
const projection = {
  source: 'claude-code',
  label: 'Claude Code',
  deep: false,
  importId: 'import:1',
  fileTools: { read: ['Read'], modify: ['Edit'] },
  attachmentText: (ref: string) => `attached text of ${ref}`,
};

/** A graph as a store holds it: nodes by id, edges by their ends. */
interface Held {
  nodes: Map<string, GraphNode>;
  edges: Set<string>;
}

const edgeKey = (e: { kind: string; from: string; to: string }): string =>
  `${e.kind} ${e.from} ${e.to}`;

function held(batch: GraphBatch): Held {
  return {
    nodes: new Map(batch.nodes.map((n) => [n.id, n])),
    edges: new Set(batch.edges.map(edgeKey)),
  };
}

// A delta applied as the stores apply it: shared nodes (files, projects) stay when let go.
function applied(graph: Held, delta: GraphDelta): void {
  const kept = new Set(delta.fresh.nodes.map((n) => n.id));
  for (const node of delta.left.nodes)
    if (!kept.has(node.id) && !SHARED_LABELS.has(node.label)) graph.nodes.delete(node.id);
  for (const node of delta.fresh.nodes) graph.nodes.set(node.id, node);
  for (const edge of delta.left.edges) graph.edges.delete(edgeKey(edge));
  for (const edge of delta.fresh.edges) graph.edges.add(edgeKey(edge));
}

// The graph a followed conversation's store holds after this step (settled at once): the
// step's delta and its Document's applied when it has one, else the conversation projected whole.
function grownGraph(
  graph: Held | undefined,
  conversation: Conversation,
  memo: ProjectMemo,
  change: ReturnType<typeof emptyBuildMemo>['change'],
): { graph: Held; delta: boolean } {
  const options = { ...projection, memo };
  const delta = graph && change ? projectGrowth(conversation, { ...options, change }) : undefined;
  const document = delta && settleDocument(conversation, options);
  if (!graph || !delta || !document)
    return { graph: held(project(conversation, options)), delta: false };
  applied(graph, delta);
  applied(graph, document);
  return { graph, delta: true };
}

describe('a conversation built as it grows', () => {
  it('is the conversation, and the graph, a whole build of the same drafts gives, step after step', () => {
    let grown = 0;
    let deltas = 0;
    let steps = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (plan) => {
        const drafts: DraftMessage[] = [];
        const memo = emptyBuildMemo();
        const projected = emptyProjectMemo();
        let graph: Held | undefined;
        plan.forEach((s, n) => {
          apply(drafts, s, n, memo.changed);
          const live: string[] = [];
          const liveConversation = buildConversation(conversationOf(drafts), {
            ...options,
            memo,
            report: (d) => live.push(d.code),
          });
          const change = memo.change;
          const whole: string[] = [];
          const wholeConversation = buildConversation(conversationOf(drafts), {
            ...options,
            report: (d) => whole.push(d.code),
          });
          expect(liveConversation).toEqual(wholeConversation);
          expect(live).toEqual(whole);
          const grownNow = grownGraph(graph, liveConversation, projected, change);
          graph = grownNow.graph;
          const wholeGraph = held(project(wholeConversation, projection));
          const owned = (g: Held) =>
            [...g.nodes.values()].filter((n) => !SHARED_LABELS.has(n.label));
          expect(owned(graph)).toEqual(expect.arrayContaining(owned(wholeGraph)));
          expect(owned(graph)).toHaveLength(owned(wholeGraph).length);
          for (const node of wholeGraph.nodes.values())
            expect(graph.nodes.get(node.id)).toEqual(node);
          expect([...graph.edges].sort()).toEqual([...wholeGraph.edges].sort());
          steps++;
          if (change) grown++;
          if (grownNow.delta) deltas++;
        });
      }),
      { numRuns: 400 },
    );
    // Most steps went on from the last build and projection (the test would pass vacuously otherwise).
    expect(grown / steps).toBeGreaterThan(0.4);
    expect(deltas / steps).toBeGreaterThan(0.4);
  });
});
