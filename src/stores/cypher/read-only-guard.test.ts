import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueryError } from '../store.js';
import { codeOnly, tokenize } from './cypher-tokens.js';
import { assertReadOnly } from './read-only-guard.js';

const refused = (query: string): boolean => {
  try {
    assertReadOnly(query);
    return false;
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return true;
  }
};

describe('the read-only guard', () => {
  it('refuses the write that hid behind // inside a string', () => {
    expect(
      refused(
        "MATCH (c:Conversation) WHERE c.source <> 'x//' REMOVE c:Conversation SET c:Project RETURN count(c)",
      ),
    ).toBe(true);
    expect(refused('MATCH (c) WHERE c.name = "a//" DETACH DELETE c')).toBe(true);
    expect(refused("MATCH (c) WHERE c.name = 'it\\'s // fine' SET c.x = 1")).toBe(true);
    expect(refused("MATCH (c) WHERE c.name = '/*' SET c.x = 1 RETURN '*/'")).toBe(true);
  });

  it('refuses every kind of write and reach outside the graph', () => {
    for (const query of [
      'CREATE (n:Message {id: 1})',
      'merge (n:Source {name: "x"})',
      'MATCH (n) SET n.x = 1',
      'MATCH (n) REMOVE n:Message',
      'MATCH (n) DELETE n',
      'MATCH (n) DETACH DELETE n',
      'DROP INDEX x',
      'LOAD CSV FROM "file:///etc/passwd" AS row RETURN row',
      'MATCH (n) CALL { WITH n SET n.x = 1 } IN TRANSACTIONS',
      'MATCH (n) FOREACH (x IN [1] | SET n.y = x)',
      'INSERT (:Message {id: 1})',
      'USE system SHOW USERS',
      'TERMINATE TRANSACTIONS "x"',
      'CALL grafeo.floyd_warshall()',
      'CALL grafeo.betweenness_centrality() YIELD node_id RETURN node_id',
      'CALL dbms.killQuery("x")',
      'CALL apoc.create.node(["X"], {})',
      'CALL `db`.`create`.setNodeVectorProperty(n, "x", [1])',
      'MATCH (n) /* a */ SET /* b */ n.x = 1',
    ])
      expect(refused(query), query).toBe(true);
  });

  it('lets reads through, keywords in strings, comments, names and properties included', () => {
    for (const query of [
      'MATCH (c:Conversation) RETURN c.name',
      "MATCH (m:Message) WHERE m.content CONTAINS 'CREATE TABLE; SET x = 1' RETURN m.id",
      'MATCH (m:Message) // DELETE everything\nRETURN count(m)',
      'MATCH (m:Message) /* SET n.x = 1 */ RETURN count(m)',
      'MATCH (m:Message) RETURN m.set, m.`delete` AS `create`',
      'MATCH (m:Message) WHERE m.content = $set RETURN m',
      'CALL db.labels() YIELD label RETURN label',
      'CALL grafeo.pagerank() YIELD node_id, score RETURN count(*)',
      'MATCH (c:Conversation) CALL { WITH c MATCH (c)-[:HAS_MESSAGE]->(m) RETURN count(m) AS n } RETURN n',
      'RETURN \'it\\\'s\' AS a, "say \\"hi\\"" AS b, 1..3 AS r',
    ])
      expect(refused(query), query).toBe(false);
  });

  it('refuses a query of nothing but whitespace and comments', () => {
    expect(refused('')).toBe(true);
    expect(refused(' // nothing\n /* at all */ ')).toBe(true);
  });

  it('refuses a string, comment or name left open rather than guessing', () => {
    expect(refused("MATCH (n) WHERE n.x = 'open RETURN n")).toBe(true);
    expect(refused('MATCH (n) /* open RETURN n')).toBe(true);
    expect(refused('MATCH (`open) RETURN 1')).toBe(true);
  });

  it('blanks strings and comments for the footprint', () => {
    const code = codeOnly("MATCH (n:A) WHERE n.x = '(m:B)' // (k:C)\nRETURN n /* (j:D) */");
    expect(code).toContain('(n:A)');
    expect(code).toContain("n.x = ''");
    expect(code).not.toMatch(/:B|:C|:D/);
  });
});

// Token soup: pieces whose meaning is known, joined by spaces. A write keyword as a bare word
// must be refused; the same word inside a string, comment or backtick name must not be.
const WRITE_WORDS = [
  'CREATE',
  'merge',
  'SET',
  'Remove',
  'DELETE',
  'DETACH',
  'DROP',
  'FOREACH',
  'LOAD',
  'INSERT',
];
const READ_WORDS = [
  'MATCH',
  'WHERE',
  'RETURN',
  'WITH',
  'UNWIND',
  'ORDER',
  'BY',
  'LIMIT',
  'n',
  'm.x',
  'count(n)',
  '(n:Message)',
  '-[:NEXT]->',
  '=',
  '<>',
  ',',
  '{',
  '}',
  ':',
  'n.set',
  'm.delete',
  '$create',
];
const text = fc.string({
  unit: fc.constantFrom('a', ' ', "'", '"', '\\', '/', '*', '`', '\n', 'S', 'E', 'T', 'x'),
});
const piece = fc.oneof(
  fc.constantFrom(...WRITE_WORDS).map((w) => ({ text: w, writes: true })),
  fc.constantFrom(...READ_WORDS).map((w) => ({ text: w, writes: false })),
  fc.tuple(fc.constantFrom("'", '"'), text, fc.constantFrom(...WRITE_WORDS)).map(([q, s, w]) => ({
    text: `${q}${(s + w + '//').replace(/\\/g, '\\\\').replaceAll(q, `\\${q}`)}${q}`,
    writes: false,
  })),
  fc.tuple(text, fc.constantFrom(...WRITE_WORDS)).map(([s, w]) => ({
    text: `// ${w} ${s.replace(/\n/g, ' ')}\n`,
    writes: false,
  })),
  fc.tuple(text, fc.constantFrom(...WRITE_WORDS)).map(([s, w]) => ({
    text: `/* ${w} ${s.replaceAll('*/', '')} */`,
    writes: false,
  })),
  fc.tuple(text, fc.constantFrom(...WRITE_WORDS)).map(([s, w]) => ({
    text: `\`${w}${s.replaceAll('`', '``')}\``,
    writes: false,
  })),
);

describe('the read-only guard on token soup', () => {
  it('refuses exactly the soups with a write keyword outside strings, comments and names', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }), (pieces) => {
        const query = pieces.map((p) => p.text).join(' ');
        const code = pieces.some((p) => !p.text.startsWith('//') && !p.text.startsWith('/*'));
        // Nothing but comments: the query is empty, and refused as such.
        expect(refused(query)).toBe(pieces.some((p) => p.writes) || !code);
      }),
      { numRuns: 2000 },
    );
  });

  it('tokenizes any text without failing other than with a QueryError', () => {
    fc.assert(
      fc.property(fc.string(), (query) => {
        try {
          tokenize(query);
        } catch (error) {
          expect(error).toBeInstanceOf(QueryError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
