import { plural } from '../model/plural.js';
/** How deep a record's JSON may nest; deeper values are cut (no export needs a tenth of it). */
export const MAX_RECORD_DEPTH = 200;

/** What stands where a value nested too deep was cut. */
export const CUT_MARK = '[cut: nested too deep]';

/**
 * Cuts, in place, every object or array nested deeper than `maxDepth` in a parsed value,
 * replacing it with {@link CUT_MARK}, and returns how many were cut. The walk is iterative:
 * `JSON.parse` reads any depth, but writing (`JSON.stringify`, indented) recurses and grows
 * with depth squared (22 KB of brackets became a 200 MB file), so the bound is set on reading.
 */
export function boundDepth(value: unknown, maxDepth = MAX_RECORD_DEPTH): number {
  let cut = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node !== 'object') continue;
    const container = node as Record<string, unknown>;
    for (const key of Object.keys(container)) {
      const child = container[key];
      if (child === null || typeof child !== 'object') continue;
      if (depth + 1 >= maxDepth) {
        container[key] = CUT_MARK;
        cut++;
      } else stack.push([child, depth + 1]);
    }
  }
  return cut;
}

/** The report's sentence for values cut by {@link boundDepth}. */
export function depthCutMessage(cuts: number): string {
  return `${plural(cuts, 'value')} nested deeper than ${MAX_RECORD_DEPTH} levels ${cuts === 1 ? 'was' : 'were'} cut (written as "${CUT_MARK}"); the rest of the record is kept`;
}
