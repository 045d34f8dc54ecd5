import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { ROOT } from './support/shared.js';

describe('the public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ATTACHMENTS_DIR',
      'EDGES',
      'LABELS',
      'MATCH_END',
      'MATCH_START',
      'MAX_SEARCH_LIMIT',
      'Neo4jStore',
      'NotAnExportError',
      'PROVIDERS',
      'QueryError',
      'SqliteStore',
      'StoreConnectionError',
      'VERSION',
      'bundleDir',
      'claudeCodeProjectDirs',
      'convertExports',
      'exitCodeOf',
      'findProvider',
      'importExports',
      'lostCount',
      'neo4jTarget',
      'openStore',
      'project',
      'pushBundle',
      'readBundleConversation',
      'reindex',
      'resolveDataDir',
      'shownThread',
      'storeFile',
      'threadTo',
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
