import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

// A package.json, as far as it is read here.
const PackageName = z.object({ name: z.string().optional() });

const require = createRequire(import.meta.url);

/** A file the server sends as it is. */
export interface StaticFile {
  body: Buffer;
  type: string;
  /** Its body's hash, quoted: a browser that has this version asks with it and gets a 304. */
  etag: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

// The folder of an installed package (its entry point's nearest package.json of that name).
function packageDir(name: string): string {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    // The package's exports do not list package.json: start from its entry point.
  }
  let dir = dirname(require.resolve(name));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      PackageName.safeParse(JSON.parse(readFileSync(manifest, 'utf8'))).data?.name === name
    )
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the folder of ${name}`);
    dir = parent;
  }
}

/** The browser libraries, served from node_modules as their authors built them (no bundler). */
const VENDOR: Record<string, () => string> = {
  'dompurify.js': () => join(packageDir('dompurify'), 'dist', 'purify.es.mjs'),
  'marked.js': () => join(packageDir('marked'), 'lib', 'marked.esm.js'),
  'cytoscape.js': () => join(packageDir('cytoscape'), 'dist', 'cytoscape.esm.min.mjs'),
  // The layered layout of the graph view, with dagre inside it.
  'cytoscape-dagre.js': () =>
    join(packageDir('cytoscape-dagre'), 'dist', 'cytoscape-dagre.min.mjs'),
  // The Overview's time axis.
  'uplot.js': () => join(packageDir('uplot'), 'dist', 'uPlot.esm.js'),
  'uplot.css': () => join(packageDir('uplot'), 'dist', 'uPlot.min.css'),
  // highlight.js's own prebuilt browser build (the common languages in one ES module).
  'highlight.js': () => join(packageDir('@highlightjs/cdn-assets'), 'es', 'highlight.min.js'),
  'highlight.css': () => join(packageDir('@highlightjs/cdn-assets'), 'styles', 'github.min.css'),
  'highlight-dark.css': () =>
    join(packageDir('@highlightjs/cdn-assets'), 'styles', 'github-dark.min.css'),
};

/** The import map: the bare names the app's modules import, and where the browser finds them. */
export const IMPORT_MAP = JSON.stringify({
  imports: {
    dompurify: '/vendor/dompurify.js',
    marked: '/vendor/marked.js',
    cytoscape: '/vendor/cytoscape.js',
    'cytoscape-dagre': '/vendor/cytoscape-dagre.js',
    uplot: '/vendor/uplot.js',
    '@highlightjs/cdn-assets/es/highlight.min.js': '/vendor/highlight.js',
  },
});

/** The hash that lets the inline import map past the Content-Security-Policy. */
export const IMPORT_MAP_HASH = `'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'`;

/** The app's compiled browser modules: beside this file once built, else in dist (tests run src). */
function clientDir(): string {
  const here = fileURLToPath(new URL('./client/', import.meta.url));
  if (existsSync(join(here, 'main.js'))) return here;
  const built = fileURLToPath(new URL('../../dist/web/client/', import.meta.url));
  if (existsSync(join(built, 'main.js'))) return built;
  throw new Error('the web app is not built: run npm run build');
}

/** The page every route of the app starts from. */
export function indexHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>chatgraph</title>
<link rel="stylesheet" href="/vendor/uplot.css">
<link rel="stylesheet" href="/app/style.css">
<link rel="stylesheet" href="/vendor/highlight.css" id="code-light" media="(prefers-color-scheme: light)">
<link rel="stylesheet" href="/vendor/highlight-dark.css" id="code-dark" media="(prefers-color-scheme: dark)">
<script type="importmap">${IMPORT_MAP}</script>
<script type="module" src="/app/main.js"></script>
</head>
<body>
<header class="top">
  <a class="brand" href="#/">chatgraph</a>
  <nav>
    <a href="#/" data-nav="list">Conversations</a>
    <a href="#/search" data-nav="search">Search</a>
    <a href="#/memories" data-nav="memories">Memories</a>
    <a href="#/overview" data-nav="overview">Overview</a>
    <a href="#/usage" data-nav="usage">Usage</a>
    <a href="#/topics" data-nav="topics">Topics</a>
    <a href="#/cypher" data-nav="cypher">Cypher</a>
    <a href="#/import" data-nav="import">Import</a>
  </nav>
  <button type="button" class="theme-toggle" id="theme-toggle">Theme</button>
</header>
<main id="view" aria-live="polite"></main>
</body>
</html>
`;
}

const cache = new Map<string, StaticFile>();

function load(path: string): StaticFile | undefined {
  const cached = cache.get(path);
  if (cached) return cached;
  // `/app/` names the folder itself: only files are sent.
  if (!existsSync(path) || !statSync(path).isFile()) return undefined;
  const body = readFileSync(path);
  const file = {
    body,
    type: TYPES[extname(path)] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
  cache.set(path, file);
  return file;
}

// A path inside a folder, or undefined for anything that tries to leave it.
function inside(root: string, relative: string): string | undefined {
  const path = normalize(join(root, relative));
  return path.startsWith(root.endsWith(sep) ? root : root + sep) ? path : undefined;
}

/** The file for a URL path under /app/ or /vendor/, if there is one. */
export function staticFile(pathname: string): StaticFile | undefined {
  if (pathname.startsWith('/app/')) {
    const path = inside(clientDir(), decodeURIComponent(pathname.slice('/app/'.length)));
    return path ? load(path) : undefined;
  }
  if (pathname.startsWith('/vendor/')) {
    const name = pathname.slice('/vendor/'.length);
    // Own names only: `/vendor/__proto__` is not a library.
    return Object.hasOwn(VENDOR, name) ? load((VENDOR[name] as () => string)()) : undefined;
  }
  return undefined;
}
