import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
import { tempDir } from './support/convert-to-temp.js';
import { useNeo4j } from './support/neo4j-shared.js';
import { ROOT } from './support/shared.js';

const server = useNeo4j();

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('chatgraph list on Neo4j', () => {
  it('lists, filters and sorts as on the embedded store', async () => {
    process.env.NEO4J_PASSWORD = server.target.password;
    const data = tempDir();
    const samples = ['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map((n) =>
      join(ROOT, 'samples', n),
    );
    const neo4j = ['--neo4j', server.target.url, '--user', server.target.user];
    expect((await cli('import', ...samples, '--data-dir', data, '-q')).code).toBe(0);
    expect((await cli('push', '--data-dir', data, '-q', ...neo4j)).code).toBe(0);
    const asked = [
      ['--source', 'claude-code', '--sort', 'messages'],
      ['--project', 'budget', '--sort', 'title'],
      ['--min-messages', '6', '--sort', 'created'],
      ['--branches'],
      ['--sort', 'updated', '--limit', '7', '--offset', '3'],
      ['--title', 'BREAD', '--sort', 'title'],
    ];
    for (const filter of asked) {
      const embedded = await cli('list', '--data-dir', data, ...filter, '--json');
      const graph = await cli('list', '--data-dir', data, ...neo4j, ...filter, '--json');
      expect(graph.code).toBe(0);
      expect({ filter, page: JSON.parse(graph.out) as unknown }).toEqual({
        filter,
        page: JSON.parse(embedded.out) as unknown,
      });
    }
    const table = await cli('list', '--data-dir', data, ...neo4j, '--limit', '3');
    expect(table.out.split('\n').at(-1)).toBe('1–3 of 48 conversations (--offset 3 for more)');
  }, 600_000);
});
