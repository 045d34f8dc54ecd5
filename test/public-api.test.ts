import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import * as api from '../src/index.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);

const EXPECTED = {
  index: [
    'Conversation',
    'ConvertOptions',
    'DataFolder',
    'DataFolderMissingError',
    'DataFolderOptions',
    'Diagnostic',
    'FollowEvent',
    'Follower',
    'ImportProgress',
    'ImportReport',
    'ImportResult',
    'LockHolder',
    'Memory',
    'Message',
    'Neo4jTarget',
    'StoreReader',
    'VERSION',
    'WriteLockBusyError',
    'convertExports',
    'exitCodeOf',
    'lostCount',
    'neo4jTarget',
    'resolveDataDir',
    'waitingMessage',
  ],
  folder: [
    'BundleLoad',
    'DeleteOptions',
    'DeleteResult',
    'DoctorOptions',
    'EmbedStoreOptions',
    'EncryptOptions',
    'ExportOptions',
    'ExportPamOptions',
    'ExportPamReport',
    'FollowOptions',
    'ImportOptions',
    'LoadOptions',
    'RestoreError',
    'SignOptions',
    'SignResult',
    'StoredAttachment',
    'TempKind',
    'Tombstone',
    'makeTempFolder',
    'removeTempFolder',
    'sweepTempFolders',
  ],
  query: [
    'AmbiguousIdError',
    'CLI_QUERY_LIMITS',
    'ConversationFilter',
    'ConversationHit',
    'ConversationInfo',
    'ConversationNotFoundError',
    'ConversationPage',
    'ConversationPassage',
    'ConversationResult',
    'HitReason',
    'PriceTable',
    'QueryError',
    'QueryLimitError',
    'QueryLimits',
    'Recaller',
    'Row',
    'SERVER_QUERY_LIMITS',
    'SHIPPED_PRICES',
    'SearchHit',
    'SearchQuery',
    'SearchResult',
    'Stats',
    'StoreConnectionError',
    'TooManyRunningError',
    'USAGE_GROUPS',
    'UnknownIdError',
    'UsageGroup',
    'UsageQuery',
    'UsageReport',
    'UsageRow',
    'VectorModelMismatchError',
    'overlaidPrices',
    'queryLimits',
    'readPriceFile',
    'resolveConversation',
    'resolveMessage',
    'resolveThreadTarget',
    'shownUrl',
    'usageReport',
  ],
  view: [
    'AttachmentView',
    'CitationView',
    'CodeCell',
    'ConversationView',
    'EDGES',
    'ExportFormat',
    'ExportReport',
    'GraphNode',
    'LABELS',
    'MATCH_END',
    'MATCH_START',
    'MessageView',
    'ThreadAttachment',
    'ThreadMessage',
    'attachmentHeader',
    'branchThrough',
    'codeCellsIn',
    'forkLevels',
    'platformUrlOf',
    'platformUrlsOf',
    'plural',
    'renderConversation',
    'shortIds',
    'shortMessageIds',
    'thousands',
  ],
  memory: [
    'MEMORY_CONTENT_LIMIT',
    'MEMORY_PAGE',
    'MEMORY_TAG_LIMIT',
    'MEMORY_TYPES',
    'MemoryInputError',
    'MemoryNotFoundError',
    'MemoryOptions',
    'MemoryPage',
    'MemoryQuery',
    'MemoryRevision',
    'MemoryStoreError',
    'MemoryType',
    'MemoryVectorNote',
    'MemoryView',
    'RELATION_TYPES',
    'RecentActivity',
    'RecentOptions',
    'RememberInput',
    'RememberResult',
    'memoryView',
  ],
  models: [
    'DEFAULT_MODEL',
    'EmbedPlan',
    'EmbedProgress',
    'EmbedReport',
    'EmbeddingEndpointError',
    'FetchModelResult',
    'MODEL_CATALOG',
    'ModelFetchError',
    'ModelNotInstalledError',
    'fetchModel',
    'listInstalledModels',
    'resolveModelDir',
  ],
  sync: [
    'Received',
    'SentExport',
    'SyncOptions',
    'SyncProblem',
    'SyncRefusal',
    'SyncReport',
    'configDir',
    'inviteMachine',
    'joinGroup',
    'openGroup',
    'syncFolder',
  ],
  trust: [
    'ConvertReport',
    'DoctorCheck',
    'Finding',
    'FolderEncryptionError',
    'SchemaFetchError',
    'SigningKeyError',
    'Unlock',
    'VerifyOptions',
    'VerifyReport',
    'createSigningKey',
    'readSigningKey',
    'validatePam',
    'verifyBundle',
  ],
  sources: [
    'AgentStoreFound',
    'FindAgentStoresOptions',
    'NotAnExportError',
    'PROVIDERS',
    'Provider',
    'claudeCodeProjectDirs',
    'findAgentStores',
    'findProvider',
    'writeSamples',
  ],
} satisfies Record<string, string[]>;

const ENTRY_FILES: Record<string, string> = Object.fromEntries(
  Object.keys(EXPECTED).map((k) => [
    k,
    join(ROOT, 'src', k === 'index' ? 'index.ts' : `api/${k}.ts`),
  ]),
);

function exportedNames(): Record<string, string[]> {
  const program = ts.createProgram(Object.values(ENTRY_FILES), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const names: Record<string, string[]> = {};
  for (const [entry, file] of Object.entries(ENTRY_FILES)) {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    names[entry] = symbol
      ? checker
          .getExportsOfModule(symbol)
          .map((e) => e.name)
          .sort()
      : [];
  }
  return names;
}

describe('the public API', () => {
  // Every name of every entry point, types included, read by the compiler from the sources: a
  // name added or dropped anywhere fails here, and the root stays a list a person can hold in mind.
  it('exports exactly these names from each entry point', () => {
    expect(exportedNames()).toEqual(EXPECTED);
    expect(EXPECTED.index.length).toBeLessThanOrEqual(25);
  });

  it('keeps only the entry points at the root of src/, the subpaths in src/api/', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort();
    expect(files('src')).toEqual(['index.ts', 'neo4j.ts', 'sqlite.ts']);
    expect(files('src/api')).toEqual(
      Object.keys(EXPECTED)
        .filter((k) => k !== 'index')
        .map((k) => `${k}.ts`)
        .sort(),
    );
  });

  it('loads no store when imported; the subpaths load theirs (built package)', async () => {
    // A fresh process on dist/, as a user's `import 'chatgraph'`: which store packages it loaded.
    const loaded = async (entries: string[]): Promise<string[]> => {
      const script = `import { createRequire } from 'node:module';
        for (const entry of ${JSON.stringify(entries)}) await import(entry);
        const names = Object.keys(createRequire(import.meta.url).cache)
          .map((p) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(p)?.[1])
          .filter((n) => /better-sqlite3|neo4j-driver|grafeo|onnxruntime/.test(n ?? ''));
        process.stdout.write(JSON.stringify([...new Set(names)].sort()));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
      return JSON.parse(stdout) as string[];
    };
    const dist = (name: string): string => join(ROOT, 'dist', `${name}.js`);
    expect(existsSync(dist('index'))).toBe(true);
    expect(await loaded([dist('index')])).toEqual([]);
    const subpaths = Object.keys(EXPECTED).filter((k) => k !== 'index');
    expect(await loaded(subpaths.map((k) => dist(`api/${k}`)))).toEqual([]);
    // Grafeo (Cypher) waits for the first query even then.
    expect(await loaded([dist('index'), dist('sqlite')])).toEqual([
      'better-sqlite3-multiple-ciphers',
    ]);
    expect(await loaded([dist('neo4j')])).toContain('neo4j-driver');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { import?: string; types?: string }>;
    };
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      ...subpaths.map((k) => `./${k}`),
      './sqlite',
      './neo4j',
      './package.json',
    ]);
    for (const k of subpaths) {
      expect(pkg.exports[`./${k}`]?.import).toBe(`./dist/api/${k}.js`);
      expect(pkg.exports[`./${k}`]?.types).toBe(`./dist/api/${k}.d.ts`);
      expect(existsSync(join(ROOT, 'dist', 'api', `${k}.d.ts`))).toBe(true);
    }
  });

  it('carries the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(api.VERSION).toBe(pkg.version);
  });
});
