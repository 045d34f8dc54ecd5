import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ROOT } from './shared.js';

/** The command that makes the venv holding the official PAM package (and its schemas). */
export const PAM_INSTALL =
  "python3 -m venv .venv-pam && .venv-pam/bin/pip install 'portable-ai-memory[cli]==1.0.0'";

/** The folder of the JSON Schemas the PyPI package `portable-ai-memory` ships, in .venv-pam. */
export function pamSchemaDir(): string {
  const lib = join(ROOT, '.venv-pam', 'lib');
  const found = (existsSync(lib) ? readdirSync(lib) : [])
    .filter((name) => name.startsWith('python'))
    .sort()
    .map((name) => join(lib, name, 'site-packages', 'portable_ai_memory', 'schemas'))
    .find((dir) => existsSync(dir));
  if (found === undefined)
    throw new Error(
      `the PAM JSON Schemas are missing: no .venv-pam/lib/python*/site-packages/portable_ai_memory/schemas (install them: ${PAM_INSTALL})`,
    );
  return found;
}

const SCHEMAS = pamSchemaDir();

function load(name: string): object {
  return JSON.parse(readFileSync(join(SCHEMAS, name), 'utf8')) as object;
}

// pam-notes.md §0.5: Ajv 2020 with formats; union types allowed (ToolCall.input); strictRequired
// off because the memory-store schema's if/then requires undeclared properties.
const ajv = new Ajv2020({
  allErrors: true,
  allowUnionTypes: true,
  strictRequired: false,
  strict: false,
});
addFormats.default(ajv);

const conversation: ValidateFunction = ajv.compile(
  load('portable-ai-memory-conversation.schema.json'),
);
const memoryStore: ValidateFunction = ajv.compile(load('portable-ai-memory.schema.json'));

function check(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}

/** Schema errors of a conversation file (empty when valid). */
export function conversationErrors(value: unknown): string[] {
  return check(conversation, value);
}

/** Schema errors of a memory-store file (empty when valid). */
export function memoryStoreErrors(value: unknown): string[] {
  return check(memoryStore, value);
}

const embeddings: ValidateFunction = ajv.compile(load('portable-ai-memory-embeddings.schema.json'));

/** Schema errors of an embeddings file (empty when valid). */
export function embeddingsErrors(value: unknown): string[] {
  return check(embeddings, value);
}
