import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { centredCutoffOf } from '../embed/model-catalog.js';
import type { Folder } from '../folder/folder.js';
import { readEmbeddingSettings } from '../recall/embedding-settings.js';
import { fix, ok, type DoctorCheck } from './check.js';
import { lockCheck } from './lock-check.js';
import { modelCheck } from './model-check.js';
import { neo4jCheck } from './neo4j-check.js';
import {
  embeddingCheck,
  fullTextCheck,
  indexedModel,
  pageCheck,
  vectorIndexCheck,
} from './store-checks.js';

export type { DoctorCheck } from './check.js';

/** What `diagnose` looks at. */
export interface DoctorOptions {
  /** The model in force (`--model`, the config file), when one is named. */
  model?: string | undefined;
  endpoint?: string | undefined;
  modelDir?: string | undefined;
  /** Appended to the chatgraph commands it suggests, so they reach the same store. */
  flags?: string | undefined;
}

/** The data folder has no store yet, or is not there at all. */
export class DataFolderMissingError extends Error {}

/** A folder's size on disk (the sum of its files' sizes), not following links. */
export function folderBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += folderBytes(path);
    else if (entry.isFile()) bytes += statSync(path).size;
  }
  return bytes;
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Every check of a data folder: its size, the SQLite store's pages, full-text and vector
 * indexes, embeddings, the model, Neo4j when one is in force, and the write lock. Each is ok,
 * or says what is wrong and the command that fixes it. Reads only (FTS5's integrity-check
 * changes nothing).
 */
export async function diagnose(folder: Folder, options: DoctorOptions): Promise<DoctorCheck[]> {
  const { dir: dataDir, layout } = folder;
  const flags = options.flags ?? '';
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory())
    throw new DataFolderMissingError(
      `no data folder at ${dataDir}: chatgraph import <export> makes one (or give --data-dir)`,
    );
  const checks: DoctorCheck[] = [
    ok('data folder', `${dataDir} (${megabytes(folderBytes(dataDir))})`),
  ];
  let indexed: string | undefined;
  if (folder.neo4j !== undefined) {
    checks.push(await neo4jCheck(folder, folder.neo4j, flags));
  } else {
    const file = layout.store;
    if (!existsSync(file)) {
      checks.push(fix('store', `no store in ${dataDir}`, `chatgraph reindex${flags}`));
    } else {
      // An encrypted folder's index opens with its key (asked for once).
      await folder.unlock();
      const encrypted = folder.sqliteKey !== undefined;
      const { openDatabase } = await import('../at-rest/open-database.js');
      const db = openDatabase(file, folder.sqliteKey, { fileMustExist: true });
      try {
        const pages = pageCheck(db, { flags });
        checks.push(pages);
        if (pages.status === 'ok') {
          checks.push(fullTextCheck(db, { flags }));
          indexed = indexedModel(db);
          const saved = encrypted ? 'encrypted' : existsSync(layout.vectorIndex);
          checks.push(vectorIndexCheck(db, saved));
          checks.push(embeddingCheck(db, { flags }));
        }
      } finally {
        db.close();
      }
    }
  }
  checks.push(...(await modelCheck({ ...options, indexed, flags })));
  // A folder embedded before its model searched centred by language has no language means:
  // its searches stay plain (not centred) until the next embed measures and keeps them.
  if (indexed !== undefined && centredCutoffOf(indexed) !== undefined)
    checks.push(
      readEmbeddingSettings(folder).centring?.model === indexed
        ? ok('language means', `kept for ${indexed}: searches by meaning are centred by language`)
        : fix(
            'language means',
            `not kept for ${indexed} (embedded before searches were centred by language): searches by meaning across languages are weaker until embed keeps them, which embeds nothing again`,
            `chatgraph embed${flags}`,
          ),
    );
  checks.push(await lockCheck(layout));
  return checks;
}
