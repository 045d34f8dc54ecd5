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
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { throughDeclarers } from './unbarrel.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = `${root}src${sep}`;
// Every file the bundle writes is in here (chunk names included): the rewrite below counts on it.
const outDir = `${root}dist${sep}cli`;

/** Rewrites `import.meta.url` in each of our modules to its compiled file's URL (see above). */
const ownUrl = ({ recordRuns = false } = {}) => ({
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const read = await readFile(path, 'utf8');
      const own = path.startsWith(src) ? throughDeclarers(src, path, read) : read;
      const source = recordRuns ? ranFirst(path, own) : own;
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
    // The bundled packages' files, for the same record.
    if (recordRuns)
      build.onLoad({ filter: /[\\/]node_modules[\\/].*\.(c|m)?js$/ }, async ({ path }) => ({
        contents: ranFirst(path, await readFile(path, 'utf8')),
        loader: 'js',
      }));
  },
});

/**
 * Which of our modules (and the bundled packages' files) a command ran, for the tests' load
 * probe (\`src/cli/code-cache.ts\` gives \`__chatgraphRan\`, a list): a module of the CommonJS-shaped
 * bundle is run when first imported, and tells its path first. On the source's first line, so
 * that every other line keeps its number in the source map.
 */
function ranFirst(path, source) {
  const name = relative(root, path).split(sep).join('/');
  const shebang = source.startsWith('#!') ? source.slice(0, source.indexOf('\n') + 1) : '';
  return `${shebang}__chatgraphRan.push(${JSON.stringify(name)});${source.slice(shebang.length)}`;
}

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
 * Dependencies bundled in: pure modules a search loads at start, read as part of the bundle
 * rather than one of their files each (zod's `zod/v4` alone is 65). The others stay external
 * (\`hostImports\`): the native ones, and those that read files beside themselves or must be the
 * one instance their peers load (onnxruntime-common).
 */
const BUNDLED = new Set([
  // CommonJS: one part of the bundle rather than nine files resolved and read at every start.
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

/**
 * Every other dependency of the CommonJS-shaped bundle (see below): a module of a few lines
 * whose exports are the package's, taken at run time from `__chatgraphImport` (`src/cli/
 * code-cache.ts`: resolved as an `import()` from dist/cli would be, loaded synchronously), when
 * the module that imports it first runs. The names are read here, by importing the package.
 */
const hostImports = {
  name: 'host-imports',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path }) => {
      if (path.startsWith('node:')) return { path, external: true };
      if (BUNDLED.has(packageOf(path))) return undefined;
      return { path, namespace: 'host-import' };
    });
    build.onLoad({ filter: /.*/, namespace: 'host-import' }, async ({ path }) => {
      const asImport = import.meta.resolve(path, pathToFileURL(src).href);
      const namespace = await import(asImport);
      const names = Object.keys(namespace).filter((name) => name !== 'default');
      let asRequire;
      try {
        asRequire = createRequire(src).resolve(path);
      } catch {
        asRequire = undefined;
      }
      const how = asRequire === fileURLToPath(asImport) ? 'require' : 'import';
      return {
        contents: [
          `const namespace = __chatgraphImport(${JSON.stringify(path)}, ${JSON.stringify(how)});`,
          'export default namespace.default;',
          ...names.map(
            (name, i) =>
              `const name${i} = namespace[${JSON.stringify(name)}]; export { name${i} as ${JSON.stringify(name)} };`,
          ),
        ].join('\n'),
        loader: 'js',
        resolveDir: root,
      };
    });
  },
};

/**
 * Node's built-ins that cost a cold start a few ms each to load (child_process with net and the
 * streams ~5 ms, crypto ~3 ms of CPU) and that some commands use only on some paths (a keyword
 * search never starts a process: commander and the stores import child_process at their top):
 * in the CommonJS-shaped bundle, each is an object of getters that loads the built-in when one
 * of its exports is first read. Its names are read here.
 */
const LAZY_BUILTINS = new Set([
  'node:child_process',
  'node:crypto',
  'node:zlib',
  'node:http',
  'node:stream',
  'node:fs/promises',
]);
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, ({ path }) =>
      LAZY_BUILTINS.has(path) ? { path, namespace: 'lazy-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => ({
      contents: `let loaded;
const load = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(path)}));
for (const name of ${JSON.stringify(Object.keys(process.getBuiltinModule(path)))})
  Object.defineProperty(exports, name, { get: () => load()[name], enumerable: true });
`,
      loader: 'js',
    }));
  },
};

const common = {
  absWorkingDir: root,
  outdir: 'dist/cli',
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
};

/**
 * The CLI but `--version`: one CommonJS-shaped file, so that it can be compiled through
 * `vm.Script` with V8's code cache (`src/cli/code-cache.ts`; Node 20 has none for ES modules).
 * Every module is still run only when first imported (esbuild's `__esm`), and what only some
 * commands use is never compiled for the others (V8 compiles a function when first called).
 * `import.meta.url` is the bundle's URL, given by the loader (each module's own, see `ownUrl`).
 */
const cli = await build({
  ...common,
  entryPoints: { cli: 'src/cli/start.ts' },
  entryNames: '[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // Less source to read and hold (it is all read, whichever command runs); names are kept, for
  // the stack traces' function names.
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
  define: { 'import.meta.url': '__chatgraphUrl' },
  plugins: [
    bundledStemmers,
    lazyBuiltins,
    hostImports,
    ownSideEffectFree,
    ownUrl({ recordRuns: true }),
  ],
  metafile: true,
});
const cliFile = Object.keys(cli.metafile.outputs).find((file) => file.endsWith('.cjs'));
if (cliFile === undefined) throw new Error('bundle: no .cjs output');
asciiOnly(join(root, cliFile));

/**
 * esbuild escapes every character outside ASCII but in regular expression literals (7 lines):
 * those are escaped here, so that the loader can read the bundle as latin1 (a third of the CPU
 * of reading it as UTF-8, and half the memory: V8 keeps it one byte a character). `\\uXXXX`
 * means the same code unit in a string, a template, a regular expression (a surrogate pair of
 * them is one code point with the u flag too), an identifier or a comment. The source map's
 * columns after each on its line are moved by the same count.
 */
function asciiOnly(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  /** Per line, the columns of the characters escaped (each takes 5 more). */
  const moved = lines.map((line) => [...line.matchAll(/[^\0-\x7f]/g)].map((match) => match.index));
  if (moved.every((columns) => columns.length === 0)) return;
  const escaped = lines.map((line) =>
    line.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
  writeFileSync(file, escaped.join('\n'));
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
  map.mappings = map.mappings
    .split(';')
    .map((segments, line) => {
      const columns = moved[line] ?? [];
      if (columns.length === 0 || segments === '') return segments;
      let before = 0;
      let after = 0;
      return segments
        .split(',')
        .map((segment) => {
          const fields = vlqDecode(segment);
          before += fields[0];
          const column = before + 5 * columns.filter((c) => c < before).length;
          fields[0] = column - after;
          after = column;
          return vlqEncode(fields);
        })
        .join(',');
    })
    .join(';');
  writeFileSync(`${file}.map`, JSON.stringify(map));
}

/** A source map segment's fields (base64 VLQ, as the source map format writes them). */
function vlqDecode(segment) {
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}
function vlqEncode(fields) {
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  return fields
    .map((field) => {
      let value = field < 0 ? (-field << 1) | 1 : field << 1;
      let out = '';
      do {
        const digit = value & 31;
        value >>>= 5;
        out += BASE64[value > 0 ? digit | 32 : digit];
      } while (value > 0);
      return out;
    })
    .join('');
}

/**
 * `main.ts` alone: `--version`, and the loader of the file above; CommonJS too (\`bin\`:
 * dist/cli/main.cjs), so that Node starts it without its ES module loader (~12 ms of CPU).
 */
const startExternal = {
  name: 'start-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/start\.js$/ }, ({ path }) => ({ path, external: true }));
  },
};
const result = await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // `#!/usr/bin/env node` is kept from main.ts; each module's `import.meta.url` (see `ownUrl`)
  // is resolved from this file's.
  banner: {
    js: '"use strict"; var __chatgraphUrl = require("node:url").pathToFileURL(__filename).href;',
  },
  define: {
    'import.meta.url': '__chatgraphUrl',
    CHATGRAPH_CLI_BUNDLE: JSON.stringify(`./${cliFile.split('/').at(-1)}`),
  },
  plugins: [startExternal, someExternal, ownSideEffectFree, ownUrl()],
  // BUNDLE_META=file writes esbuild's metafile there (what each output holds and imports).
  metafile: process.env.BUNDLE_META !== undefined,
});
// dist/cli/main.js, the same CLI, for those who ran it by that name (tsc wrote the unbundled one).
writeFileSync(
  join(outDir, 'main.js'),
  "#!/usr/bin/env node\n// The CLI is dist/cli/main.cjs (scripts/bundle.mjs).\nimport './main.cjs';\n",
);
if (process.env.BUNDLE_META)
  writeFileSync(
    process.env.BUNDLE_META,
    JSON.stringify({
      inputs: { ...cli.metafile.inputs, ...result.metafile.inputs },
      outputs: { ...cli.metafile.outputs, ...result.metafile.outputs },
    }),
  );
