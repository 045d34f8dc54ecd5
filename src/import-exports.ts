import { contentHashOfText } from './bundle/conversation-text.js';
import { bundleDir, storeFile } from './data-dir.js';
import { project } from './graph/project.js';
import { importIdOf } from './graph/import-id.js';
import type { ImportReport } from './import-report.js';
import {
  convertExports,
  fileFingerprint,
  type ConvertOptions,
  type SinkContext,
} from './pipeline.js';
import { findProvider } from './providers/registry.js';
import { readBundleConversations } from './bundle/read-bundle.js';
import { SqliteStore } from './stores/sqlite/sqlite-store.js';
import { IMPORTER } from './version.js';
import { timestampOf } from './model/time.js';

/** Options of {@link importExports}. */
export interface ImportOptions extends Omit<
  ConvertOptions,
  'out' | 'sinks' | 'skipChecksums' | 'onFileImported'
> {
  dataDir: string;
  /** Project tool calls into DecisionTrace/TraceStep (remembered by the store). */
  deep?: boolean;
}

/** An import's report, with what it did to the graph. */
export interface ImportResult extends ImportReport {
  graph: { written: number; unchanged: number; reindexed: boolean };
}

/**
 * Imports exports into a data folder: converts them into its PAM bundle (the record), then
 * indexes each conversation in the SQLite store as it is written. A file imported before
 * (same checksum) is skipped; an unchanged conversation is not rewritten.
 */
export async function importExports(
  inputs: readonly string[],
  options: ImportOptions,
): Promise<ImportResult> {
  const store = SqliteStore.open(storeFile(options.dataDir));
  try {
    const wasDeep = await store.deep();
    const deep = wasDeep || options.deep === true;
    const hadConversations = (await store.conversationCount()) > 0;
    if (deep !== wasDeep) await store.setDeep(deep);
    const graph = { written: 0, unchanged: 0, reindexed: false };
    const { dataDir: _dataDir, deep: _deep, ...convertOptions } = options;
    const report = await convertExports(inputs, {
      ...convertOptions,
      out: bundleDir(options.dataDir),
      skipChecksums: await store.importedChecksums(),
      knownFiles: new Map(
        (await store.importedFiles()).flatMap((f) =>
          f.size !== undefined && f.crc32 !== undefined
            ? [[fileFingerprint(f.sourceFile, f.size, f.crc32), f.checksum] as [string, string]]
            : [],
        ),
      ),
      // The worker projects each conversation (it has it parsed already); the store writes it.
      graph: { deep },
      sinks: [
        {
          write: (context: SinkContext) => {
            const batch =
              context.batch ??
              project(context.conversation(), {
                source: context.provider.source,
                label: context.provider.label,
                fileTools: context.provider.fileTools,
                deep,
                importId: importIdOf(context.checksum),
              });
            graph[store.upsertOne({ ...batch, hash: context.contentHash }, deep)]++;
            return Promise.resolve();
          },
        },
      ],
      onFileSkipped: (file) => {
        if (file.size !== undefined && file.crc32 !== undefined)
          store.recordFingerprint(file.checksum, file.size, file.crc32);
        return Promise.resolve();
      },
      onFileImported: (file) =>
        store.recordImport({
          id: importIdOf(file.checksum),
          sourceFile: file.file,
          checksum: file.checksum,
          importer: IMPORTER,
          importedAt: timestampOf(options.importedAt ?? new Date()),
          ...(file.size !== undefined ? { size: file.size } : {}),
          ...(file.crc32 !== undefined ? { crc32: file.crc32 } : {}),
        }),
    });
    if (deep && !wasDeep && hadConversations) {
      // Conversations indexed before deep mode get their traces.
      await reindexStore(store, options.dataDir);
      graph.reindexed = true;
    }
    return { ...report, graph };
  } finally {
    await store.close();
  }
}

/** Rebuilds the SQLite index from the bundle alone. */
export async function reindex(dataDir: string): Promise<{ conversations: number }> {
  const store = SqliteStore.open(storeFile(dataDir));
  try {
    return await reindexStore(store, dataDir);
  } finally {
    await store.close();
  }
}

async function reindexStore(
  store: SqliteStore,
  dataDir: string,
): Promise<{ conversations: number }> {
  const deep = await store.deep();
  const imports = new Map<string, { sourceFile: string; importer: string; importedAt: string }>();
  await store.clear();
  let conversations = 0;
  for await (const { conversation, text } of readBundleConversations(bundleDir(dataDir))) {
    const provider = findProvider(conversation.provider.name);
    if (!provider) continue;
    const meta = conversation.import_metadata;
    const checksum = meta?.source_checksum;
    const batch = project(conversation, {
      source: provider.source,
      label: provider.label,
      fileTools: provider.fileTools,
      deep,
      ...(checksum ? { importId: importIdOf(checksum) } : {}),
    });
    store.upsertOne({ ...batch, hash: contentHashOfText(text) }, deep);
    if (meta && checksum && !imports.has(checksum)) {
      imports.set(checksum, {
        sourceFile: meta.source_file,
        importer: meta.importer,
        importedAt: meta.imported_at,
      });
    }
    conversations++;
  }
  for (const [checksum, meta] of imports)
    await store.recordImport({ id: importIdOf(checksum), checksum, ...meta });
  return { conversations };
}
