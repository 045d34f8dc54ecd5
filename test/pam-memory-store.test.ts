import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contentHash } from '../src/model/content-hash.js';
import { integrityChecksum } from '../src/model/integrity.js';
import type { Memory } from '../src/model/pam.js';
import { tempDir } from './support/convert-to-temp.js';
import { pamConvert, pamValidate } from './support/pam-sdk.js';
import { pamConversationId } from '../src/providers/pam/to-conversation.js';
import { memoryStoreErrors } from './support/pam-validator.js';
import { CLI, chatgraph } from './support/run-cli.js';

// PAM 16.3: a full memory store another tool wrote, then an incremental export of it (one
// memory updated, one added, one retracted), merged into a data folder.

function memory(id: string, content: string, status: Memory['status'], updated?: string): Memory {
  return {
    id,
    type: 'preference',
    status,
    content,
    content_hash: contentHash(content),
    tags: ['kitchen'],
    temporal: { created_at: '2026-03-01T10:00:00Z', ...(updated ? { updated_at: updated } : {}) },
    provenance: { platform: 'manual', extraction_method: 'manual', extractor: 'other-tool/1.0.0' },
  };
}

function store(
  memories: Memory[],
  exportId: string,
  exportDate: string,
  base?: string,
  relations: Record<string, unknown>[] = [],
): Record<string, unknown> {
  return {
    schema: 'portable-ai-memory',
    schema_version: '1.0',
    export_id: exportId,
    exported_by: 'other-tool/1.0.0',
    export_date: exportDate,
    owner: { id: 'user-77' },
    memories,
    relations,
    integrity: {
      canonicalization: 'RFC8785',
      checksum: integrityChecksum(memories),
      total_memories: memories.length,
    },
    ...(base ? { export_type: 'incremental', base_export_id: base } : { export_type: 'full' }),
  };
}

const FULL_ID = '0d3f6a52-8a51-4c57-9f7e-1a2b3c4d5e01';
const DELTA_ID = '0d3f6a52-8a51-4c57-9f7e-1a2b3c4d5e02';

/** The two exports, each a memory store in its own folder, valid for PAM's schema. */
function exportsOnDisk(): { full: string; delta: string } {
  const dir = tempDir();
  const full = join(dir, 'full', 'memory-store.json');
  const delta = join(dir, 'delta', 'memory-store.json');
  mkdirSync(join(dir, 'full'));
  mkdirSync(join(dir, 'delta'));
  const fullStore = store(
    [
      memory('mem-1', 'Drinks oat milk', 'active'),
      memory('mem-2', 'Bakes bread on Saturdays', 'active'),
    ],
    FULL_ID,
    '2026-03-02T00:00:00Z',
  );
  const deltaStore = store(
    [
      memory('mem-1', 'Drinks oat milk', 'retracted', '2026-03-05T00:00:00Z'),
      memory('mem-2', 'Bakes bread on Sundays', 'active', '2026-03-05T00:00:00Z'),
      memory('mem-3', 'Keeps a rye starter called Gustav', 'active'),
    ],
    DELTA_ID,
    '2026-03-06T00:00:00Z',
    FULL_ID,
    [
      {
        id: 'rel-1',
        from: 'mem-3',
        to: 'mem-2',
        type: 'extends',
        confidence: 0.8,
        created_at: '2026-03-06T00:00:00Z',
      },
    ],
  );
  expect(memoryStoreErrors(fullStore)).toEqual([]);
  expect(memoryStoreErrors(deltaStore)).toEqual([]);
  writeFileSync(full, JSON.stringify(fullStore, null, 2));
  writeFileSync(delta, JSON.stringify(deltaStore, null, 2));
  return { full, delta };
}

const Memories = z.object({
  items: z.array(z.object({ id: z.string(), status: z.string(), content: z.string() })),
});

async function memories(data: string): Promise<[string, string, string][]> {
  const { code, stdout } = await chatgraph('memories', '--all', '--json', '--data-dir', data);
  expect(code).toBe(0);
  return Memories.parse(JSON.parse(stdout))
    .items.map((m): [string, string, string] => [m.id, m.status, m.content])
    .sort();
}

const MERGED = [
  ['mem-1', 'retracted', 'Drinks oat milk'],
  ['mem-2', 'active', 'Bakes bread on Sundays'],
  ['mem-3', 'active', 'Keeps a rye starter called Gustav'],
];

describe('PAM memory stores and their incremental exports', () => {
  it('merges an increment onto its full export: inserted, updated, retracted kept', async () => {
    expect(existsSync(CLI)).toBe(true);
    const { full, delta } = exportsOnDisk();
    const data = join(tempDir(), 'data');
    expect((await chatgraph('import', full, '--data-dir', data, '-q')).code).toBe(0);
    const merged = await chatgraph('import', delta, '--data-dir', data, '-q', '--verbose');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain(
      `incremental export ${DELTA_ID} merged onto ${FULL_ID}: 1 inserted, 1 updated, 1 retracted`,
    );
    expect(await memories(data)).toEqual(MERGED);
    // The bundle's store: every memory kept (the retracted one too), its checksum recomputed.
    const bundleStore = join(data, 'bundle', 'memory-store.json');
    const written = z
      .object({
        memories: z.array(z.object({ id: z.string() })),
        relations: z.array(z.record(z.string(), z.unknown())),
      })
      .parse(JSON.parse(readFileSync(bundleStore, 'utf8')));
    expect(written.memories.map((m) => m.id)).toEqual(['mem-1', 'mem-2', 'mem-3']);
    // The increment's relation (PAM 13) comes with its memories, into the bundle and the graph.
    expect(written.relations).toHaveLength(1);
    expect(written.relations[0]).toMatchObject({
      id: 'rel-1',
      from: 'mem-3',
      to: 'mem-2',
      type: 'extends',
      confidence: 0.8,
    });
    const walked = await chatgraph(
      'query',
      'MATCH (a:Memory)-[:EXTENDS]->(b:Memory) RETURN a.content AS a, b.content AS b',
      '--json',
      '--data-dir',
      data,
    );
    expect(walked.stdout).toContain('Keeps a rye starter called Gustav');
    expect(walked.stdout).toContain('Bakes bread on Sundays');
    const validated = pamValidate(join(data, 'bundle'));
    expect(validated.output).not.toMatch(/checksum/i);
    expect(validated.output).toContain('1 valid, 0 invalid');
    expect(validated.status).toBe(0);
    // The full export given again is known: it does not bring the retracted memory back.
    const again = await chatgraph('import', full, '--data-dir', data, '-q', '--verbose');
    expect(again.stdout).toContain('was merged before');
    expect(await memories(data)).toEqual(MERGED);
  });

  it('given together in any order, the full export is taken first', async () => {
    const { full, delta } = exportsOnDisk();
    const data = join(tempDir(), 'data');
    expect((await chatgraph('import', delta, full, '--data-dir', data, '-q')).code).toBe(0);
    expect(await memories(data)).toEqual(MERGED);
  });

  it('an increment of an export the folder has not taken in is refused, naming both', async () => {
    const { delta } = exportsOnDisk();
    const data = join(tempDir(), 'data');
    const { code, stdout } = await chatgraph('import', delta, '--data-dir', data, '-q');
    expect(code).toBe(2);
    expect(stdout).toContain('memory-store.json: an incremental export');
    expect(stdout).toMatch(
      new RegExp(`incremental export \\(${DELTA_ID}\\) of the export ${FULL_ID}`),
    );
  });

  it('a memory store that fails the schema says what is wrong', async () => {
    const dir = tempDir();
    const bad = join(dir, 'memory-store.json');
    writeFileSync(
      bad,
      JSON.stringify({ schema: 'portable-ai-memory', schema_version: '1.0', memories: [] }),
    );
    const { code, stdout } = await chatgraph('import', bad, '--data-dir', join(dir, 'data'), '-q');
    expect(code).toBe(2);
    expect(stdout).toMatch(/memory-store\.json: not a valid PAM memory store \(owner: Required\)/);
  });

  it('a memory keeps its link to a conversation of the input, mapped as its id was', async () => {
    const dir = tempDir();
    const bundle = join(dir, 'claude-pam');
    pamConvert(
      join(import.meta.dirname, 'fixtures', 'claude-ai', 'content-blocks-2025.json'),
      bundle,
    );
    // The SDK names the conversation by Claude's id, which is not a UUID here.
    const claudeId = 'e7c1c0nv-0002-4d2b-9c3e-000000209458';
    const linkedMemory = (id: string, content: string, ref: string): Memory => {
      const base = memory(id, content, 'active');
      return { ...base, provenance: { ...base.provenance, conversation_ref: ref } };
    };
    const memories = [
      linkedMemory('mem-a', 'Renames holiday photos by date', claudeId),
      linkedMemory('mem-b', 'Asked about a conversation never exported', 'gone-conversation'),
    ];
    const path = join(dir, 'memories', 'memory-store.json');
    mkdirSync(join(dir, 'memories'));
    writeFileSync(path, JSON.stringify(store(memories, FULL_ID, '2026-03-02T00:00:00Z')));
    const data = join(dir, 'data');
    const imported = await chatgraph('import', bundle, path, '--data-dir', data, '-q');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('1 memory named a conversation this bundle does not have');
    const written = z
      .object({
        memories: z.array(
          z.object({
            id: z.string(),
            provenance: z.object({ conversation_ref: z.string().optional() }),
          }),
        ),
      })
      .parse(JSON.parse(readFileSync(join(data, 'bundle', 'memory-store.json'), 'utf8')));
    expect(written.memories.map((m) => [m.id, m.provenance.conversation_ref])).toEqual([
      ['mem-a', pamConversationId(claudeId)],
      ['mem-b', undefined],
    ]);
    expect(
      existsSync(join(data, 'bundle', 'conversations', `${pamConversationId(claudeId)}.json`)),
    ).toBe(true);
    expect(pamValidate(join(data, 'bundle')).status).toBe(0);
  });
});
