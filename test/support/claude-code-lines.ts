import fc from 'fast-check';

/**
 * Random Claude Code session lines for property tests, from small pools so that lines collide
 * the way real logs do: split replies (a shared message.id), repeated uuids (resumed
 * sessions), results before or without their call, parents missing or later, a second
 * session, titles and summaries arriving late.
 */
const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
const uuid = pick(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8', 'u9', 'u10', 'u11', 'u12']);
const toolId = pick(['t1', 't2', 't3', 't4']);
export const block = fc.oneof(
  fc.record({
    type: fc.constant('text'),
    text: pick(['hi', 'fix it', '', 'done', 'naïve café ☕ "quoted"\n']),
  }),
  fc.record({ type: fc.constant('thinking'), thinking: pick(['hmm', 'plan']) }),
  fc.record({
    type: fc.constant('tool_use'),
    id: toolId,
    name: pick(['Read', 'Edit', 'Task']),
    input: fc.constant({ file_path: '/a.ts' }),
  }),
  fc.record({
    type: fc.constant('tool_result'),
    tool_use_id: toolId,
    content: pick(['ok', 'failed']),
    is_error: fc.boolean(),
  }),
);
const messageLine = fc.record({
  type: pick(['user', 'user', 'assistant', 'assistant', 'assistant', 'system']),
  uuid,
  parentUuid: fc.option(uuid, { nil: null }),
  sessionId: fc.constantFrom('s1', 's1', 's1', 's1', 's1', 's1', 's1', 's2'),
  timestamp: fc.option(
    fc.integer({ min: 0, max: 59 }).map((s) => `2026-01-01T10:00:${String(s).padStart(2, '0')}Z`),
    { nil: undefined },
  ),
  message: fc.record({
    id: pick(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']),
    model: pick(['claude-opus-4', 'claude-sonnet-4']),
    content: fc.oneof(
      pick(['hello', '<command-name>/clear', '']),
      fc.array(block, { maxLength: 3 }),
    ),
  }),
  toolUseResult: fc.option(fc.record({ agentId: pick(['a1', 'a2']) }), { nil: undefined }),
});
const otherLine = fc.oneof(
  fc.record({ type: fc.constant('summary'), summary: pick(['A summary']), leafUuid: uuid }),
  fc.record({ type: fc.constant('custom-title'), customTitle: pick(['My title']) }),
  fc.record({ type: fc.constant('progress'), sessionId: fc.constant('s1') }),
  fc.record({ type: fc.constant('mystery'), sessionId: fc.constant('s1'), uuid }),
  fc.constant('not an object'),
);
const line = fc.oneof({ weight: 6, arbitrary: messageLine }, { weight: 1, arbitrary: otherLine });
export const log = fc.array(line, { minLength: 1, maxLength: 30 });
export const cuts = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 30 });

// The common case: one session written in order, fresh uuids, replies split over lines.
export const linearLog = fc.array(
  fc.record({ split: fc.boolean(), blocks: fc.array(block, { minLength: 1, maxLength: 2 }) }),
  { minLength: 1, maxLength: 40 },
);

/** The lines of a session written in order from `linearLog`'s turns: fresh uuids, each parent the line before. */
export function linearEntries(
  turns: { split: boolean; blocks: Record<string, unknown>[] }[],
): unknown[] {
  let parent: string | null = null;
  const entries: unknown[] = [];
  turns.forEach((turn, i) => {
    const type = i % 2 === 0 ? 'user' : 'assistant';
    const parts = type === 'assistant' && turn.split ? turn.blocks : [turn.blocks];
    for (const [j, part] of parts.entries()) {
      const id = `u${i}-${j}`;
      // Tool ids fresh per exchange: a reply's calls, and the next user line's results.
      const turnOf = (tool: unknown): string => `${String(tool)}-${Math.floor((i - 1) / 2)}`;
      const content = (Array.isArray(part) ? part : [part]).map((b: Record<string, unknown>) =>
        b.type === 'tool_use'
          ? { ...b, id: turnOf(b.id) }
          : b.type === 'tool_result'
            ? { ...b, tool_use_id: turnOf(b.tool_use_id) }
            : b,
      );
      entries.push({
        type,
        uuid: id,
        parentUuid: parent,
        sessionId: 's1',
        timestamp: `2026-01-01T10:${String(i % 60).padStart(2, '0')}:00Z`,
        message: { id: `m${i}`, model: 'claude-opus-4', content },
      });
      parent = id;
    }
  });
  return entries;
}
