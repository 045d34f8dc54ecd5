import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/shared.js';

// The shells (CLI commands, web server, MCP server) reach the data folder only through
// `DataFolder`: none of them takes the write lock, opens a store, writes the bundle, or calls a
// verb's library function past it. The names are those of the public API that do one of these.
const PAST_THE_FOLDER = new Set([
  'withWriteLock',
  'openStore',
  'importExports',
  'reindex',
  'pushBundle',
  'deleteConversation',
  'embedStore',
  'remember',
  'forget',
  'reviseMemory',
  'followFolders',
  'flushMemories',
  'syncMemories',
  'readTombstones',
]);
// Modules below the public API that do the same, imported by path.
const PAST_THE_FOLDER_FILES =
  /(folder\/(write-lock|open-store|locked-store)|data-folder\/(import-exports|delete-conversation|follow-folders)|bundle\/bundle-writer|memory\/(remember|write-memories)|recall\/embed-store|live\/follower)\.js$/;

const SHELLS = ['src/cli', 'src/web', 'src/mcp'];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((file) => !file.startsWith('src/web/client/'));
}

/** Each import of a file: the module it names, and the names it takes. */
function importsOf(file: string): { module: string; names: string[] }[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(ROOT, file), 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const found: { module: string; names: string[] }[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier)) continue;
    const names: string[] = [];
    const bindings = ts.isImportDeclaration(statement)
      ? statement.importClause?.namedBindings
      : statement.exportClause;
    if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)))
      for (const element of bindings.elements)
        names.push((element.propertyName ?? element.name).text);
    found.push({ module: specifier.text, names });
  }
  return found;
}

describe('the shells and the data folder', () => {
  const files = SHELLS.flatMap(sources);

  it('reads the shells it checks (and sees the folder opened through DataFolder)', () => {
    expect(files).toContain('src/cli/commands/serve.ts');
    expect(files).toContain('src/mcp/create-server.ts');
    const storeOptions = importsOf('src/cli/store-options.ts');
    expect(storeOptions.flatMap((i) => i.names)).toContain('DataFolder');
  });

  it('no shell takes the lock, opens a store or writes the bundle but through DataFolder', () => {
    const past = files.flatMap((file) =>
      importsOf(file).flatMap(({ module, names }) => [
        ...(PAST_THE_FOLDER_FILES.test(module) ? [`${file}: imports ${module}`] : []),
        ...names.filter((name) => PAST_THE_FOLDER.has(name)).map((name) => `${file}: ${name}`),
      ]),
    );
    expect(past).toEqual([]);
  });
});
