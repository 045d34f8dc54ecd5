/** The dependency rule of architecture.md: a pure middle, I/O and shells at the edges, no cycles. */
// The wire shapes: each declared once, as a zod schema (see the wire-shapes-stand-alone rule).
const WIRE_SHAPES = ['^src/search/search-hit\\.ts$', '^src/model/memory-type\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'pure-middle-no-io',
      comment:
        'model, graph and providers are functions of their input: no file system, no stores, no shells.',
      severity: 'error',
      from: { path: '^src/(model|graph|providers)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: [
          '^node:fs',
          '^fs$',
          '^fs/',
          '^node:child_process',
          '^src/(stores|cli|web|mcp|bundle|read)/',
        ],
        // Types, and the pure path helper beside the Entry type, carry no I/O.
        pathNot: '^src/read/entry\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'read-not-bundle',
      comment:
        'The read side (exports in) does not depend on the write side (the bundle out); what both need lives in model.',
      severity: 'error',
      from: { path: '^src/read/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/bundle/' },
    },
    {
      name: 'shells-use-public-api',
      comment:
        'The CLI, web app and MCP server import only the public API (src/index.ts and the subpaths in src/api/) and each other.',
      severity: 'error',
      from: { path: '^src/(cli|web|mcp)/' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/index\\.ts$',
          '^src/api/[a-z-]+\\.ts$',
          '^src/(cli|web|mcp)/',
          ...WIRE_SHAPES,
        ],
      },
    },
    {
      name: 'wire-shapes-stand-alone',
      comment:
        'A wire shape (one zod schema a shell answers with and the library infers its type from) imports zod alone: the web page compiles it for its types, and the shells may import it beside the public API.',
      severity: 'error',
      from: { path: WIRE_SHAPES },
      to: { path: '^src/' },
    },
    {
      name: 'write-lock-is-the-folders',
      comment:
        "A write goes through the folder's one write sequence (Folder.write): only src/folder/ reaches the lock. Types (LockHolder) may be named anywhere; the public entry re-exports the busy error for callers to catch, and doctor reads the last holder's pid.",
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['^src/folder/', '^src/index\\.ts$', '^src/doctor/lock-check\\.ts$'],
      },
      to: { path: '^src/folder/write-lock\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'library-not-shells',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|web|mcp)/' },
      to: { path: '^src/(cli|web|mcp)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.test\\.ts$' },
  },
};
