import type { TokenCell, TokenTotals, UsageGrain } from './usage-reader.js';

const COUNTS = ['input', 'output', 'cacheRead', 'cacheCreation', 'reasoning'] as const;

/** The cell's key: all it is summed by. */
export function cellKey(cell: TokenCell): string {
  return [
    cell.group ?? '\u0001',
    cell.title,
    cell.source,
    cell.model,
    cell.long ? '1' : '0',
    cell.readsCache ? '1' : '0',
    cell.writesCache ? '1' : '0',
  ].join('\u0000');
}

/** Cells of one key summed into one, in the order of their keys (a sum in the same order each time). */
export function mergedCells(cells: readonly TokenCell[]): TokenCell[] {
  const byKey = new Map<string, TokenCell>();
  for (const cell of cells) {
    const key = cellKey(cell);
    const seen = byKey.get(key);
    if (seen) for (const field of COUNTS) seen[field] += cell[field];
    else byKey.set(key, { ...cell });
  }
  return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, cell]) => cell);
}

/**
 * Quarter hours summed to a report's grain one by one: the store that keeps no sums of its own
 * (Neo4j), estimates, a store too old for its sums, and the check of the embedded store's sums.
 */
export function cellsOf(totals: TokenTotals, grain: UsageGrain): TokenCell[] {
  const conversations = new Map(totals.conversations.map((c) => [c.id, c]));
  const days = new Map<string, string>();
  const dayOf = (slot: string): string | null => {
    if (slot === '' || grain.by !== 'day') return null;
    let day = days.get(slot);
    if (day === undefined) {
      day = grain.dayOf(slot);
      days.set(slot, day);
    }
    return day;
  };
  const cells = totals.slots.map((slot): TokenCell => {
    const conversation = conversations.get(slot.conversationId);
    return {
      group:
        grain.by === 'day'
          ? dayOf(slot.slot)
          : grain.by === 'session'
            ? slot.conversationId
            : grain.by === 'project'
              ? (conversation?.project ?? null)
              : null,
      title: grain.by === 'session' ? (conversation?.title ?? '') : '',
      source: conversation?.source ?? '',
      model: slot.model,
      long: slot.long,
      readsCache: slot.cacheRead > 0,
      writesCache: slot.cacheCreation > 0,
      input: slot.input,
      output: slot.output,
      cacheRead: slot.cacheRead,
      cacheCreation: slot.cacheCreation,
      reasoning: slot.reasoning,
    };
  });
  return mergedCells(cells);
}
