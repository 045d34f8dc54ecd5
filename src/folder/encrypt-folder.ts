import { copyFileSync, existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Folder } from './folder.js';
import type { openDatabase } from '../at-rest/open-database.js';
import { useSqliteKey } from '../at-rest/sqlite-key.js';
import { dataFiles, isPlainSqlite, SQLITE_COMPANIONS } from '../at-rest/folder-files.js';
import { newFolderKey, openFolderKey, type FolderKey, type Unlock } from '../at-rest/folder-key.js';
import { ageKey, openAge, sealAge } from '../at-rest/age-x25519.js';
import { commitPlan, recoverLocked, runPlan, type Step } from '../at-rest/folder-switch.js';
import {
  ENCRYPTION_FILE,
  FolderEncryptionError,
  isEncrypted,
  KEY_FILE,
  STAGING,
} from '../bundle/encryption-markers.js';
import { forgetKey, rememberKey } from '../at-rest/unlock.js';

type OpenDatabase = typeof openDatabase;

/** What `encrypt` or `decrypt` changed. */
export interface ConvertReport {
  /** Files encrypted or decrypted with age (the bundle's, and any other but SQLite's). */
  files: number;
  /** SQLite files rekeyed (SQLCipher). */
  sqlite: string[];
  /** `encrypt` with `ifPlain` on a folder encrypted already: nothing was changed. */
  already?: boolean;
}

/** How {@link encryptFolder} works. */
export interface EncryptOptions {
  /** A folder encrypted already is left as it is (`import --encrypt`), not an error. */
  ifPlain?: boolean;
}

/** `encrypt` on a folder already encrypted, or `decrypt` on one that is not. */
export class AlreadyError extends FolderEncryptionError {}

/** The marker: that the folder is encrypted, and how its key opens (no secret in it). */
function marker(unlock: Unlock): string {
  const opens = 'passphrase' in unlock ? 'passphrase' : 'identity';
  return `${JSON.stringify({ chatgraph_encryption: 1, key: KEY_FILE, opens }, null, 2)}\n`;
}

/** Folds a SQLite file's WAL into it, so a copy of the file alone is the whole database. */
function checkpoint(file: string, openDatabase: OpenDatabase): void {
  const db = openDatabase(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** The steps that drop a SQLite file's companions, then put its staged copy in its place. */
function sqliteSteps(path: string, staged: string): Step[] {
  return [
    ...SQLITE_COMPANIONS.map((suffix) => ({ remove: `${path}${suffix}` })),
    { move: staged, to: path },
  ];
}

/** A SQLite file copied into the staging folder and rekeyed there (the original untouched). */
async function stageSqlite(
  dataDir: string,
  stage: string,
  path: string,
  from?: string,
  to?: string,
): Promise<void> {
  // Loaded here, not at import: importing chatgraph loads no SQLite (see openStore).
  const { openDatabase, rekeyFile } = await import('../at-rest/open-database.js');
  checkpoint(join(dataDir, path), openDatabase);
  const copy = join(stage, path);
  copyFileSync(join(dataDir, path), copy);
  rekeyFile(copy, from, to);
}

async function stageEncrypted(
  dataDir: string,
  stage: string,
  unlock: Unlock,
  leftOut: readonly string[],
) {
  const { key, wrapped } = await newFolderKey(unlock);
  const age = ageKey(key.identity);
  await writeFile(join(stage, KEY_FILE), wrapped);
  await writeFile(join(stage, ENCRYPTION_FILE), marker(unlock));
  // The key and the marker first: from the first step on, the folder counts as encrypted.
  const steps: Step[] = [
    { move: KEY_FILE, to: KEY_FILE },
    { move: ENCRYPTION_FILE, to: ENCRYPTION_FILE },
  ];
  const removes: Step[] = [];
  const report: ConvertReport = { files: 0, sqlite: [] };
  for (const path of await dataFiles(dataDir, leftOut)) {
    await mkdir(dirname(join(stage, path)), { recursive: true });
    if (isPlainSqlite(join(dataDir, path))) {
      await stageSqlite(dataDir, stage, path, undefined, key.sqliteKey);
      steps.push(...sqliteSteps(path, path));
      report.sqlite.push(path);
      continue;
    }
    // The same codec every writer seals with afterwards (see sealed-files).
    const sealed = sealAge(await readFile(join(dataDir, path)), age);
    await writeFile(join(stage, `${path}.age`), sealed);
    steps.push({ move: `${path}.age`, to: `${path}.age` });
    removes.push({ remove: path });
    report.files++;
  }
  return { key, steps: [...steps, ...removes], report };
}

/**
 * Encrypts a data folder: every file with age to a new folder key (itself encrypted with the
 * passphrase, or to the person's identity, in `key.age`), every SQLite file with SQLCipher
 * under a key derived from it. Written beside, then switched in (see folder-switch).
 */
export async function encryptFolder(
  folder: Folder,
  secret: Unlock | (() => Promise<Unlock>),
  options: EncryptOptions = {},
): Promise<ConvertReport> {
  const { dir: dataDir } = folder;
  return folder.write(
    async () => {
      recoverLocked(dataDir);
      if (isEncrypted(dataDir)) {
        if (options.ifPlain) return { files: 0, sqlite: [], already: true };
        throw new AlreadyError(`${dataDir} is encrypted already`);
      }
      // Asked for only now: a folder encrypted already asks for nothing here.
      const unlock = typeof secret === 'function' ? await secret() : secret;
      const stage = join(dataDir, STAGING.encrypt);
      await rm(stage, { recursive: true, force: true });
      await mkdir(stage, { recursive: true, mode: 0o700 });
      const { key, steps, report } = await stageEncrypted(
        dataDir,
        stage,
        unlock,
        folder.layout.notData,
      );
      await commitPlan(stage, steps);
      runPlan(dataDir, stage);
      rememberKey(dataDir, key);
      return report;
    },
    { ownsKey: true },
  );
}

async function stageDecrypted(
  dataDir: string,
  stage: string,
  key: FolderKey,
  leftOut: readonly string[],
) {
  const age = ageKey(key.identity);
  const steps: Step[] = [];
  const removes: Step[] = [];
  const report: ConvertReport = { files: 0, sqlite: [] };
  for (const path of await dataFiles(dataDir, leftOut)) {
    await mkdir(dirname(join(stage, path)), { recursive: true });
    if (!path.endsWith('.age')) {
      // Every other file of an encrypted folder is one of its SQLCipher databases.
      useSqliteKey(dataDir, key.sqliteKey);
      await stageSqlite(dataDir, stage, path, key.sqliteKey, undefined);
      steps.push(...sqliteSteps(path, path));
      report.sqlite.push(path);
      continue;
    }
    const plain = path.slice(0, -'.age'.length);
    await writeFile(join(stage, plain), openAge(await readFile(join(dataDir, path)), age));
    steps.push({ move: plain, to: plain });
    removes.push({ remove: path });
    report.files++;
  }
  // The marker last: until every step has run, the folder counts as encrypted.
  return {
    steps: [...steps, ...removes, { remove: KEY_FILE }, { remove: ENCRYPTION_FILE }],
    report,
  };
}

/** Decrypts a data folder back to its plain form, the same way round (see {@link encryptFolder}). */
export async function decryptFolder(folder: Folder, unlock: Unlock): Promise<ConvertReport> {
  const { dir: dataDir } = folder;
  return folder.write(
    async () => {
      recoverLocked(dataDir);
      if (!isEncrypted(dataDir) || !existsSync(join(dataDir, KEY_FILE)))
        throw new AlreadyError(`${dataDir} is not encrypted`);
      const key = await openFolderKey(dataDir, unlock);
      const stage = join(dataDir, STAGING.decrypt);
      await rm(stage, { recursive: true, force: true });
      await mkdir(stage, { recursive: true, mode: 0o700 });
      const { steps, report } = await stageDecrypted(dataDir, stage, key, folder.layout.notData);
      await commitPlan(stage, steps);
      runPlan(dataDir, stage);
      // This process reads the folder as plain from now on (a library caller may go on).
      forgetKey(dataDir);
      return report;
    },
    { ownsKey: true },
  );
}
