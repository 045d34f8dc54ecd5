import { appendFileSync, mkdtempSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTail } from './session-tail.js';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'chatgraph-tail-')), 'log.jsonl');
  writeFileSync(path, text);
  return path;
}

const values = (read: Awaited<ReturnType<typeof readTail>>) =>
  read.lines.map((l) => (l.ok ? l.value : l.message));

describe('reading what was appended to a JSON Lines log', () => {
  it('reads only the new lines from the mark, with their line numbers', async () => {
    const path = file('{"n":1}\n{"n":2}\n');
    const first = await readTail(path, undefined);
    expect(values(first)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(first.mark.offset).toBe(16);
    appendFileSync(path, '\n{"n":3}\n');
    const next = await readTail(path, first.mark);
    expect(next.rewritten).toBe(false);
    expect(next.lines).toEqual([{ line: 4, ok: true, value: { n: 3 } }]);
    expect(next.bytes.toString()).toBe('\n{"n":3}\n');
    const none = await readTail(path, next.mark);
    expect(none.lines).toEqual([]);
  });

  it('leaves a cut-off last line waiting, and takes a whole one once settled', async () => {
    const path = file('{"n":1}\n{"n":');
    const cut = await readTail(path, undefined);
    expect(values(cut)).toEqual([{ n: 1 }]);
    expect(cut.waiting).toBe(true);
    // Settled but still not JSON: it waits on.
    const still = await readTail(path, cut.mark, true);
    expect(still.waiting).toBe(true);
    expect(still.lines).toEqual([]);
    appendFileSync(path, '2}');
    // Whole but without its newline: it may still grow, so it waits until settled.
    expect((await readTail(path, cut.mark)).waiting).toBe(true);
    const settled = await readTail(path, cut.mark, true);
    expect(values(settled)).toEqual([{ n: 2 }]);
    expect(settled.waiting).toBe(false);
    // The newline that comes later adds nothing.
    appendFileSync(path, '\n');
    expect((await readTail(path, settled.mark)).lines).toEqual([]);
  });

  it('reads the whole file again when its start changed, it shrank, or it was replaced', async () => {
    const path = file('{"n":1}\n{"n":2}\n');
    const mark = (await readTail(path, undefined)).mark;
    writeFileSync(path, '{"n":9}\n{"n":2}\n{"n":3}\n');
    const changed = await readTail(path, mark);
    expect(changed.rewritten).toBe(true);
    expect(values(changed)).toEqual([{ n: 9 }, { n: 2 }, { n: 3 }]);
    truncateSync(path, 8);
    const shrunk = await readTail(path, changed.mark);
    expect(shrunk.rewritten).toBe(true);
    expect(values(shrunk)).toEqual([{ n: 9 }]);
    // Another file moved in under the name (same bytes, another inode).
    const other = file('{"n":9}\n');
    renameSync(other, path);
    const replaced = await readTail(path, shrunk.mark);
    expect(replaced.rewritten).toBe(true);
    expect(values(replaced)).toEqual([{ n: 9 }]);
  });

  it('reports a line that is not JSON and goes on', async () => {
    const path = file('{"n":1}\nnot json\n{"n":3}\n');
    const read = await readTail(path, undefined);
    expect(read.lines.map((l) => [l.line, l.ok])).toEqual([
      [1, true],
      [2, false],
      [3, true],
    ]);
  });
});
