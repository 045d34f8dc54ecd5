import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/shared.js';

// Data from outside the process (SQLite and Neo4j rows, JSON read from disk or the network) is
// to be parsed at its boundary, never cast (issue 27). None is cast any more: a new cast fails
// here; parse the value (zod, or a narrowing helper in a measured hot path, or one of the page's
// readers in src/web/client/answers.ts) instead. Should one ever have to stay, list it here.
const REMAINING: Record<string, number> = {};

// A cast of what JSON.parse, a row read (`.get(` / `.all(`) or a response body gives, on one line
// (as prettier writes them). `as unknown` and `as const` are not casts of the data.
const CAST =
  /(JSON\.parse\(|\.get\(|\.all\(|\.iterate\(|\.json\(\)).*\)\s*as\s(?!const\b|unknown\b)/;

function castsBySource(): Record<string, number> {
  const found: Record<string, number> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) {
        const count = readFileSync(path, 'utf8')
          .split('\n')
          .filter((line) => CAST.test(line)).length;
        if (count > 0) found[relative(ROOT, path).split(sep).join('/')] = count;
      }
    }
  };
  walk(join(ROOT, 'src'));
  return found;
}

describe('casts of data from outside the process', () => {
  it('are listed, and none is added', () => {
    const found = castsBySource();
    const grown = Object.entries(found)
      .filter(([file, count]) => count > (REMAINING[file] ?? 0))
      .map(([file, count]) => `${file}: ${String(count)} (was ${String(REMAINING[file] ?? 0)})`);
    expect(grown, 'parse the value at its boundary instead of casting it').toEqual([]);
    const total = Object.values(found).reduce((a, b) => a + b, 0);
    // 51 when this list was made, 18 once the stores' rows were parsed, none once the SQLite
    // vector rows, the conversations read back and the page's answers were too.
    expect(total).toBe(0);
  });

  it('sees a cast where there is one', () => {
    expect(CAST.test('const rows = db.prepare(sql).all(id) as Row[];')).toBe(true);
    expect(CAST.test('const value = JSON.parse(text) as Conversation;')).toBe(true);
    expect(CAST.test('const value = JSON.parse(text) as unknown;')).toBe(false);
    expect(CAST.test('const schema = parse(readFileSync(file, "utf8"));')).toBe(false);
    expect(CAST.test('for (const row of statement.iterate() as Iterable<Row>) {')).toBe(true);
  });
});
