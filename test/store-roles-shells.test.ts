import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/shared.js';

// Issue 40, "Done when": the `Store` members a shell can reach are reads only. The shells import
// the public API alone (`shells-use-public-api` in .dependency-cruiser.cjs), so what they can
// reach is what the public entry points hand out: each export's type, walked by the compiler
// through its public members, what its methods give back (promises opened) and what callbacks
// it calls are given. Reaching a write role of the store (`GraphSink`, `ImportLedger`), the
// whole `Store`, or a store class fails here, with the path that reached it.
const ENTRIES = [
  join(ROOT, 'src', 'index.ts'),
  ...readdirSync(join(ROOT, 'src', 'api'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(ROOT, 'src', 'api', f)),
];
const SRC = join(ROOT, 'src');
const WRITE_ROLES = new Set(['Store', 'GraphSink', 'ImportLedger', 'SqliteStore', 'Neo4jStore']);
// Members of a store's write roles: reached on any object, they are a write path.
const WRITE_MEMBERS = new Set(['clear', 'upsert', 'applyDelta', 'recordImport', 'setDeep']);

function reachedWrites(): string[] {
  const program = ts.createProgram(ENTRIES, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const seen = new Set<ts.Type>();
  const found: string[] = [];
  const isPublic = (symbol: ts.Symbol): boolean =>
    !(symbol.declarations ?? []).some(
      (d) =>
        (ts.getCombinedModifierFlags(d) &
          (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !==
          0 ||
        ((ts.isPropertyDeclaration(d) || ts.isMethodDeclaration(d)) &&
          ts.isPrivateIdentifier(d.name)),
    );
  const walk = (type: ts.Type, path: string, depth: number): void => {
    if (depth > 8 || seen.has(type)) return;
    seen.add(type);
    const name = (type.aliasSymbol ?? type.getSymbol())?.getName();
    if (name !== undefined && WRITE_ROLES.has(name)) {
      found.push(`${path}: ${name}`);
      return;
    }
    if (type.isUnionOrIntersection()) {
      for (const part of type.types) walk(part, path, depth + 1);
      return;
    }
    // Promises, arrays, maps: what they hold.
    for (const argument of checker.getTypeArguments(type as ts.TypeReference))
      walk(argument, `${path}<>`, depth + 1);
    // A type of the language or of a dependency (a Set's `clear` is not the store's): what it
    // holds only.
    const declared = (type.aliasSymbol ?? type.getSymbol())?.declarations ?? [];
    if (declared.length > 0 && declared.every((d) => !d.getSourceFile().fileName.startsWith(SRC)))
      return;
    for (const signature of type.getCallSignatures()) {
      walk(signature.getReturnType(), `${path}()`, depth + 1);
      for (const parameter of signature.getParameters()) {
        const given = checker.getTypeOfSymbol(parameter);
        // A callback's own parameters are what the library hands the caller.
        for (const callback of given.getNonNullableType().getCallSignatures())
          for (const handed of callback.getParameters())
            walk(checker.getTypeOfSymbol(handed), `${path}(${handed.getName()} =>)`, depth + 1);
      }
    }
    for (const signature of type.getConstructSignatures())
      walk(signature.getReturnType(), `new ${path}`, depth + 1);
    for (const property of type.getProperties()) {
      if (!isPublic(property)) continue;
      const at = `${path}.${property.getName()}`;
      if (WRITE_MEMBERS.has(property.getName())) found.push(at);
      walk(checker.getTypeOfSymbol(property), at, depth + 1);
    }
  };
  for (const file of ENTRIES) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file}: not read`);
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const entry = `${file.slice(ROOT.length + 1)}:${exported.getName()}`;
      if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))
        walk(checker.getDeclaredTypeOfSymbol(symbol), entry, 0);
      if (symbol.flags & ts.SymbolFlags.Class) {
        walk(checker.getDeclaredTypeOfSymbol(symbol), entry, 0);
        walk(checker.getTypeOfSymbol(symbol), entry, 0);
      } else if (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable))
        walk(checker.getTypeOfSymbol(symbol), entry, 0);
    }
  }
  return found;
}

describe('what the shells can reach of a store', () => {
  it('is reads only: no write role of the store is reachable from the public API', () => {
    expect(reachedWrites()).toEqual([]);
  }, 60_000);
});
