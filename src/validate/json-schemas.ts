import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchedSchemaDir } from './fetch-schemas.js';
import type { FileFindings } from './finding.js';
import { z } from 'zod';

// A JSON Schema file is an object (what Ajv compiles).
const JsonObject = z.record(z.string(), z.unknown());

/** The official schema files, by the `schema` value of the documents each describes. */
const FILES = {
  'portable-ai-memory': 'portable-ai-memory.schema.json',
  'portable-ai-memory-conversation': 'portable-ai-memory-conversation.schema.json',
  'portable-ai-memory-embeddings': 'portable-ai-memory-embeddings.schema.json',
} as const;

export type DocumentKind = keyof typeof FILES;

export function isDocumentKind(value: unknown): value is DocumentKind {
  return typeof value === 'string' && Object.hasOwn(FILES, value);
}

/** Checks a document against its official JSON Schema. */
export type SchemaCheck = (kind: DocumentKind, value: unknown, findings: FileFindings) => void;

/**
 * Where the official PAM JSON Schemas are: `dir` when given (`--schemas`), else
 * `$CHATGRAPH_PAM_SCHEMAS`, else those the official Python package `portable-ai-memory` ships,
 * found through `python3`, else those `validate --fetch-schemas` fetched from that package on
 * PyPI (checksum-pinned). chatgraph does not ship copies of them: they are PAM's, and the
 * package's are the ones its own validator uses.
 */
export function findSchemaDir(
  dir?: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const given = dir ?? env.CHATGRAPH_PAM_SCHEMAS;
  if (given !== undefined && given !== '') return given;
  for (const python of ['python3', 'python']) {
    const found = spawnSync(
      python,
      [
        '-c',
        'import os, portable_ai_memory as p; print(os.path.join(os.path.dirname(p.__file__), "schemas"))',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const path = found.status === 0 ? found.stdout.trim() : '';
    if (path !== '' && existsSync(join(path, FILES['portable-ai-memory']))) return path;
  }
  const fetched = fetchedSchemaDir(env);
  if (Object.values(FILES).every((file) => existsSync(join(fetched, file)))) return fetched;
  return undefined;
}

/** The schema check with the schemas in `dir` (Ajv, JSON Schema 2020-12, with formats). */
export async function loadSchemaCheck(dir: string): Promise<SchemaCheck> {
  // Loaded only here: `import 'chatgraph'` does not load a JSON Schema validator.
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const addFormats = (await import('ajv-formats')).default;
  // pam-notes.md §0.5: union types (ToolCall.input); strictRequired off, as the memory store's
  // if/then requires properties it declares elsewhere.
  const ajv = new Ajv2020({
    allErrors: true,
    allowUnionTypes: true,
    strictRequired: false,
    strict: false,
  });
  addFormats.default(ajv);
  const validators = new Map(
    Object.entries(FILES).map(([kind, file]) => {
      const path = join(dir, file);
      if (!existsSync(path)) throw new Error(`${path}: the PAM schema is not there`);
      return [kind, ajv.compile(JsonObject.parse(JSON.parse(readFileSync(path, 'utf8'))))];
    }),
  );
  return (kind, value, findings) => {
    const validate = validators.get(kind);
    if (!validate || validate(value)) return;
    for (const error of validate.errors ?? []) {
      const path = `$${error.instancePath
        .split('/')
        .slice(1)
        .map((part) =>
          /^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`,
        )
        .join('')}`;
      const params = JSON.stringify(error.params);
      findings.error(
        path,
        'schema',
        `${error.message ?? 'is not valid'} ${params === '{}' ? '' : params}`.trim(),
      );
    }
  };
}
