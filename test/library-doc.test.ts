import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

// The library's page is what a user copies first: its example must compile against the package
// as a user's project sees it (node_modules/chatgraph, the `exports` map, the built .d.ts files).
describe('docs/library.md', () => {
  it("has an example that type-checks against the built package's entry points", () => {
    const page = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(page)?.[1];
    expect(example).toContain("from 'chatgraph'");
    const project = tempDir('chatgraph-doc-');
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules', 'chatgraph'), 'dir');
    writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
    const file = join(project, 'example.ts');
    writeFileSync(file, `${example ?? ''}\nexport {};\n`);
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});
