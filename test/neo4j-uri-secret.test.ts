import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph, chatgraphWith } from './support/run-cli.js';

// Issue 41, point 10: a password written into a Neo4j URI (bolt://user:password@host) is never
// printed: not by `config`, not in an error, not by `doctor`. Nothing listens on port 1.

const SECRET = 'Sup3rSecretPw';
const URIS = [
  `bolt://neo4j:${SECRET}@127.0.0.1:1`,
  `neo4j+s://reader:${SECRET}@127.0.0.1:1/`,
  `bolt//neo4j:${SECRET}@127.0.0.1:1`,
];

describe('a Neo4j URI with a password in it (issue 41, point 10)', () => {
  for (const uri of URIS) {
    it(`never prints the password of ${uri.replace(SECRET, '…')}`, async () => {
      const data = join(tempDir(), 'data');
      const runs = [
        await chatgraph('config', '--neo4j', uri, '--data-dir', data),
        await chatgraph('config', '--neo4j', uri, '--data-dir', data, '--json'),
        await chatgraphWith({ NEO4J_URI: uri }, 'config', '--data-dir', data),
        await chatgraph('stats', '--neo4j', uri, '--data-dir', data),
        await chatgraph('list', '--neo4j', uri, '--data-dir', data, '--json'),
        await chatgraph('doctor', '--neo4j', uri, '--data-dir', data),
      ];
      for (const run of runs) {
        const said = `${run.stdout}${run.stderr}`;
        expect(said, said).not.toContain(SECRET);
      }
      // Where the address is said, it is said with its password masked.
      expect(`${runs[0]?.stdout ?? ''}${runs[3]?.stderr ?? ''}`).toMatch(/:\*\*\*@127\.0\.0\.1:1/);
    }, 120_000);
  }
});
