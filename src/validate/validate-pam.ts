import { existsSync, statSync } from 'node:fs';
import { FileTooLargeError, NotARegularFileError, readRegularFile } from '../read/regular-file.js';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  conversationSchema,
  checkConversation,
  type ConversationDocument,
} from './deep-conversation.js';
import { checkMemoryStore, storeSchema, type StoreDocument } from './deep-memory-store.js';
import { checkIndexAgainstFiles } from './bundle-index.js';
import { fetchPamSchemas, type FetchSchemasOptions } from './fetch-schemas.js';
import { FileFindings, type Finding } from './finding.js';
import {
  findSchemaDir,
  isDocumentKind,
  loadSchemaCheck,
  type SchemaCheck,
} from './json-schemas.js';

export type { Finding } from './finding.js';

/** What {@link validatePam} found. */
export interface ValidationReport {
  path: string;
  /**
   * No errors (warnings allowed), as `pam validate` judges, with both halves run: false when
   * the official JSON Schemas were not found, however the deep rules went (see `checked`).
   */
  valid: boolean;
  /** What was checked: the deep rules alone when the official JSON Schemas were not found. */
  checked: 'schemas and deep rules' | 'deep rules only';
  /** How many files were read. */
  files: number;
  /** Where the official JSON Schemas were read from, or undefined when none were found. */
  schemas?: string;
  /** The schemas were fetched for this check (`fetchSchemas`), none being found. */
  fetched?: boolean;
  findings: Finding[];
}

/** Options of {@link validatePam}. */
export interface ValidateOptions {
  /** The folder of the official PAM JSON Schemas (else found: see findSchemaDir). */
  schemas?: string;
  /**
   * When no schemas are found: fetch them first from the official PyPI package, checksum-pinned
   * (see fetchPamSchemas), where they are found the next time.
   */
  fetchSchemas?: boolean | FetchSchemasOptions;
}

interface Read {
  kind?: string;
  json?: unknown;
}

async function readJson(file: string, at: FileFindings): Promise<Read> {
  let json: unknown;
  let text: string;
  try {
    // A regular file only, of a bounded size: a FIFO or a link to /dev/zero is said, not read.
    text = (await readRegularFile(file)).toString('utf8');
  } catch (error) {
    if (!(error instanceof NotARegularFileError || error instanceof FileTooLargeError)) throw error;
    at.error(
      '$',
      'file',
      error instanceof NotARegularFileError
        ? `is ${error.kind}, not a regular file`
        : error.message,
    );
    return {};
  }
  try {
    json = JSON.parse(text);
  } catch (error) {
    at.error('$', 'json', `is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    return {};
  }
  const kind =
    typeof json === 'object' && json !== null && 'schema' in json ? json.schema : undefined;
  return { json, ...(typeof kind === 'string' ? { kind } : {}) };
}

/** One file checked: its schema, then its deep rules; what the deep rules read of it. */
async function checkFile(
  file: string,
  findings: Finding[],
  schema: SchemaCheck | undefined,
): Promise<{ store?: StoreDocument; conversation?: ConversationDocument }> {
  const at = new FileFindings(file, findings);
  const { json, kind } = await readJson(file, at);
  if (json === undefined) return {};
  if (!isDocumentKind(kind)) {
    at.error('$.schema', 'schema', `'${String(kind)}' is not a PAM document's schema`);
    return {};
  }
  schema?.(kind, json, at);
  if (kind === 'portable-ai-memory') {
    const parsed = storeSchema.safeParse(json);
    if (!parsed.success) return shapeError(at, parsed.error.issues[0]);
    checkMemoryStore(parsed.data, at);
    return { store: parsed.data };
  }
  if (kind === 'portable-ai-memory-conversation') {
    const parsed = conversationSchema.safeParse(json);
    if (!parsed.success) return shapeError(at, parsed.error.issues[0]);
    checkConversation(parsed.data, at);
    return { conversation: parsed.data };
  }
  return {};
}

function shapeError(
  at: FileFindings,
  issue: { path: (string | number)[]; message: string } | undefined,
): object {
  const path = (issue?.path ?? [])
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('');
  // The schema check says it in full when the schemas are there; this one line when not.
  at.error(
    `$${path}`,
    'schema',
    `${issue?.message ?? 'bad shape'}: the deep rules were not run on this file`,
  );
  return {};
}

/**
 * Validates a PAM file or bundle folder (`memory-store.json` and `conversations/*.json`, as
 * `pam validate` reads one) against the official JSON Schemas, when found, and the deep rules
 * (deep-memory-store.ts, deep-conversation.ts); a bundle's index also against its files.
 */
export async function validatePam(
  path: string,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const findings: Finding[] = [];
  let schemas = findSchemaDir(options.schemas);
  let fetched = false;
  if (
    schemas === undefined &&
    options.fetchSchemas !== undefined &&
    options.fetchSchemas !== false
  ) {
    const got = await fetchPamSchemas(options.fetchSchemas === true ? {} : options.fetchSchemas);
    schemas = got.dir;
    fetched = !got.alreadyThere;
  }
  const schema = schemas ? await loadSchemaCheck(schemas) : undefined;
  const report = (files: number): ValidationReport => ({
    path,
    valid: schemas !== undefined && !findings.some((f) => f.level === 'error'),
    checked: schemas !== undefined ? 'schemas and deep rules' : 'deep rules only',
    files,
    ...(schemas ? { schemas } : {}),
    ...(fetched ? { fetched } : {}),
    findings,
  });
  if (!statSync(path).isDirectory()) {
    await checkFile(path, findings, schema);
    return report(1);
  }
  const storeFile = join(path, 'memory-store.json');
  const conversationsDir = join(path, 'conversations');
  const names = existsSync(conversationsDir)
    ? (await readdir(conversationsDir)).filter((n) => n.endsWith('.json')).sort()
    : [];
  const conversations = new Map<string, ConversationDocument | undefined>();
  for (const name of names)
    conversations.set(
      `conversations/${name}`,
      (await checkFile(join(conversationsDir, name), findings, schema)).conversation,
    );
  if (!existsSync(storeFile)) {
    if (names.length === 0)
      new FileFindings(path, findings).error(
        '$',
        'bundle',
        'no memory-store.json and no conversations/*.json: not a PAM bundle',
      );
    return report(names.length);
  }
  const { store } = await checkFile(storeFile, findings, schema);
  if (store) checkIndexAgainstFiles(store, conversations, new FileFindings(storeFile, findings));
  return report(names.length + 1);
}
