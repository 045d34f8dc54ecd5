import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  conversationErrors,
  embeddingsErrors,
  memoryStoreErrors,
  pamSchemaDir,
} from './support/pam-validator.js';
import { CI, PAM_REFERENCE } from './support/shared.js';

const SCHEMA_NAMES = [
  'portable-ai-memory-conversation.schema.json',
  'portable-ai-memory-embeddings.schema.json',
  'portable-ai-memory.schema.json',
];

function json(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

describe('the PAM schemas of the installed portable-ai-memory package', () => {
  it('are the three PAM v1.0 schemas', () => {
    const names = readdirSync(pamSchemaDir()).filter((name) => name.endsWith('.json'));
    expect(names.sort()).toEqual(SCHEMA_NAMES);
    for (const name of names)
      expect((json(join(pamSchemaDir(), name)) as { $id?: unknown }).$id).toMatch(
        /^https:\/\/schemas\.portable-ai-memory\.org\/v1\.0\//,
      );
  });
});

// Conformance layer: the schemas and examples published with the spec (../shared/pam).
const present = existsSync(join(PAM_REFERENCE, 'schemas'));

describe.skipIf(!present && !CI)('the published PAM schemas and examples (../shared/pam)', () => {
  function reference(...parts: string[]): string {
    if (!present)
      throw new Error(
        `the published PAM schemas are required under CI but missing: looked in ${PAM_REFERENCE} (set CHATGRAPH_SHARED)`,
      );
    return join(PAM_REFERENCE, ...parts);
  }

  it.each(SCHEMA_NAMES)('%s equals the package’s', (name) => {
    expect(json(join(pamSchemaDir(), name))).toEqual(json(reference('schemas', name)));
  });

  it('has its official examples validate', () => {
    expect(conversationErrors(json(reference('examples', 'example-conversation.json')))).toEqual(
      [],
    );
    expect(memoryStoreErrors(json(reference('examples', 'example-memory-store.json')))).toEqual([]);
    expect(embeddingsErrors(json(reference('examples', 'example-embeddings.json')))).toEqual([]);
  });
});
