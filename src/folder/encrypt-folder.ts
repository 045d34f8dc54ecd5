import { copyFileSync, existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WRITE_LOCK_FILE, withWriteLock } from './write-lock.js';
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
import { FOLDER_DATABASES, STORE_FILE } from './data-dir.js';

type OpenDatabase = typeof openDatabase;

// The write lock's files stay as they are: an empty file and a process id.
const LOCK_FILES = [WRITE_LOCK_FILE, `${WRITE_LOCK_FILE}.pid`];

/** What `encrypt` or `decrypt` changed. */
export interface ConvertReport {
  /** Files encrypted or decrypted with age (the bundle's, and any other but SQLite's). */
  files: number;
  /** SQLite files rekeyed (SQLCipher): the folder's own databases (see FOLDER_DATABASES). */
  sqlite: string[];
  /** `decrypt`: files that were not encrypted (dropped into the folder since), left as they are. */
  leftAsTheyAre?: string[];
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
  try {
    checkpoint(join(dataDir, path), openDatabase);
    const copy = join(stage, path);
    copyFileSync(join(dataDir, path), copy);
    rekeyFile(copy, from, to);
  } catch (error) {
    // SQLite's own words ("file is not a database") name no file: this one does.
    throw new FolderEncryptionError(
      `${join(dataDir, path)}, one of the folder's databases, could not be ${to === undefined ? 'decrypted' : 'encrypted'}: ${error instanceof Error ? error.message : String(error)}; nothing was changed`,
      { cause: error },
    );
  }
}

async function stageEncrypted(dataDir: string, stage: string, unlock: Unlock) {
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
  for (const path of await dataFiles(dataDir, LOCK_FILES)) {
    await mkdir(dirname(join(stage, path)), { recursive: true });
    if (FOLDER_DATABASES.includes(path)) {
      // An empty file is an empty database: nothing to keep, and SQLite makes it anew.
      if (statSync(join(dataDir, path)).size === 0) {
        removes.push({ remove: path });
        continue;
      }
      if (!isPlainSqlite(join(dataDir, path)))
        throw new FolderEncryptionError(
          `${join(dataDir, path)} is not a plain SQLite database, and encrypt rekeys it as one: damaged? (remove it${path === STORE_FILE ? ' and run "chatgraph reindex"' : ', it is rebuilt'}); nothing was encrypted`,
        );
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
  dataDir: string,
  secret: Unlock | (() => Promise<Unlock>),
  options: EncryptOptions = {},
): Promise<ConvertReport> {
  return withWriteLock(
    dataDir,
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
      const { key, steps, report } = await stageEncrypted(dataDir, stage, unlock);
      await commitPlan(stage, steps);
      runPlan(dataDir, stage);
      rememberKey(dataDir, key);
      return report;
    },
    { encryptedFolder: true },
  );
}

async function stageDecrypted(dataDir: string, stage: string, key: FolderKey) {
  const age = ageKey(key.identity);
  const steps: Step[] = [];
  const removes: Step[] = [];
  const report: ConvertReport = { files: 0, sqlite: [], leftAsTheyAre: [] };
  for (const path of await dataFiles(dataDir, LOCK_FILES)) {
    // One that is plain already (made anew since) stays as it is.
    if (FOLDER_DATABASES.includes(path) && isPlainSqlite(join(dataDir, path))) continue;
    if (FOLDER_DATABASES.includes(path)) {
      useSqliteKey(dataDir, key.sqliteKey);
      await stageSqlite(dataDir, stage, path, key.sqliteKey, undefined);
      steps.push(...sqliteSteps(path, path));
      report.sqlite.push(path);
      continue;
    }
    // A file no writer of the folder sealed (a .DS_Store, an export written into it): not
    // the folder's, and never encrypted, so left as it is.
    if (!path.endsWith('.age')) {
      report.leftAsTheyAre?.push(path);
      continue;
    }
    await mkdir(dirname(join(stage, path)), { recursive: true });
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
export async function decryptFolder(dataDir: string, unlock: Unlock): Promise<ConvertReport> {
  return withWriteLock(
    dataDir,
    async () => {
      recoverLocked(dataDir);
      // Marked encrypted with its key gone is said by openFolderKey, naming the key file.
      if (!isEncrypted(dataDir)) throw new AlreadyError(`${dataDir} is not encrypted`);
      const key = await openFolderKey(dataDir, unlock);
      const stage = join(dataDir, STAGING.decrypt);
      await rm(stage, { recursive: true, force: true });
      await mkdir(stage, { recursive: true, mode: 0o700 });
      const { steps, report } = await stageDecrypted(dataDir, stage, key);
      await commitPlan(stage, steps);
      runPlan(dataDir, stage);
      // This process reads the folder as plain from now on (a library caller may go on).
      forgetKey(dataDir);
      return report;
    },
    { encryptedFolder: true },
  );
}

/** {@link recoverLocked} when there is anything to recover, under the write lock (a running `encrypt` is waited for). */
export async function recoverSwitch(dataDir: string): Promise<void> {
  if (!Object.values(STAGING).some((name) => existsSync(join(dataDir, name)))) return;
  await withWriteLock(
    dataDir,
    () => {
      recoverLocked(dataDir);
      return Promise.resolve();
    },
    { encryptedFolder: true },
  );
}
