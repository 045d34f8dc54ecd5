import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { WHITE_SPACE_CODE_POINTS, holdsText } from '../../model/white-space.js';
import { sqlHoldsText } from './sqlite-white-space.js';

describe('white space, in the store as in the code', () => {
  it('lists every code point that is white space, and no other', () => {
    const found: number[] = [];
    for (let point = 0; point <= 0x10ffff; point++) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      if (!holdsText(String.fromCodePoint(point))) found.push(point);
    }
    expect(found).toEqual(WHITE_SPACE_CODE_POINTS);
  });

  it('decides in SQLite as holdsText does', () => {
    const db = new Database(':memory:');
    try {
      const sql = db.prepare(`SELECT ${sqlHoldsText('?')}`).pluck();
      const texts = [
        '',
        '\n\n',
        '\t',
        ...WHITE_SPACE_CODE_POINTS.map((point) => ` ${String.fromCodePoint(point)}\n`),
        String.fromCodePoint(...WHITE_SPACE_CODE_POINTS),
        'a',
        '\n\ta\u3000',
        '\u200b',
        'é',
        '猫',
        '🙂',
      ];
      for (const text of texts)
        expect({ text, holds: sql.get(text) === 1 }).toEqual({ text, holds: holdsText(text) });
      expect(sql.get(null)).toBe(0);
    } finally {
      db.close();
    }
  });
});
