import { describe, expect, it } from 'vitest';
import { serverMajor } from './neo4j-connect.js';
import { toLuceneQuery } from './lucene-query.js';
import { neo4jTarget } from './neo4j-target.js';

describe('neo4jTarget', () => {
  it('takes options before the NEO4J_* variables, and the password only from the environment', () => {
    const env = {
      NEO4J_URI: 'bolt://env:7687',
      NEO4J_USERNAME: 'envuser',
      NEO4J_PASSWORD: 'pw',
      NEO4J_DATABASE: 'envdb',
    };
    expect(neo4jTarget({}, env)).toEqual({
      url: 'bolt://env:7687',
      user: 'envuser',
      password: 'pw',
      database: 'envdb',
    });
    expect(neo4jTarget({ url: 'neo4j+s://x.databases.neo4j.io', user: 'me' }, env)).toEqual({
      url: 'neo4j+s://x.databases.neo4j.io',
      user: 'me',
      password: 'pw',
      database: 'envdb',
    });
    expect(neo4jTarget({}, {})).toBeUndefined();
    // A password given (the CLI's config file) is used when the environment has none.
    expect(neo4jTarget({ url: 'bolt://h', password: 'file' }, env)?.password).toBe('pw');
    expect(neo4jTarget({ url: 'bolt://h', password: 'file' }, {})?.password).toBe('file');
    expect(neo4jTarget({ url: 'bolt://h' }, {})).toEqual({
      url: 'bolt://h',
      user: 'neo4j',
      password: '',
    });
  });
});

describe('serverMajor', () => {
  it('reads the major version from the agent string', () => {
    expect(serverMajor('Neo4j/5.26.30')).toBe(5);
    expect(serverMajor('Neo4j/4.4.12')).toBe(4);
    expect(serverMajor('Memgraph/2.1')).toBeUndefined();
  });
});

describe('toLuceneQuery', () => {
  it('requires every term, quotes phrases, keeps prefixes and escapes Lucene syntax', () => {
    expect(toLuceneQuery('sourdough "proofing time" bake*')).toBe(
      '(+sourdough +"proofing time" +(bake* OR bake))',
    );
    expect(toLuceneQuery('C++ a:b x')).toBe('(+c\\+\\+ +a\\:b +x)');
    expect(toLuceneQuery('sourdough OR marathon')).toBe('(sourdough OR marathon)');
    expect(toLuceneQuery('sourdough NOT levain -"wild yeast"')).toBe(
      '(+sourdough -levain -"wild yeast")',
    );
    expect(toLuceneQuery('bread (rye OR spelt) -(white sugar)')).toBe(
      '(+bread +(rye OR spelt) -(+white +sugar))',
    );
    // Lower-case operators are words; alone, upper-case ones leave nothing to look for.
    expect(toLuceneQuery('and or')).toBe('(+and +or)');
    expect(toLuceneQuery('AND OR')).toBeUndefined();
    expect(toLuceneQuery('the sourdough')).toBe('+sourdough');
    expect(toLuceneQuery('*** ---')).toBeUndefined();
  });
});
