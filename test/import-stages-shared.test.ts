import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/shared.js';

// The import is composed once, of the named stages of src/pipeline/import-stages.ts; `import`,
// `convert`, `reindex`, `push` and `watch` run those stages and write nothing themselves. This
// fails when one of them writes a conversation to the bundle or the store, or projects one,
// past the stages: a second pipeline beside the first.

/** The files of the verbs: each composes stages, none writes past them. */
const VERBS = [
  'src/pipeline/import-pipeline.ts',
  'src/pipeline/convert-exports.ts',
  'src/data-folder/import-exports.ts',
  'src/data-folder/follow-folders.ts',
  ...readdirSync(join(ROOT, 'src/live'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => `src/live/${name}`),
];

/** What writes a conversation (or makes what is written), by the file that declares it. */
const WRITES: Record<string, string[]> = {
  'src/stores/store.ts': [
    'write',
    'applyDelta',
    'patch',
    'recordImport',
    'recordFingerprint',
    'dropStaleImports',
  ],
  'src/bundle/bundle-writer.ts': ['writeConversation', 'putConversation', 'copyAsset', 'writeText'],
  'src/pipeline/write-bundle.ts': ['writeToBundle'],
  'src/graph/project-conversation.ts': ['projectConversation'],
  'src/bundle/read-bundle.ts': ['readBundleConversations'],
  'src/pipeline/convert-claims.ts': ['convertFile'],
};

function program(): ts.Program {
  const configFile = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) =>
    ts.sys.readFile(path),
  );
  const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  return ts.createProgram(
    VERBS.map((file) => join(ROOT, file)),
    config.options,
  );
}

/** Each call in a file of what the file that declares it, and the name it is called by. */
function callsOf(prog: ts.Program, file: string): { declaredIn: string; name: string }[] {
  const checker = prog.getTypeChecker();
  const source = prog.getSourceFile(join(ROOT, file));
  if (!source) throw new Error(`${file} is not in the program`);
  const found: { declaredIn: string; name: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression)
        ? node.expression.name
        : node.expression;
      let symbol = checker.getSymbolAtLocation(callee);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const declaration of symbol?.declarations ?? [])
        found.push({
          declaredIn: relative(ROOT, declaration.getSourceFile().fileName),
          name: callee.getText(),
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The names a file imports from a module (its path in the repository, without extension). */
function importedFrom(prog: ts.Program, file: string, module: string): string[] {
  const source = prog.getSourceFile(join(ROOT, file));
  const names: string[] = [];
  for (const statement of source?.statements ?? []) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const path = join(dirname(file), statement.moduleSpecifier.text);
    if (path !== `${module}.js`) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements) names.push(element.name.text);
  }
  return names;
}

describe('the import, composed once of named stages', () => {
  const prog = program();

  it('reads the verbs it checks', () => {
    expect(VERBS).toContain('src/live/live-writer.ts');
    expect(VERBS).toContain('src/live/follow-export.ts');
    // The checker sees through a call: writeToBundle is called where it is, by the stage.
    const stage = callsOf(prog, 'src/pipeline/import-stages.ts');
    expect(stage).toContainEqual({
      declaredIn: 'src/pipeline/write-bundle.ts',
      name: 'writeToBundle',
    });
    expect(stage).toContainEqual({ declaredIn: 'src/stores/store.ts', name: 'recordImport' });
  });

  it('import, convert, reindex, push and watch write nothing but through the stages', () => {
    const past = VERBS.flatMap((file) =>
      callsOf(prog, file)
        .filter(({ declaredIn, name }) => WRITES[declaredIn]?.includes(name))
        .map(({ declaredIn, name }) => `${file}: ${name} (${declaredIn})`),
    );
    expect(past).toEqual([]);
  });

  it('import, reindex and push, and watch run the same stages', () => {
    const stages = (file: string): string[] =>
      importedFrom(prog, file, 'src/pipeline/import-stages');
    // import (and convert): the one composition.
    expect(
      importedFrom(prog, 'src/data-folder/import-exports.ts', 'src/pipeline/import-pipeline'),
    ).toContain('importPipeline');
    expect(
      importedFrom(prog, 'src/pipeline/convert-exports.ts', 'src/pipeline/import-pipeline'),
    ).toContain('importPipeline');
    expect(stages('src/pipeline/import-pipeline.ts')).toEqual(
      expect.arrayContaining(['convert', 'settle', 'toBundle', 'project', 'toStore']),
    );
    // reindex and push: the bundle read back, down the same project and store stages.
    expect(stages('src/data-folder/import-exports.ts')).toEqual(
      expect.arrayContaining(['fromBundle', 'project', 'toStore']),
    );
    // watch: a followed log's steps and settled files, down the same bundle, project and store stages.
    expect(stages('src/live/live-writer.ts')).toEqual(
      expect.arrayContaining(['toBundle', 'project', 'toStore']),
    );
  });

  it('watch does not import an export itself: the data folder hands it the import', () => {
    for (const file of VERBS.filter((f) => f.startsWith('src/live/')))
      expect(importedFrom(prog, file, 'src/data-folder/import-exports'), file).toEqual([]);
  });
});
