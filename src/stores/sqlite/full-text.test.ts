import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { toFtsQuery } from './fts-query.js';
import { TOKENIZER } from './full-text.js';

// Text in languages other than English, and the ways people type words of it.
const TEXTS = [
  'O café da manhã estava ótimo, com pão de queijo',
  'As conversações foram longas e produtivas',
  'Uma conversação sobre a migração dos dados',
  'Die Straße vor unseren Häusern wird gebaut',
  'Ça coûte très cher, mais la crème brûlée était délicieuse',
  '東京に行きました 東京 タワー',
  'Москва — столица России, встречи в Москве',
  'El niño comió mañana en la estación',
];

function words(): string[] {
  return [...new Set(TEXTS.flatMap((t) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []))];
}

function searchBoth(): (query: string) => { before: number[]; after: number[] } {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE m (content TEXT)`);
  db.exec(
    `CREATE VIRTUAL TABLE before USING fts5(content, content='m', tokenize='unicode61 remove_diacritics 2')`,
  );
  db.exec(`CREATE VIRTUAL TABLE after USING fts5(content, content='m', tokenize='${TOKENIZER}')`);
  for (const text of TEXTS) db.prepare(`INSERT INTO m (content) VALUES (?)`).run(text);
  db.exec(
    `INSERT INTO before (before) VALUES ('rebuild'); INSERT INTO after (after) VALUES ('rebuild')`,
  );
  const run = (table: string, match: string): number[] =>
    db
      .prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid`)
      .pluck()
      .all(match) as number[];
  return (query) => {
    const match = toFtsQuery(query)?.match ?? '';
    return { before: run('before', match), after: run('after', match) };
  };
}

describe('the stemming tokenizer on text that is not English', () => {
  it('finds everything the unstemmed tokenizer found: words, accent-free spellings, prefixes, phrases', () => {
    const search = searchBoth();
    const queries = words().flatMap((w) => {
      const bare = w.normalize('NFD').replace(/\p{M}/gu, '');
      // Words here are letters and digits only: code points are whole characters.
      const chars = Array.from(w);
      const prefixes =
        chars.length > 3
          ? [`${chars.slice(0, 3).join('')}*`, `${chars.slice(0, -1).join('')}*`]
          : [];
      return [w, bare, ...prefixes];
    });
    queries.push('"café da manhã"', '"cafe da manha"', '"conversação sobre"', '東京*', 'タワー');
    const worse = queries.flatMap((q) => {
      const { before, after } = search(q);
      return before.every((id) => after.includes(id))
        ? []
        : [`${q}: ${before.join(',')} → ${after.join(',')}`];
    });
    expect(worse).toEqual([]);
    // Not only no worse: every word still finds its text.
    expect(search('conversações').after).toEqual([2]);
    expect(search('cafe').after).toEqual([1]);
  });
});
