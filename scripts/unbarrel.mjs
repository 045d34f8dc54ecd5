// The shells (src/cli, src/web, src/mcp) import the public API only (`npm run deps`): its entry
// files, `src/index.ts`, `src/api/*.ts`, `src/sqlite.ts`, `src/neo4j.ts`, are lists of
// `export { … } from './module.js'`. In the bundle (issue 46) each such import is sent to the
// modules that declare the names instead: esbuild's code splitting makes a chunk import every
// chunk holding a file its imports reach, whether or not a name of that file is used, so
// `search` importing `MATCH_START` from `api/view.ts` loaded every provider (the conversation
// view's registry), yaml and the exports' renderers with it: 2 MB of JavaScript in 69 chunks.
// The sources keep their imports of the public API; only what esbuild reads changes, line for
// line (so the source maps still point at the right lines).
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Whether `path` (absolute, .ts) is one of the public entry files under `src`. */
export function isPublicEntry(src, path) {
  const rest = path.slice(src.length).split(sep).join('/');
  return (
    path.startsWith(src) &&
    (rest === 'index.ts' ||
      rest === 'sqlite.ts' ||
      rest === 'neo4j.ts' ||
      /^api\/[a-z-]+\.ts$/.test(rest))
  );
}

const entries = new Map();

/**
 * What an entry file re-exports: exported name → { from: absolute .ts path, name: its name
 * there, typeOnly }. Anything other than `export { … } from` (a declaration, `export *`) is
 * refused: the rewrite would be wrong, so the build says so rather than guess.
 */
function exportsOf(path) {
  const known = entries.get(path);
  if (known) return known;
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
  const names = new Map();
  for (const statement of source.statements) {
    if (
      !ts.isExportDeclaration(statement) ||
      statement.moduleSpecifier === undefined ||
      statement.exportClause === undefined ||
      !ts.isNamedExports(statement.exportClause) ||
      !ts.isStringLiteral(statement.moduleSpecifier)
    )
      throw new Error(
        `${path}: a public entry file should only re-export names (export { … } from)`,
      );
    const from = tsPathOf(path, statement.moduleSpecifier.text);
    for (const element of statement.exportClause.elements)
      names.set(element.name.text, {
        from,
        name: (element.propertyName ?? element.name).text,
        typeOnly: statement.isTypeOnly || element.isTypeOnly,
      });
  }
  entries.set(path, names);
  return names;
}

const tsPathOf = (importer, specifier) =>
  resolve(dirname(importer), specifier.replace(/\.js$/, '.ts'));

/** `from` as a relative specifier from `importer`'s folder, as the sources write them. */
function specifierOf(importer, from) {
  const path = relative(dirname(importer), from).split(sep).join('/').replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

/**
 * `source` (the file at `path`) with each static import of a public entry file replaced by
 * imports from the modules that declare its names; the same number of lines.
 */
export function throughDeclarers(src, path, source) {
  if (!/from ['"][./]+(?:index|sqlite|neo4j|api\/[a-z-]+)\.js['"]/.test(source)) return source;
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest);
  const edits = [];
  for (const statement of file.statements) {
    if (
      !ts.isImportDeclaration(statement) ||
      !ts.isStringLiteral(statement.moduleSpecifier) ||
      !statement.moduleSpecifier.text.startsWith('.')
    )
      continue;
    const entry = tsPathOf(path, statement.moduleSpecifier.text);
    if (!isPublicEntry(src, entry)) continue;
    const clause = statement.importClause;
    if (clause === undefined || clause.isTypeOnly) continue;
    if (
      clause.name !== undefined ||
      clause.namedBindings === undefined ||
      !ts.isNamedImports(clause.namedBindings)
    )
      throw new Error(`${path}: import only named bindings from ${statement.moduleSpecifier.text}`);
    const names = exportsOf(entry);
    const byModule = new Map();
    for (const element of clause.namedBindings.elements) {
      if (element.isTypeOnly) continue;
      const exported = (element.propertyName ?? element.name).text;
      const declared = names.get(exported);
      if (declared === undefined)
        throw new Error(`${path}: ${statement.moduleSpecifier.text} has no export ${exported}`);
      // A type imported without `type`: nothing to load (esbuild drops it), so nothing to send.
      if (declared.typeOnly) continue;
      const local = element.name.text;
      const binding = declared.name === local ? local : `${declared.name} as ${local}`;
      byModule.set(declared.from, [...(byModule.get(declared.from) ?? []), binding]);
    }
    const start = statement.getStart(file);
    const end = statement.getEnd();
    const lines = source.slice(start, end).split('\n').length;
    const text = [...byModule]
      .map(
        ([from, bindings]) =>
          `import { ${bindings.join(', ')} } from '${specifierOf(path, from)}';`,
      )
      .join(' ');
    edits.push({ start, end, text: text + '\n'.repeat(lines - 1) });
  }
  let out = source;
  for (const { start, end, text } of edits.reverse())
    out = out.slice(0, start) + text + out.slice(end);
  return out;
}
