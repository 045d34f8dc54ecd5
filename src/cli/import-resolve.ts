/**
 * Where `import(specifier)` from dist/cli/ would load a package from (the import conditions of
 * its exports), synchronously: `src/cli/code-cache.ts` loads this ES module with `require` when
 * a command first imports a package that CommonJS resolution would find elsewhere (or not at
 * all: one with only an "import" export), so that a command that imports none (a keyword search:
 * better-sqlite3 is found the same both ways) never starts Node's ES module loader.
 */
export function resolveAsImport(specifier: string): string {
  return import.meta.resolve(specifier);
}
