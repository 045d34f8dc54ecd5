import { channel } from 'node:diagnostics_channel';
import {
  accessSync,
  constants,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/**
 * The shipped CLI's code, compiled from V8's code cache when one is kept (issue 46). Node 20
 * compiles every ES module from its source at every start (Node 22's `module.enableCompileCache`
 * is not on 20), ~25 ms of a cold keyword search. A script compiled through `vm.Script` takes
 * V8's `cachedData`: so `scripts/bundle.mjs` also makes the CLI one CommonJS-shaped file
 * (`dist/cli/cli-<hash>.cjs`), run here inside a function as Node runs a CommonJS file, and the
 * code V8 compiled for a command (the functions it ran, `script.createCachedData()` at exit) is
 * kept in `$XDG_CACHE_HOME/chatgraph/code/` (or `~/.cache/…`), one file a command, named after
 * the bundle (its name holds its content's hash), Node's version, the architecture, the file's
 * size and time and Node's options. It is compiled code, not an answer: each search still reads the folder.
 * V8 checks a cache against the source and its own version and flags and rejects one that does
 * not fit (`cachedDataRejected`); such a file, a missing one or one that cannot be read is
 * ignored and written again at exit, atomically (a file beside it, renamed). Nothing is written
 * when the cache was taken, and nothing fails when the folder cannot be written.
 *
 * V8 does not check the cached code itself unless told to (\`--verify-snapshot-checksum\`, off in
 * release builds): a cache damaged on disk (64 bytes flipped in its middle, tried) was taken, and
 * its code ended the process with a fatal error. The flag is turned on while a cache is written
 * (V8 then writes a checksum in it) and while one is read (V8 then checks it, and rejects a
 * damaged one), and off again: while on, every worker thread's start checks V8's own snapshot
 * too (+30–60 ms of CPU each, measured; a search starts one).
 *
 * How v8-compile-cache (npm) does it was read first: it patches `Module.prototype._compile` for
 * every CommonJS file and caches with `produceCachedData` at compile time, which holds only the
 * code compiled before the script ran: an esbuild bundle's modules are functions run later
 * (`__esm`), so almost none of what a command runs. It caches no ES module either.
 */

/** Told on `chatgraph:code-cache` once the bundle has run its top level (tests, the load probe). */
export interface CodeCacheReport {
  /** The bundle's file. */
  file: string;
  /** The cache file read, or written at exit. */
  cache: string;
  /** Whether V8 took the cache (false: none, unreadable, or rejected). */
  accepted: boolean;
  /** The source file of each bundled module run so far, in the order run (filled as it runs). */
  ran: string[];
}

const CHANNEL = 'chatgraph:code-cache';

/** The folder the code caches are kept in. */
export function codeCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(
    xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache'),
    'chatgraph',
    'code',
  );
}

/**
 * A package's module, as `import()` from the bundle's folder would give it, but synchronously
 * (the bundle's imports are \`require\`s): \`how\` is "require" where CommonJS resolution finds the
 * same file as an import (\`scripts/bundle.mjs\` checks), else "import": resolved with the import
 * conditions (\`import-resolve.ts\`, an ES module loaded by \`require\` when first needed). Either
 * is then loaded by \`require\`, which on Node 20.19+ loads an ES module too (the one instance an
 * \`import()\` gets). A CommonJS module's namespace is Node's: its exports and \`default\`.
 */
function hostImport(file: string): (specifier: string, how: 'require' | 'import') => unknown {
  const require = createRequire(file);
  let resolveAsImport: ((specifier: string) => string) | undefined;
  return (specifier, how) => {
    let loaded: unknown;
    if (how === 'require') loaded = require(specifier);
    else {
      resolveAsImport ??= (require('./import-resolve.js') as typeof import('./import-resolve.js'))
        .resolveAsImport;
      loaded = require(fileURLToPath(resolveAsImport(specifier)));
    }
    // (An ES module's namespace is tagged 'Module'; node:util's check would load node:util.)
    if (Object.prototype.toString.call(loaded) === '[object Module]') return loaded;
    return Object.assign(Object.create(null) as object, loaded, { default: loaded });
  };
}

/**
 * The cache file's name: the bundle, Node, the architecture, the file's identity, Node's options
 * (V8 rejects a cache made under other flags: runs with and without \`--max-semi-space-size\`, say,
 * would each reject and rewrite the other's), the command.
 */
function cacheName(file: string, command: string): string {
  const { size, mtimeMs } = statSync(file);
  const word = /^[a-z][a-z0-9-]{0,30}$/.test(command) ? command : 'other';
  const options = fnv1a(`${process.execArgv.join(' ')}\n${process.env.NODE_OPTIONS ?? ''}`);
  return `${basename(file)}-${process.version}-${process.arch}-${String(size)}-${String(Math.trunc(mtimeMs))}-${options}-${word}.v8`;
}

/** A short hash of a string (FNV-1a, 32 bits): a name, not a check. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * Runs the CommonJS-shaped bundle `fileUrl` (a `file:` URL) through V8's code cache, kept for
 * `command`; returns its exports.
 */
export function runCommonJsBundle(
  fileUrl: string,
  command: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, unknown> {
  const file = fileURLToPath(fileUrl);
  const folder = codeCacheFolder(env);
  const name = cacheName(file, command);
  const cacheFile = join(folder, name);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // Node's own CommonJS wrapper, on the bundle's first line: its lines and columns stay the
  // source map's (the first line is esbuild's "use strict").
  setFlagsFromString('--verify-snapshot-checksum');
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __chatgraphUrl, __chatgraphImport, __chatgraphRan) {${readFileSync(file, 'latin1')}\n})`,
    // A URL, as an ES module's frames name their file: `mapped-stacks.ts` maps those.
    { filename: fileUrl, cachedData },
  );
  setFlagsFromString('--no-verify-snapshot-checksum');
  const accepted = cachedData !== undefined && !script.cachedDataRejected;
  if (!accepted)
    process.once('exit', () => {
      writeCache(folder, cacheFile, name, script);
    });
  const module = { exports: {} as Record<string, unknown> };
  const ran: string[] = [];
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
    fileUrl,
    hostImport(file),
    ran,
  );
  const report: CodeCacheReport = { file, cache: cacheFile, accepted, ran };
  const told = channel(CHANNEL);
  if (told.hasSubscribers) told.publish(report);
  return module.exports;
}

/** Writes the code V8 compiled so far, atomically; drops the caches of other builds. */
function writeCache(folder: string, cacheFile: string, name: string, script: Script): void {
  try {
    mkdirSync(folder, { recursive: true });
    // Not serialized for a folder it cannot write (every run would pay for it).
    accessSync(folder, constants.W_OK);
    const temporary = `${cacheFile}.${String(process.pid)}.tmp`;
    setFlagsFromString('--verify-snapshot-checksum');
    const data = script.createCachedData();
    setFlagsFromString('--no-verify-snapshot-checksum');
    writeFileSync(temporary, data);
    renameSync(temporary, cacheFile);
    // Another build's (another hash, Node or file time), a day old: not read by this one, and
    // likely by none (two installs side by side each keep theirs while they are used).
    const bundle = name.slice(0, name.indexOf('.cjs-') + '.cjs-'.length);
    const node = `-${process.version}-${process.arch}-`;
    const old = Date.now() - 86_400_000;
    for (const other of readdirSync(folder)) {
      if (!other.startsWith('cli-') || (other.startsWith(bundle) && other.includes(node))) continue;
      const path = join(folder, other);
      if (statSync(path).mtimeMs < old) rmSync(path, { force: true });
    }
  } catch {
    // A cache is worth nothing to a command that cannot write it: it runs as it would without.
  }
}
