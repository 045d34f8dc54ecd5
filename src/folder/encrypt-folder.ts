import { copyFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { Folder } from './folder.js';
import type { openDatabase } from '../at-rest/open-database.js';
import { dataFiles, isPlainSqlite, SQLITE_COMPANIONS } from '../at-rest/folder-files.js';
import { newFolderKey, openFolderKey, type FolderKey, type Unlock } from '../at-rest/folder-key.js';
import { ageKey, openAge, sealAge } from '../at-rest/age-x25519.js';
import { commitPlan, recoverLocked, runPlan, type Step } from '../at-rest/folder-switch.js';
import { FolderEncryptionError } from '../bundle/encryption-markers.js';
import { SEALED_SUFFIX } from '../bundle/sealed-files.js';
import type { FolderLayout } from './layout.js';

type OpenDatabase = typeof openDatabase;

/** What `encrypt` or `decrypt` changed. */
export interface ConvertReport {
  /** Files encrypted or decrypted with age (the bundle's, and any other but SQLite's). */
  files: number;
  /** SQLite files rekeyed (SQLCipher): the folder's own databases (its layout's `databases`). */
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

/** A path of the folder as its plan and report name it: relative to the folder. */
const inFolder = (layout: FolderLayout, path: string): string => relative(layout.dir, path);

/** The marker: that the folder is encrypted, and how its key opens (no secret in it). */
function marker(layout: FolderLayout, unlock: Unlock): string {
  const opens = 'passphrase' in unlock ? 'passphrase' : 'identity';
  const key = basename(layout.key);
  return `${JSON.stringify({ chatgraph_encryption: 1, key, opens }, null, 2)}\n`;
}

/** Folds a SQLite file's WAL into it, so a copy of the file alone is the whole database. */
function checkpoint(file: string, key: string | undefined, openDatabase: OpenDatabase): void {
  const db = openDatabase(file, key);
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
  layout: FolderLayout,
  stage: string,
  path: string,
  from?: string,
  to?: string,
): Promise<void> {
  // Loaded here, not at import: importing chatgraph loads no SQLite (see openStore).
  const { openDatabase, rekeyFile } = await import('../at-rest/open-database.js');
  try {
    checkpoint(join(layout.dir, path), from, openDatabase);
    const copy = join(stage, path);
    copyFileSync(join(layout.dir, path), copy);
    rekeyFile(copy, from, to);
  } catch (error) {
    // SQLite's own words ("file is not a database") name no file: this one does.
    throw new FolderEncryptionError(
      `${join(layout.dir, path)}, one of the folder's databases, could not be ${to === undefined ? 'decrypted' : 'encrypted'}: ${error instanceof Error ? error.message : String(error)}; nothing was changed`,
      { cause: error },
    );
  }
}

async function stageEncrypted(layout: FolderLayout, stage: string, unlock: Unlock) {
  const dataDir = layout.dir;
  const { key, wrapped } = await newFolderKey(unlock);
  const age = ageKey(key.identity);
  const keyFile = inFolder(layout, layout.key);
  const markerFile = inFolder(layout, layout.encryption);
  await writeFile(join(stage, keyFile), wrapped);
  await writeFile(join(stage, markerFile), marker(layout, unlock));
  // The key and the marker first: from the first step on, the folder counts as encrypted.
  const steps: Step[] = [
    { move: keyFile, to: keyFile },
    { move: markerFile, to: markerFile },
  ];
  const removes: Step[] = [];
  const report: ConvertReport = { files: 0, sqlite: [] };
  for (const path of await dataFiles(dataDir, layout.notData)) {
    await mkdir(dirname(join(stage, path)), { recursive: true });
    if (layout.databases.includes(path)) {
      // An empty file is an empty database: nothing to keep, and SQLite makes it anew.
      if (statSync(join(dataDir, path)).size === 0) {
        removes.push({ remove: path });
        continue;
      }
      if (!isPlainSqlite(join(dataDir, path)))
        throw new FolderEncryptionError(
          `${join(dataDir, path)} is not a plain SQLite database, and encrypt rekeys it as one: damaged? (remove it${join(dataDir, path) === layout.store ? ' and run "chatgraph reindex"' : ', it is rebuilt'}); nothing was encrypted`,
        );
      await stageSqlite(layout, stage, path, undefined, key.sqliteKey);
      steps.push(...sqliteSteps(path, path));
      report.sqlite.push(path);
      continue;
    }
    // The same codec every writer seals with afterwards (see sealed-files).
    const sealed = sealAge(await readFile(join(dataDir, path)), age);
    await writeFile(join(stage, `${path}${SEALED_SUFFIX}`), sealed);
    steps.push({ move: `${path}${SEALED_SUFFIX}`, to: `${path}${SEALED_SUFFIX}` });
    removes.push({ remove: path });
    report.files++;
  }
  return { key, steps: [...steps, ...removes], report };
}

/**
 * Encrypts a data folder: every file with age to a new folder key (itself encrypted with the
 * passphrase, or to the person's identity, in the folder's key file), every SQLite file with
 * SQLCipher under a key derived from it. Written beside, then switched in (see folder-switch);
 * the handle keeps the new key, so what it writes from then on is sealed.
 */
export async function encryptFolder(
  folder: Folder,
  secret: Unlock | (() => Promise<Unlock>),
  options: EncryptOptions = {},
): Promise<ConvertReport> {
  const { layout } = folder;
  return folder.write(
    async () => {
      recoverLocked(layout);
      if (folder.encrypted) {
        if (options.ifPlain) return { files: 0, sqlite: [], already: true };
        throw new AlreadyError(`${layout.dir} is encrypted already`);
      }
      // Asked for only now: a folder encrypted already asks for nothing here.
      const unlock = typeof secret === 'function' ? await secret() : secret;
      const stage = layout.staging.encrypt;
      await rm(stage, { recursive: true, force: true });
      await mkdir(stage, { recursive: true, mode: 0o700 });
      const { key, steps, report } = await stageEncrypted(layout, stage, unlock);
      await commitPlan(layout, stage, steps);
      runPlan(layout, stage);
      folder.useKey(key);
      return report;
    },
    { ownsKey: true },
  );
}

async function stageDecrypted(layout: FolderLayout, stage: string, key: FolderKey) {
  const dataDir = layout.dir;
  const age = ageKey(key.identity);
  const steps: Step[] = [];
  const removes: Step[] = [];
  const report: ConvertReport = { files: 0, sqlite: [], leftAsTheyAre: [] };
  for (const path of await dataFiles(dataDir, layout.notData)) {
    // One that is plain already (made anew since) stays as it is.
    if (layout.databases.includes(path) && isPlainSqlite(join(dataDir, path))) continue;
    if (layout.databases.includes(path)) {
      await stageSqlite(layout, stage, path, key.sqliteKey, undefined);
      steps.push(...sqliteSteps(path, path));
      report.sqlite.push(path);
      continue;
    }
    // A file no writer of the folder sealed (a .DS_Store, an export written into it): not
    // the folder's, and never encrypted, so left as it is.
    if (!path.endsWith(SEALED_SUFFIX)) {
      report.leftAsTheyAre?.push(path);
      continue;
    }
    await mkdir(dirname(join(stage, path)), { recursive: true });
    const plain = path.slice(0, -SEALED_SUFFIX.length);
    await writeFile(join(stage, plain), openAge(await readFile(join(dataDir, path)), age));
    steps.push({ move: plain, to: plain });
    removes.push({ remove: path });
    report.files++;
  }
  // The marker last: until every step has run, the folder counts as encrypted.
  return {
    steps: [
      ...steps,
      ...removes,
      { remove: inFolder(layout, layout.key) },
      { remove: inFolder(layout, layout.encryption) },
    ],
    report,
  };
}

/** Decrypts a data folder back to its plain form, the same way round (see {@link encryptFolder}). */
export async function decryptFolder(folder: Folder, unlock: Unlock): Promise<ConvertReport> {
  const { layout } = folder;
  return folder.write(
    async () => {
      recoverLocked(layout);
      // Marked encrypted with its key gone is said by openFolderKey, naming the key file.
      if (!folder.encrypted) throw new AlreadyError(`${layout.dir} is not encrypted`);
      const key = await openFolderKey(layout, unlock);
      const stage = layout.staging.decrypt;
      await rm(stage, { recursive: true, force: true });
      await mkdir(stage, { recursive: true, mode: 0o700 });
      const { steps, report } = await stageDecrypted(layout, stage, key);
      await commitPlan(layout, stage, steps);
      runPlan(layout, stage);
      // The handle reads the folder as plain from now on (a library caller may go on).
      folder.dropKey();
      return report;
    },
    { ownsKey: true },
  );
}
