import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { readMemoryStore } from '../src/bundle/read-memory-store.js';
import { chatgraph } from './support/run-cli.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { bundleAt } from './support/bundle-at.js';

describe('chatgraph memories, remember and forget', () => {
  const data = join(tempDir(), 'data');
  let hit: { conversationId: string; messageId: string; title: string };

  beforeAll(async () => {
    const imported = await chatgraph(
      'import',
      join(ROOT, 'samples', 'chatgpt-export.zip'),
      '--data-dir',
      data,
      '-q',
    );
    expect(imported.code, imported.stderr).toBe(0);
    const search = await chatgraph(
      'search',
      'hooch',
      '--per-message',
      '--mode',
      'keyword',
      '--format',
      'json',
      '--data-dir',
      data,
    );
    hit = (JSON.parse(search.stdout) as { hits: (typeof hit)[] }).hits[0] ?? hit;
  }, 120_000);

  it('remembers with a source, lists it by a word, finds it in search, forgets it', async () => {
    const made = await chatgraph(
      'remember',
      'Feeds the starter twice a day at 1:1:1',
      '--type',
      'preference',
      '--tag',
      'Baking',
      '--confidence',
      '0.6',
      '--conversation',
      hit.conversationId,
      '--message',
      hit.messageId,
      '--json',
      '--data-dir',
      data,
    );
    expect(made.code, made.stderr).toBe(0);
    const { memory, vector } = JSON.parse(made.stdout) as {
      memory: { id: string; tags: string[] };
      vector: { state: string };
    };
    expect(memory.tags).toEqual(['baking']);
    // A data folder never embedded: found by words until chatgraph embed.
    expect(vector.state).toBe('none');

    const listed = await chatgraph('memories', '--query', 'twice', '--data-dir', data);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(memory.id);
    expect(listed.stdout).toContain(`message ${hit.messageId}`);
    expect(listed.stdout).toContain('1–1 of 1');

    const search = await chatgraph('search', 'twice', '--mode', 'keyword', '--data-dir', data);
    expect(search.stdout).toContain(`memory ${memory.id}  [preference]`);
    const json = await chatgraph(
      'search',
      'twice',
      '--mode',
      'keyword',
      '--format',
      'json',
      '--data-dir',
      data,
    );
    const memories = (JSON.parse(json.stdout) as { memories: { kind: string; snippet: string }[] })
      .memories;
    expect(memories[0]).toMatchObject({
      kind: 'memory',
      snippet: 'Feeds the starter «twice» a day at 1:1:1',
    });

    const gone = await chatgraph('forget', memory.id, '--data-dir', data);
    expect(gone.code, gone.stderr).toBe(0);
    expect((await chatgraph('memories', '--query', 'twice', '--data-dir', data)).stdout).toContain(
      'no memories match',
    );
    const history = await chatgraph('memories', '--all', '--json', '--data-dir', data);
    expect(JSON.parse(history.stdout)).toMatchObject({
      total: 1,
      items: [{ status: 'retracted' }],
    });
    const plain = await chatgraph(
      'remember',
      'Bakes on Saturdays',
      '--type',
      'fact',
      '--data-dir',
      data,
    );
    expect(plain.stdout).toMatch(/^remembered: \S+\nfound by words; .*chatgraph embed/);
  });

  it('says what is wrong in one line with exit code 2', async () => {
    const type = await chatgraph('remember', 'x', '--type', 'opinion', '--data-dir', data);
    expect(type.code).toBe(2);
    expect(type.stderr).toMatch(
      /^chatgraph: --type opinion is not a memory type \(types: fact, .*\)\n$/,
    );
    const unknown = await chatgraph('forget', 'nope', '--data-dir', data);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: 'chatgraph: there is no memory with id nope\n',
    });
    const conversation = await chatgraph(
      'remember',
      'x',
      '--type',
      'fact',
      '--conversation',
      'nope',
      '--data-dir',
      data,
    );
    expect(conversation).toMatchObject({
      code: 2,
      stderr:
        'chatgraph: there is no conversation with id nope (the start of an id needs 8 characters at least)\n',
    });
    const huge = await chatgraph(
      'remember',
      'x'.repeat(20_001),
      '--type',
      'fact',
      '--data-dir',
      data,
    );
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(
      /^chatgraph: a memory is at most 20,000 characters and this one has 20,001/,
    );
  });

  it('relates a new memory to others by the relation flags, an id or its start each', async () => {
    const made = async (content: string, ...flags: string[]): Promise<string> => {
      const run = await chatgraph(
        'remember',
        content,
        '--type',
        'fact',
        ...flags,
        '--json',
        '--data-dir',
        data,
      );
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { memory: { id: string } }).memory.id;
    };
    const kiln = await made('The kiln fires at 1280 degrees');
    const glaze = await made('The glaze matures at cone 10');
    const note = await made(
      'Stoneware glazes need a hot kiln',
      '--supports',
      kiln.slice(0, 9),
      '--extends',
      glaze,
      '--contradicts',
      glaze,
      '--derived-from',
      kiln,
      '--related-to',
      glaze,
      '--related-to',
      kiln,
    );
    const relations = (await readMemoryStore(bundleAt(layoutOf(data).bundle.dir)))?.relations ?? [];
    expect(
      relations
        .filter((r) => r.from === note)
        .map((r) => `${r.type} ${r.to}`)
        .sort(),
    ).toEqual(
      [
        `supports ${kiln}`,
        `extends ${glaze}`,
        `contradicts ${glaze}`,
        `derived_from ${kiln}`,
        `related_to ${glaze}`,
        `related_to ${kiln}`,
      ].sort(),
    );
    const unknown = await chatgraph(
      'remember',
      'Kilns need vents',
      '--type',
      'fact',
      '--supports',
      'nope-nope-nope',
      '--data-dir',
      data,
    );
    expect(unknown).toMatchObject({
      code: 2,
      stderr: 'chatgraph: there is no memory with id nope-nope-nope to relate to\n',
    });
  });
});
