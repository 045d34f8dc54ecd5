import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { indexForm, porterStem } from './porter-stem.js';

const WORDS = `decorators decorator decoration decorating organization organizing organize happiness
happy happily running runner runs ran caresses ponies ties caress cats feed agreed plastered bled
motoring sing conflated troubled sized hopping tanned falling hissing fizzed failing filing
relational conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli
analogousli vietnamization predication operator feudalism decisiveness hopefulness callousness
formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful
goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement
adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize
probate rate cease controll roll generalizations oscillators sourdough levain marathons tapering
kubernetes replication postgres lifetimes generics composting mortgages vacuuming crumbs
rebalancing starters smells chemicals acetone leaven dough proofing archaeology logician sky
skies dying lying tying agreement news bus buses`.split(/\s+/);

describe('porterStem', () => {
  it("stems as SQLite FTS5's porter tokenizer does", () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(w, tokenize = 'porter ascii')`);
    db.exec(`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')`);
    const insert = db.prepare('INSERT INTO t (rowid, w) VALUES (?, ?)');
    const stemOf = db.prepare(`SELECT term FROM v`).pluck();
    const mismatches = WORDS.flatMap((word) => {
      db.exec(`DELETE FROM t`);
      insert.run(1, word);
      const expected = stemOf.get();
      return expected === porterStem(word)
        ? []
        : [`${word}: ${String(expected)} ≠ ${porterStem(word)}`];
    });
    expect(mismatches).toEqual([]);
  });

  it('folds case and accents first, as unicode61 with remove_diacritics does', () => {
    expect(indexForm('Décorateurs')).toBe(indexForm('decorateurs'));
    expect(indexForm('Conversações')).toBe(porterStem('conversacoes'));
    expect(porterStem('ab')).toBe('ab');
  });
});
