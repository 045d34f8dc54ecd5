import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { ROOT } from './support/shared.js';

describe('the public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ATTACHMENTS_DIR',
      'BadBundleFileError',
      'CLI_QUERY_LIMITS',
      'ConversationNotFoundError',
      'DEFAULT_MODEL',
      'DELETED_FILE',
      'EDGES',
      'EmbeddingEndpointError',
      'LABELS',
      'MATCH_END',
      'MATCH_START',
      'MAX_SEARCH_LIMIT',
      'MODEL_CATALOG',
      'ModelFetchError',
      'ModelNotInstalledError',
      'Neo4jStore',
      'NotAnExportError',
      'PROVIDERS',
      'QueryError',
      'QueryLimitError',
      'SERVER_QUERY_LIMITS',
      'SqliteStore',
      'StoreConnectionError',
      'StoreDamagedError',
      'VECTOR_CACHE_FILE',
      'VERSION',
      'VectorCache',
      'VectorModelMismatchError',
      'WRITE_LOCK_FILE',
      'attachmentHeader',
      'bundleDir',
      'chunkText',
      'claudeCodeProjectDirs',
      'convertExports',
      'createRecaller',
      'deleteConversation',
      'embedConversations',
      'embedStore',
      'exitCodeOf',
      'fetchModel',
      'findProvider',
      'fuseRankings',
      'importExports',
      'listInstalledModels',
      'lostCount',
      'neo4jTarget',
      'openEmbedder',
      'openQueryEmbedder',
      'openStore',
      'project',
      'projectConversation',
      'pushBundle',
      'queryLimits',
      'readBundleConversation',
      'readTombstones',
      'recall',
      'reindex',
      'resolveDataDir',
      'resolveModelDir',
      'shownThread',
      'similarMessages',
      'storeFile',
      'textHash',
      'threadTo',
      'waitingMessage',
      'withWriteLock',
      'writeChatgptExport',
      'writeClaudeCodeProjects',
      'writeClaudeExport',
      'writeSamples',
    ]);
  });

  it('carries the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(api.VERSION).toBe(pkg.version);
  });
});
