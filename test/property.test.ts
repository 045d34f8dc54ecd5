import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversionContext } from '../src/providers/provider.js';
import { PROVIDERS, findProvider } from '../src/providers/registry.js';
import { projectPlatformProjects } from '../src/graph/platform-projects.js';
import { corpusOf, fixturesOf, itReadsTheCorpus } from './support/shared.js';
import { parseRecord } from '../src/read/record.js';
import { openSource } from '../src/read/open-source.js';
import { conversationErrors, memoryStoreErrors } from './support/pam-validator.js';
import { toMemoryStore } from '../src/bundle/memory-store.js';
import { InlineTexts } from '../src/bundle/inline-text.js';
import { convertToTemp } from './support/convert-to-temp.js';
import { allAgentRecords, valueOf } from './support/agent-samples.js';
import { sqliteRecordsOf } from './support/sqlite-fixtures.js';

function context(): ConversionContext {
  return {
    record: '#0',
    file: 'test.json',
    fallbackTime: undefined,
    report: () => undefined,
    resolveAsset: () => undefined,
    attachText: new InlineTexts().attach,
  };
}

/** Replaces one randomly chosen value deep inside `value` with `replacement`. */
function mutate(value: unknown, path: number[], replacement: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return replacement;
  const [step = 0, ...rest] = path;
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const i = step % value.length;
    return (value as unknown[]).map((item, k) =>
      k === i ? mutate(item, rest, replacement) : item,
    );
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[step % keys.length] as string;
  return {
    ...(value as Record<string, unknown>),
    [key]: mutate((value as Record<string, unknown>)[key], rest, replacement),
  };
}

// Our fixtures of a source, then its public samples when the corpus is there.
const inputsOf = (folder: string): string[] => [...fixturesOf(folder), ...corpusOf(folder)];

/**
 * The first record of each JSON file a fixture holds: the file itself, or, for a fixture that
 * is a whole export (a folder of shards, manifests and the 2026 Claude.ai zips), every JSON file
 * in it, zips opened as the importer opens them.
 */
async function firstRecordsOf(path: string): Promise<unknown[]> {
  const first = (text: string): unknown => {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed[0] as unknown) : parsed;
  };
  if (!statSync(path).isDirectory()) return [first(readFileSync(path, 'utf8'))];
  const source = await openSource(path);
  try {
    const records: unknown[] = [];
    for (const entry of source.entries.filter((e) => e.path.endsWith('.json'))) {
      const chunks: Buffer[] = [];
      for await (const chunk of (await entry.open()) as AsyncIterable<Buffer>) chunks.push(chunk);
      records.push(first(Buffer.concat(chunks).toString('utf8')));
    }
    return records;
  } finally {
    await source.close();
  }
}

// Each SQLite agent's sessions, as the read layer hands them to its provider.
const SQLITE_AGENTS = ['opencode', 'goose', 'zed', 'cursor', 'kiro'];
const agentRecords: Record<string, unknown[]> = {};
for (const folder of SQLITE_AGENTS)
  agentRecords[folder] = (
    await Promise.all(
      fixturesOf(folder)
        .filter((p) => p.endsWith('.sql'))
        .map((p) => sqliteRecordsOf(p)),
    )
  ).flat();

const jsonRecords: unknown[] = [];
for (const path of [...inputsOf('chatgpt'), ...inputsOf('claude-ai'), ...fixturesOf('deepseek')])
  jsonRecords.push(...(await firstRecordsOf(path)));

// PAM conversation files: as chatgraph writes them, and with every null left out, as the
// official SDK writes them (the pam provider reads both).
const withoutNulls = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutNulls)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== null)
            .map(([k, v]) => [k, withoutNulls(v)]),
        )
      : value;
const pamConversations = (
  await convertToTemp(fixturesOf('chatgpt').filter((p) => p.endsWith('kitchen-forks.json')))
).conversations.flatMap((c) => [c, withoutNulls(c)]);

// One record of every format: JSON elements, whole JSON files, Claude Code sessions (as the
// reader hands them over) and the text of CSV and HTML files.
// The first element of a top-level array member of a JSON object (`conversations`, `media_posts`).
const firstOf = (value: unknown, key: string): unknown[] => {
  if (typeof value !== 'object' || value === null) return [];
  const member: unknown = Object.entries(value).find(([k]) => k === key)?.[1];
  return Array.isArray(member) && member.length > 0 ? [member[0]] : [];
};
const recordsOf = async (folder: string): Promise<unknown[]> =>
  (await Promise.all(fixturesOf(folder).map(firstRecordsOf))).flat();
const grokFiles = await recordsOf('grok');
const perplexityFiles = await recordsOf('perplexity');
const samples: unknown[] = [
  ...jsonRecords,
  // Grok's conversations and its Imagine posts, one of each per file.
  ...grokFiles.flatMap((file) => [
    ...firstOf(file, 'conversations'),
    ...firstOf(file, 'media_posts'),
  ]),
  // Perplexity's thread files whole, and a conversation of the official export.
  ...perplexityFiles.flatMap((file) => [file, ...firstOf(file, 'conversations')]),
  ...[...fixturesOf('le-chat'), ...fixturesOf('gemini').filter((p) => p.endsWith('.json'))].map(
    (path) => JSON.parse(readFileSync(path, 'utf8')) as unknown,
  ),
  ...inputsOf('claude-code')
    .flatMap((path) =>
      statSync(path).isDirectory()
        ? readdirSync(path)
            .filter((name) => name.endsWith('.jsonl'))
            .map((name) => join(path, name))
        : [path],
    )
    .map((path) => {
      const bytes = readFileSync(path);
      const parsed = parseRecord({
        kind: 'record',
        path: '',
        index: 0,
        offset: 0,
        bytes,
        lines: true,
      });
      return parsed.ok ? parsed.value : undefined;
    }),
  ...pamConversations,
  // Coding agents' records as the reader hands them over: whole JSON Lines logs, JSON
  // documents, and file sets (a Cline task with its UI log, a chat file with its side files).
  ...(await allAgentRecords()).map(({ record }) => valueOf(record)),
  // The coding agents' SQLite stores: each session as the read layer hands it over.
  ...Object.values(agentRecords).flat(),
  ...[
    ...fixturesOf('goose').filter((p) => p.endsWith('.jsonl')),
    ...fixturesOf('cursor')
      .filter((p) => p.endsWith('agent-transcripts-2026'))
      .flatMap((dir) =>
        readdirSync(dir, { recursive: true, encoding: 'utf8' })
          .filter((name) => name.endsWith('.jsonl'))
          .map((name) => join(dir, name)),
      ),
  ].map((path) => {
    const parsed = parseRecord({
      kind: 'record',
      path: '',
      index: 0,
      offset: 0,
      bytes: readFileSync(path),
      lines: true,
    });
    return parsed.ok ? parsed.value : undefined;
  }),
];
const texts = [
  ...fixturesOf('copilot').filter((p) => p.endsWith('.csv')),
  ...fixturesOf('gemini').filter((p) => p.endsWith('.html')),
].map((path) => readFileSync(path, 'utf8'));

describe.each(PROVIDERS.map((p) => [p.name, p] as const))(
  'provider %s on mangled input',
  (_name, provider) => {
    it('never throws, and whatever it returns validates and is deterministic', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...samples),
          fc.array(fc.array(fc.nat(40), { maxLength: 8 }), { minLength: 1, maxLength: 4 }),
          fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 4, maxLength: 4 }),
          (sample, paths, replacements) => {
            let value = sample;
            paths.forEach((path, i) => {
              value = mutate(value, path, replacements[i]);
            });
            const first = provider.toConversation(value, 'test', context());
            const second = provider.toConversation(structuredClone(value), 'test', context());
            expect(second).toEqual(first);
            const list = first === undefined ? [] : Array.isArray(first) ? first : [first];
            for (const conversation of list) expect(conversationErrors(conversation)).toEqual([]);
          },
        ),
        { numRuns: 300 },
      );
    });

    it('never throws on mangled CSV and HTML text', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...texts),
          fc.nat(),
          fc.nat(),
          fc.string({ maxLength: 40 }),
          (text, at, length, insert) => {
            const cut = at % (text.length + 1);
            const mangled = text.slice(0, cut) + insert + text.slice(cut + (length % 30));
            const result = provider.toConversation(mangled, 'test', context());
            const list = result === undefined ? [] : Array.isArray(result) ? result : [result];
            for (const conversation of list) expect(conversationErrors(conversation)).toEqual([]);
          },
        ),
        { numRuns: 200 },
      );
    });

    it('never throws on records whose values have a toString key (String() of them throws)', () => {
      const hostile = { toString: 1, valueOf: 2 };
      for (const sample of samples) {
        const object =
          typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? sample : {};
        const mangled = Object.fromEntries(Object.keys(object).map((key) => [key, hostile]));
        provider.toConversation(
          { ...object, ...mangled, uuid: undefined, id: undefined },
          'test',
          context(),
        );
      }
    });

    it('never throws on arbitrary JSON', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          provider.toConversation(value, 'test', context());
        }),
        { numRuns: 300 },
      );
    });
  },
);

// Each SQLite agent's reader on its own sessions, mangled deep inside (a row's JSON with a
// field of another type, a part missing, a bubble that is a number): it never throws, and what
// it returns validates and is the same each time.
describe.each(SQLITE_AGENTS)('the %s reader on its own sessions, mangled', (folder) => {
  const provider = findProvider(folder);
  it('has sessions to mangle', () => {
    expect(agentRecords[folder]?.length).toBeGreaterThan(0);
    expect(provider).toBeDefined();
  });
  it('never throws, and whatever it returns validates and is deterministic', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(agentRecords[folder] ?? [])),
        fc.array(fc.array(fc.nat(40), { maxLength: 10 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 6, maxLength: 6 }),
        (sample, paths, replacements) => {
          let value = sample;
          paths.forEach((path, i) => {
            value = mutate(value, path, replacements[i]);
          });
          const first = provider?.toConversation(value, 'sqlite', context());
          expect(provider?.toConversation(structuredClone(value), 'sqlite', context())).toEqual(
            first,
          );
          const list = first === undefined ? [] : Array.isArray(first) ? first : [first];
          for (const conversation of list) expect(conversationErrors(conversation)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// Claude.ai's projects (`projects-000.zip`'s files, `projects.json`'s elements) and memories
// (`memories.json`, an object since 2026), mangled: memories that validate, the same each time,
// and Project batches whose edges join their own nodes.
describe('Claude.ai projects and memories on mangled input', () => {
  const roles = (value: unknown): ('projects' | 'memories')[] => {
    const text = JSON.stringify(value ?? null);
    return [
      ...(text.includes('"prompt_template"') ? (['projects'] as const) : []),
      ...(text.includes('"conversations_memory"') ? (['memories'] as const) : []),
    ];
  };
  const shaped = jsonRecords.flatMap((record) => roles(record).map((role) => ({ record, role })));
  const claude = findProvider('claude');

  it('has project and memory samples', () => {
    expect(shaped.map((s) => s.role)).toEqual(expect.arrayContaining(['projects', 'memories']));
    expect(typeof claude?.toMemories).toBe('function');
  });

  it('never throws, validates, is deterministic, and projects to well-formed batches', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...shaped),
        fc.array(fc.array(fc.nat(40), { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 4, maxLength: 4 }),
        ({ record, role }, paths, replacements) => {
          let value: unknown = record;
          paths.forEach((path, i) => {
            value = mutate(value, path, replacements[i]);
          });
          const first = claude?.toMemories?.(value, role, context()) ?? [];
          expect(claude?.toMemories?.(structuredClone(value), role, context()) ?? []).toEqual(
            first,
          );
          const store = toMemoryStore({
            ownerId: 'owner',
            ownerCreatedAt: '2026-01-01T00:00:00.000000Z',
            exportDate: '2026-01-01T00:00:00.000000Z',
            memories: first,
            index: [],
          });
          expect(memoryStoreErrors(store)).toEqual([]);
          for (const batch of projectPlatformProjects(first)) {
            const ids = new Set(batch.nodes.map((n) => n.id));
            expect(batch.nodes.filter((n) => n.label === 'Project')).toHaveLength(1);
            for (const edge of batch.edges)
              expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

// Conformance layer: the public samples join the mangled inputs when the corpus is there.
describe('the mangled inputs', () => {
  itReadsTheCorpus();
});

describe('the pam provider', () => {
  it('reads the PAM files the property above mangles, as written and without nulls', () => {
    const pam = findProvider('pam');
    for (const sample of pamConversations) {
      const conversation = pam?.toConversation(sample, 'pam/conversation', context());
      expect(conversation).toBeDefined();
      expect(conversationErrors(conversation)).toEqual([]);
    }
  });
});
