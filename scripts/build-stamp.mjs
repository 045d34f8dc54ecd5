#!/usr/bin/env node
// `npm run build` builds once per set of sources. CI built the same tree three times (npm ci's
// `prepare`, `npm run check`'s build, `npm pack`'s `prepare` in the global-install check), about
// 40 s of CPU each: a build stamps what it was made from and what it made, and a build asked for
// again with both unchanged is skipped.
//
//   node scripts/build-stamp.mjs fresh   exit 0 when dist/ is the build of these sources, else 1
//   node scripts/build-stamp.mjs write   after a whole build: stamp it
//
// What it was made from: every file git sees (tracked, or untracked and not ignored) outside the
// folders the build never reads (test/, bench/, docs/), with the Node version. What it made:
// every file under dist/. No git (a tarball's tree): never fresh, so always built.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
// Outside dist/, so the stamp is not packed, and not removed by clean-build before a failed build.
const STAMP = join(ROOT, 'node_modules', '.cache', 'chatgraph-build-stamp.json');
const NOT_READ_BY_BUILD = /^(test|bench|docs)\//;

function hashFiles(files, base) {
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(base, file);
    if (!existsSync(path)) continue; // deleted, not yet staged
    hash.update(`${file}\0`);
    hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function inputs() {
  let listed;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
  const files = listed
    .split('\0')
    .filter((file) => file !== '' && !NOT_READ_BY_BUILD.test(file))
    .sort();
  return `${process.version} ${hashFiles(files, ROOT)}`;
}

function outputs() {
  if (!existsSync(DIST)) return undefined;
  const files = readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(DIST.length + 1))
    .sort();
  return hashFiles(files, DIST);
}

const mode = process.argv[2];
if (mode === 'write') {
  const made = { inputs: inputs(), outputs: outputs() };
  if (made.inputs === undefined || made.outputs === undefined) process.exit(0);
  // Written beside and renamed: a worktree's node_modules may hold hard links to another's files.
  const temporary = `${STAMP}.${String(process.pid)}`;
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  writeFileSync(temporary, `${JSON.stringify(made)}\n`);
  renameSync(temporary, STAMP);
} else if (mode === 'fresh') {
  if (!existsSync(STAMP)) process.exit(1);
  let stamped;
  try {
    stamped = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    process.exit(1);
  }
  const now = inputs();
  if (now === undefined || stamped.inputs !== now || stamped.outputs !== outputs()) process.exit(1);
  process.stderr.write('build: dist/ is already the build of these sources, not built again\n');
} else {
  process.stderr.write('usage: build-stamp.mjs fresh|write\n');
  process.exit(2);
}
