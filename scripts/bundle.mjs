// After tsc (issue 46): the CLI as one bundled entry file, `dist/cli/main.js` (what
// `package.json`'s `bin.chatgraph` names), and a chunk per lazily loaded command beside it, made
// by esbuild. A cold start loaded ~490 of our compiled files one by one; the bundle loads a
// handful. tsc's output stays in dist/ for the library's exports, its types, and the files a
// bundle starts in another process or thread (the search and Cypher children, the embedding and
// conversion workers).
//
// Dependencies stay external (node_modules, as installed) but for a few pure ES modules (see
// BUNDLED): the native ones (better-sqlite3-multiple-ciphers, onnxruntime-node, @grafeo-db/js)
// must, and the others keep their own layout for the files they read beside themselves.
//
// `import.meta.url` means "where this module's file is" to the code that reads it (the child
// and worker scripts beside it, the web client's files, package.json): in a bundle every module
// would share the bundle's URL. Each module's `import.meta.url` is therefore rewritten to the
// URL its tsc-compiled file has (resolved from the bundle's own, as every output of the bundle
// lies in dist/cli/), so every such path resolves as before, installed anywhere.
//
// Source maps beside each output file; `src/cli/mapped-stacks.ts` maps a stack trace's frames
// through them when one is written, so it names our src/…ts files and lines.
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { throughDeclarers } from './unbarrel.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = `${root}src${sep}`;
// Every file the bundle writes is in here (chunk names included): the rewrite below counts on it.
const outDir = `${root}dist${sep}cli`;

/** Rewrites `import.meta.url` in each of our modules to its compiled file's URL (see above). */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const read = await readFile(path, 'utf8');
      const source = path.startsWith(src) ? throughDeclarers(src, path, read) : read;
      if (!path.startsWith(src) || !source.includes('import.meta.url'))
        return { contents: source, loader: 'ts' };
      const compiled = `${root}dist${sep}${path.slice(src.length).replace(/\.ts$/, '.js')}`;
      const fromBundle = relative(outDir, compiled).split(sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

/**
 * Our modules are bundled as free of side effects at import (none is imported for its effects
 * alone: `import './x.js'` appears nowhere in src/), so what a command does not use is left out
 * even when it comes through a barrel of the public API: `search` reached 371 of our files
 * through `api/view.ts` (every provider, by the conversation view's registry) and `src/index.ts`
 * (the import pipeline), and loaded them all.
 */
const ownSideEffectFree = {
  name: 'own-side-effect-free',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData?.own === true || !args.importer.startsWith(src)) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { own: true },
      });
      if (resolved.errors.length > 0 || !resolved.path.startsWith(src)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * Dependencies bundled in: pure ES modules a search loads at start, read as one file rather than
 * one of theirs each (zod's `zod/v4` alone is 65). The others stay external: the native ones,
 * the CommonJS ones (a bundle of ES modules has no `require` for them), and those that read
 * files beside themselves or must be the one instance their peers load (onnxruntime-common).
 */
const BUNDLED = new Set([
  // CommonJS, but its Node built-ins come through \`builtinsOfCommonJs\`: one chunk rather than
  // nine files resolved, read and lexed for their exports at every start.
  'commander',
  'zod',
  'smol-toml',
  'htmlparser2',
  'entities',
  'domutils',
  'domhandler',
  'dom-serializer',
  'domelementtype',
  'marked',
  're2js',
  '@scure/base',
  // CommonJS without built-ins: what the bundled stemmers require (see `bundledStemmers`).
  '@nlpjs/core',
]);
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const someExternal = {
  name: 'some-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('node:') || !BUNDLED.has(packageOf(path))
        ? { path, external: true }
        : undefined,
    );
  },
};

/**
 * A bundled CommonJS package's \`require('node:…')\`: an ES module bundle has no \`require\` (esbuild
 * would throw "Dynamic require … is not supported"), so each is the built-in itself, taken
 * synchronously with \`process.getBuiltinModule\` (Node 20.16 and later).
 */
const builtinsOfCommonJs = {
  name: 'builtins-of-commonjs',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, ({ path, kind }) =>
      kind === 'require-call' ? { path, namespace: 'builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(path)});`,
      loader: 'js',
    }));
  },
};

/**
 * nlp.js's stemmers in the bundle: `src/search/stemmer-class.ts` finds each language's CommonJS
 * file in node_modules at run time (the library does so); here its table is read and each file
 * resolved now, so a search no longer resolves, reads and compiles a stemmer's file and
 * @nlpjs/core's 22 one by one (35 CommonJS files for a search's seven languages, issue 46).
 * Each is still run on first use of its language.
 */
const bundledStemmers = {
  name: 'bundled-stemmers',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]search[\\/]stemmer-class\.ts$/ }, async ({ path }) => {
      const table = [
        ...(await readFile(path, 'utf8')).matchAll(
          /^ {2}(\w+): \{ from: '([^']+)', file: '([^']+)' \},$/gm,
        ),
      ];
      if (table.length !== 7)
        throw new Error(`${path}: expected seven stemmers, read ${table.length}`);
      const cases = table.map(([, language, from, file]) => {
        const resolved = createRequire(createRequire(path).resolve(from)).resolve(file);
        return `    case ${JSON.stringify(language)}: return require(${JSON.stringify(resolved)});`;
      });
      return {
        contents: `export function stemmerClass(language) {
  switch (language) {
${cases.join('\n')}
  }
  throw new Error(\`no stemmer for \${language}\`);
}
`,
        loader: 'js',
      };
    });
  },
};

const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  // `#!/usr/bin/env node` is kept from main.ts; nothing else is added.
  logLevel: 'warning',
  plugins: [bundledStemmers, builtinsOfCommonJs, someExternal, ownSideEffectFree, ownUrl],
  // BUNDLE_META=file writes esbuild's metafile there (what each chunk holds and imports).
  metafile: process.env.BUNDLE_META !== undefined,
});
if (process.env.BUNDLE_META)
  writeFileSync(process.env.BUNDLE_META, JSON.stringify(result.metafile));
