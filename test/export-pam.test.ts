import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './support/convert-to-temp.js';
import { pamValidate } from './support/pam-sdk.js';
import { CLI, chatgraph } from './support/run-cli.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'chatgpt', 'kitchen-forks.json');

const Written = z.object({
  exportType: z.enum(['full', 'incremental']),
  exportId: z.string(),
  baseExportId: z.string().nullable(),
  memories: z.number(),
  retracted: z.number(),
  conversations: z.number(),
});

const Store = z.object({
  export_id: z.string(),
  export_type: z.string(),
  base_export_id: z.string().optional(),
  memories: z.array(z.object({ id: z.string(), status: z.string() })),
  relations: z.array(z.object({ from: z.string(), to: z.string(), type: z.string() })),
});

async function run(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await chatgraph(...args);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return stdout;
}

async function exportPam(
  data: string,
  out: string,
  ...more: string[]
): Promise<z.infer<typeof Written>> {
  return Written.parse(
    JSON.parse(await run('export-pam', '--data-dir', data, '--out', out, '--json', ...more)),
  );
}

const Memories = z.object({
  items: z.array(z.object({ id: z.string(), status: z.string(), content: z.string() })),
});

async function memories(data: string): Promise<string[]> {
  const listed = Memories.parse(
    JSON.parse(await run('memories', '--all', '--json', '--data-dir', data)),
  );
  return listed.items.map((m) => `${m.id} ${m.status} ${m.content}`).sort();
}

function conversationFiles(bundle: string): Record<string, unknown> {
  const dir = join(bundle, 'conversations');
  return Object.fromEntries(
    readdirSync(dir).map((name) => {
      const { import_metadata: _meta, ...content } = z
        .record(z.string(), z.unknown())
        .parse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
      return [name, content];
    }),
  );
}

describe('export-pam', () => {
  it('a full export, then what changed since, each valid for pam validate and read back whole', async () => {
    expect(existsSync(CLI)).toBe(true);
    const dir = tempDir();
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    await run('import', FIXTURE, '--data-dir', a, '-q');
    const first = /remembered: (\S+)/.exec(
      await run(
        'remember',
        'Proofs dough in the oven with the light on',
        '--type',
        'fact',
        '--conversation',
        'c0a1f7e4',
        '--data-dir',
        a,
      ),
    )?.[1];
    if (first === undefined) throw new Error('remember printed no id');
    const gone = /remembered: (\S+)/.exec(
      await run(
        'remember',
        'Kitchen is 16 degrees',
        '--type',
        'context',
        '--supports',
        first,
        '--data-dir',
        a,
      ),
    )?.[1];
    if (gone === undefined) throw new Error('remember printed no id');

    const full = await exportPam(a, join(dir, 'full'));
    expect(full).toMatchObject({
      exportType: 'full',
      baseExportId: null,
      memories: 2,
      conversations: 1,
    });
    expect(pamValidate(join(dir, 'full'))).toMatchObject({ status: 0 });
    // The relation between the two memories goes out with them (PAM 13).
    const fullStore = Store.parse(
      JSON.parse(readFileSync(join(dir, 'full', 'memory-store.json'), 'utf8')),
    );
    expect(fullStore.relations).toEqual([
      expect.objectContaining({ from: gone, to: first, type: 'supports' }),
    ]);
    await run('import', join(dir, 'full'), '--data-dir', b, '-q');
    expect(await memories(b)).toEqual(await memories(a));
    expect(conversationFiles(join(b, 'bundle'))).toEqual(conversationFiles(join(a, 'bundle')));

    const since = new Date().toISOString();
    await sleep(5);
    await run('forget', gone, '--data-dir', a);
    await run('remember', 'Bakes on Sundays', '--type', 'fact', '--data-dir', a);
    const delta = await exportPam(a, join(dir, 'delta'), '--since', since);
    expect(delta).toMatchObject({
      exportType: 'incremental',
      baseExportId: full.exportId,
      memories: 2,
      retracted: 1,
      conversations: 0,
    });
    const validated = pamValidate(join(dir, 'delta'));
    expect(validated.output).toContain('1 valid, 0 invalid');
    const store = Store.parse(
      JSON.parse(readFileSync(join(dir, 'delta', 'memory-store.json'), 'utf8')),
    );
    expect(store).toMatchObject({ export_type: 'incremental', base_export_id: full.exportId });
    expect(store.memories.find((m) => m.id === gone)?.status).toBe('retracted');

    await run('import', join(dir, 'delta'), '--data-dir', b, '-q');
    expect(await memories(b)).toEqual(await memories(a));
    expect(await memories(b)).toContain(`${gone} retracted Kitchen is 16 degrees`);
  });

  it('an incremental export with no full one written before is refused, as is a folder in use', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await run('import', FIXTURE, '--data-dir', data, '-q');
    const lone = await chatgraph(
      'export-pam',
      '--data-dir',
      data,
      '--out',
      join(dir, 'x'),
      '--since',
      '7d',
    );
    expect(lone.code).toBe(2);
    expect(lone.stderr).toMatch(/has written none: run export-pam without --since first/);
    const taken = await chatgraph('export-pam', '--data-dir', data, '--out', join(data, 'bundle'));
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/is not empty/);
  });
});
