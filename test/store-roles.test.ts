import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/shared.js';

// Issue 27: `Store` is its roles (an import's sink, the import ledger, the reader of
// conversations, questions over the graph, vectors, memories), each small enough to hold in
// mind and to implement for a third store. Read from the source, so a member added to a role
// is counted the moment it is written.
const ROLE_FILES: Record<string, string> = {
  GraphSink: 'src/stores/store.ts',
  ImportLedger: 'src/stores/store.ts',
  ConversationReader: 'src/stores/store.ts',
  GraphQueries: 'src/stores/store.ts',
  VectorHolder: 'src/stores/store.ts',
  MemoryHolder: 'src/stores/store.ts',
  UsageHolder: 'src/stores/store.ts',
  UsageReader: 'src/stores/usage-reader.ts',
  Store: 'src/stores/store.ts',
  MemoryIndex: 'src/stores/memory-index.ts',
  VectorWriter: 'src/stores/vector-index.ts',
  VectorReader: 'src/stores/vector-index.ts',
};

function membersOf(file: string, name: string): { members: string[]; extended: string[] } {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(ROOT, file), 'utf8'),
    ts.ScriptTarget.Latest,
  );
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement) && statement.name.text === name) {
      return {
        members: statement.members.map((m) => m.name?.getText(source) ?? '?'),
        extended: (statement.heritageClauses ?? []).flatMap((c) =>
          c.types.map((t) => t.expression.getText(source)),
        ),
      };
    }
  }
  throw new Error(`${file} declares no interface ${name}`);
}

describe('the store roles', () => {
  it.each(Object.entries(ROLE_FILES))('%s has fewer than 10 members', (name, file) => {
    expect(membersOf(file, name).members.length).toBeLessThan(10);
  });

  it('Store is its roles and one member of its own', () => {
    const store = membersOf('src/stores/store.ts', 'Store');
    expect(store.extended).toEqual([
      'GraphSink',
      'ImportLedger',
      'ConversationReader',
      'GraphQueries',
      'VectorHolder',
      'MemoryHolder',
      'UsageHolder',
    ]);
    expect(store.members).toEqual(['close']);
  });
});
