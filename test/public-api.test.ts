import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);

describe('the public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'AmbiguousIdError',
      'BadBundleFileError',
      'CLI_QUERY_LIMITS',
      'ConversationNotFoundError',
      'DATE_BOUND_FORMS',
      'DEFAULT_MODEL',
      'DELETED_FILE',
      'DataFolder',
      'DataFolderMissingError',
      'EDGES',
      'EmbeddingEndpointError',
      'FolderEncryptionError',
      'LABELS',
      'LIVE_STATE_FILE',
      'MATCH_END',
      'MATCH_START',
      'MAX_SEARCH_LIMIT',
      'MEMORY_CONTENT_LIMIT',
      'MEMORY_JOURNAL_FILE',
      'MEMORY_PAGE',
      'MEMORY_TYPES',
      'MIN_ID_PREFIX',
      'MODEL_CATALOG',
      'MemoryInputError',
      'MemoryNotFoundError',
      'MemoryStoreError',
      'ModelFetchError',
      'ModelNotInstalledError',
      'NotAnExportError',
      'PROVIDERS',
      'QueryError',
      'QueryLimitError',
      'RECENT_LIMIT',
      'RELATION_TYPES',
      'SERVER_QUERY_LIMITS',
      'SigningKeyError',
      'StoreConnectionError',
      'StoreDamagedError',
      'UnknownIdError',
      'VECTOR_CACHE_FILE',
      'VERSION',
      'VectorModelMismatchError',
      'WRITE_LOCK_FILE',
      'WriteLockBusyError',
      'aboveFloor',
      'attachmentHeader',
      'branchThrough',
      'buildTopicMap',
      'bundleDir',
      'chunkText',
      'claudeCodeProjectDirs',
      'clusterConversations',
      'codeCellsIn',
      'convertExports',
      'createRecaller',
      'createSigningKey',
      'decryptFolder',
      'deleteConversation',
      'diagnose',
      'embedConversations',
      'embedStore',
      'encryptFolder',
      'exitCodeOf',
      'exportConversations',
      'fetchModel',
      'findProvider',
      'flushMemories',
      'followFolders',
      'forget',
      'forkLevels',
      'fuseRankings',
      'groupByConversation',
      'importExports',
      'listInstalledModels',
      'listMemories',
      'lostCount',
      'memoryView',
      'messagePart',
      'neo4jTarget',
      'openEmbedder',
      'openQueryEmbedder',
      'openStore',
      'parseDateBound',
      'platformUrlOf',
      'platformUrlsOf',
      'plural',
      'project',
      'projectConversation',
      'pushBundle',
      'queryLimits',
      'readBundleConversation',
      'readConversationView',
      'readMemories',
      'readSigningKey',
      'readTombstones',
      'recall',
      'recallConversations',
      'recentActivity',
      'reindex',
      'relevanceFloor',
      'remember',
      'renderConversation',
      'resolveConversation',
      'resolveDataDir',
      'resolveMessage',
      'resolveModelDir',
      'resolveThreadTarget',
      'reviseMemory',
      'setFolderUnlocker',
      'shortIds',
      'shortMessageIds',
      'shownThread',
      'signBundle',
      'similarMessages',
      'storeFile',
      'syncMemories',
      'textHash',
      'threadTo',
      'topicMapCache',
      'validatePam',
      'verifyBundle',
      'waitingMessage',
      'withWriteLock',
      'writeChatgptExport',
      'writeClaudeCodeProjects',
      'writeClaudeExport',
      'writeSamples',
    ]);
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
    // Grafeo (Cypher) waits for the first query even then.
    expect(await loaded([dist('index'), dist('sqlite')])).toEqual([
      'better-sqlite3-multiple-ciphers',
    ]);
    expect(await loaded([dist('neo4j')])).toContain('neo4j-driver');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { import?: string }>;
    };
    expect(Object.keys(pkg.exports)).toEqual(['.', './sqlite', './neo4j', './package.json']);
  });

  it('carries the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(api.VERSION).toBe(pkg.version);
  });
});
