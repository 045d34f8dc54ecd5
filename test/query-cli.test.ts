import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
let data: string;

function query(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, 'query', '--data-dir', data, ...args], {
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(async () => {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify([branchedConversation('conv-a', 'Sourdough starter')]));
  data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
});

describe('chatgraph query at its limits', () => {
  it('refuses the hidden write with exit 2 and one sentence, and the graph is unchanged', () => {
    const write = query(
      "MATCH (c:Conversation) WHERE c.source <> 'x//' REMOVE c:Conversation SET c:Project RETURN count(c)",
    );
    expect(write.status).toBe(2);
    expect(write.stderr).toBe(
      'chatgraph: writes are refused: this store is read-only through Cypher (found REMOVE)\n',
    );
    const count = query('MATCH (c:Conversation) RETURN count(c) AS n', '--format', 'json');
    expect(JSON.parse(count.stdout)).toEqual([{ n: 1 }]);
  });

  it('stops a memory-eater at --query-memory and a slow query at --query-timeout, exit 2', () => {
    const memory = query(
      'UNWIND range(1, 100000000) AS x RETURN collect(x) AS c',
      '--query-memory',
      '300',
    );
    expect(memory.status).toBe(2);
    expect(memory.stderr).toBe(
      'chatgraph: the query needed more than 300 MB and was stopped (the limit is set with --query-memory)\n',
    );
    const slow = query(
      'UNWIND range(1, 30000) AS a RETURN sum(reduce(s = 0, x IN range(1, 3000) | s + x * a)) AS n',
      '--query-timeout',
      '1.5',
    );
    expect(slow.status).toBe(2);
    expect(slow.stderr).toBe(
      'chatgraph: the query ran longer than 1.5 s and was stopped (the limit is set with --query-timeout)\n',
    );
    const bad = query('RETURN 1', '--query-timeout', 'soon');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('chatgraph: --query-timeout takes a positive number, not "soon"\n');
  });
});
