import { conversationText } from '../bundle/conversation-text.js';
import { toIndexEntry } from '../bundle/memory-store.js';
import { countConversation, type ConversationCounts } from './import-report.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Conversation, ConversationIndexEntry } from '../model/pam.js';
import type { ConversionContext, LibraryFile, Provider } from '../providers/provider.js';
import { depthCutMessage } from '../read/bound-depth.js';
import { PROVIDERS, findProvider } from '../providers/registry.js';
import { asObject, asText } from '../providers/untrusted.js';
import { lookupAsset } from '../read/asset-index.js';
import { parseRecord, type RawRecord } from '../read/record.js';
import { IMPORTER } from '../model/version.js';
import { projectConversation } from '../graph/project-conversation.js';
import type { GraphBatch } from '../graph/graph-batch.js';
import { notePairs } from '../stores/pairs-of-text.js';
import { Redactor, type RedactionCounts } from '../model/redact.js';
import { InlineTexts, type InlineAsset } from '../bundle/inline-text.js';

/** One conversation record to convert (sent to a worker as plain data). */
export interface RecordTask {
  provider: string;
  variant: string;
  record: RawRecord;
  file: string;
  /** The entry's path inside its export. */
  entryPath: string;
  /** The entry's file on disk, when it is one (see `ConversionContext.localPath`). */
  localPath?: string;
  fallbackTime: string | undefined;
  assetsKey: string;
  importedAt: string;
  checksum: string;
  /** Mask secrets before anything is written. */
  redact: boolean;
  /** Hash each conversation's content (the graph store needs it; a plain convert does not). */
  hash?: boolean;
  /** Project each conversation into the graph too. */
  graph?: { deep: boolean };
}

/** A converted conversation, ready to write. */
export interface ConvertedConversation {
  id: string;
  platformId: string | null;
  /** Its platform (`provider.name`): the provider that projects it (a PAM file's own). */
  platform: string;
  /** Its update time (or creation time), to choose between two copies. */
  updated: string;
  /** The file's text. */
  text: string;
  /** The hash of its content without import metadata (when the task asked for it). */
  contentHash: string | undefined;
  index: ConversationIndexEntry;
  counts: ConversationCounts;
  /** Bundle refs of the export files it points to (to be copied). */
  refs: string[];
  /**
   * For a ref moved off a place another file holds (see `AttachmentPlaces`), the ref its export
   * file was first given (the asset index knows the file by that one).
   */
  assetSources?: Record<string, string>;
  /** Attachment text the export held inline, to be written at its ref (see `InlineTexts`). */
  inlineAssets: InlineAsset[];
  /** Its graph batch, when the task asked for one. */
  batch?: GraphBatch;
}

/** What became of one record. */
export interface RecordResult {
  diagnostics: Diagnostic[];
  skipped: boolean;
  /** Usually one; a session log that interleaves several sessions gives one each. */
  conversations: ConvertedConversation[];
  /** Secrets masked (with `redact`), by kind. */
  redactions?: RedactionCounts;
}

/** A record's label in messages: its index and, when it has one, its platform id. */
export function recordLabel(index: number, value: unknown): string {
  const object = asObject(value);
  const id = asText(object?.uuid) ?? asText(object?.conversation_id) ?? asText(object?.id);
  return id !== undefined ? `#${index} (${id})` : `#${index}`;
}

/**
 * Parses, converts and serializes one conversation record: the CPU-heavy middle of an import,
 * the same whether it runs inline or in a worker thread.
 */
export function convertRecord(
  task: RecordTask,
  assets: ReadonlyMap<string, string> | undefined,
  library?: ReadonlyMap<string, readonly LibraryFile[]>,
): RecordResult {
  const diagnostics: Diagnostic[] = [];
  const record = {
    ...task.record,
    bytes: Buffer.from(
      task.record.bytes.buffer,
      task.record.bytes.byteOffset,
      task.record.bytes.byteLength,
    ),
  };
  const parsed = parseRecord(record);
  if (!parsed.ok) {
    diagnostics.push({
      level: 'error',
      code: parsed.code,
      message: parsed.message,
      file: task.file,
      record: `#${record.index}`,
      offset: record.offset,
    });
    return { diagnostics, skipped: true, conversations: [] };
  }
  const provider = findProvider(task.provider);
  if (!provider) throw new Error(`unknown provider ${task.provider}`);
  const label = recordLabel(record.index, parsed.value);
  const refs: string[] = [];
  const texts = new InlineTexts();
  const context: ConversionContext = {
    record: label,
    file: task.entryPath,
    ...(task.localPath !== undefined ? { localPath: task.localPath } : {}),
    fallbackTime: task.fallbackTime,
    report: (d) => diagnostics.push({ ...d, file: task.file }),
    resolveAsset: (pointer) => {
      const ref = assets ? lookupAsset(assets, pointer) : undefined;
      if (ref !== undefined && !refs.includes(ref)) refs.push(ref);
      return ref;
    },
    attachText: texts.attach,
    libraryFilesOf: (messageId) => library?.get(messageId) ?? [],
  };
  if (parsed.depthCuts > 0) {
    context.report({
      level: 'error',
      code: 'nesting-cut',
      message: depthCutMessage(parsed.depthCuts),
      record: label,
    });
  }
  if (parsed.invalidUtf8) {
    context.report({
      level: 'warning',
      code: 'invalid-utf8',
      message: 'the record had bytes that are not UTF-8; they were replaced by U+FFFD',
      record: label,
    });
  }
  try {
    return finishRecord(task, provider, parsed.value, context, { diagnostics, refs, texts });
  } catch (error) {
    // Anything a hostile record still trips (a limit of the runtime) costs only that record.
    context.report({
      level: 'error',
      code: 'conversion-failed',
      message: `could not convert this record: ${error instanceof Error ? error.message : String(error)}; skipped`,
      record: label,
    });
    return { diagnostics, skipped: true, conversations: [] };
  }
}

function finishRecord(
  task: RecordTask,
  provider: Provider,
  value: unknown,
  context: ConversionContext,
  collected: { diagnostics: Diagnostic[]; refs: string[]; texts: InlineTexts },
): RecordResult {
  const { diagnostics, refs, texts } = collected;
  const label = context.record;
  let converted: Conversation | Conversation[] | undefined;
  try {
    converted = provider.toConversation(value, task.variant, context);
  } catch (error) {
    context.report({
      level: 'error',
      code: 'conversion-failed',
      message: `could not convert this conversation: ${error instanceof Error ? error.message : String(error)}; skipped`,
      record: label,
    });
  }
  let conversations =
    converted === undefined ? [] : Array.isArray(converted) ? converted : [converted];
  // An empty list is a record that holds nothing to import (a file delivered empty), not one
  // that could not be read: nothing of it is lost.
  const heldNothing = Array.isArray(converted) && converted.length === 0;
  const redactions: RedactionCounts = {};
  if (task.redact) {
    // One record's conversations and attachment texts learn together: a secret found in one is
    // masked wherever it stands in any of them (a token echoed bare by a tool, a title).
    const redactor = new Redactor();
    for (const conversation of conversations) redactor.learn(conversation);
    texts.learn(redactor);
    if (redactor.hasSecrets) {
      conversations = conversations.map((conversation) => redactor.mask(conversation, redactions));
      texts.redact(redactor, redactions);
    }
    for (const conversation of conversations) texts.settleSizes(conversation);
  }
  conversations = conversations.filter((c) => knownPlatform(c, context));
  if (conversations.length === 0) return { diagnostics, skipped: !heldNothing, conversations: [] };
  return {
    diagnostics,
    skipped: false,
    ...(task.redact ? { redactions } : {}),
    conversations: conversations.map((conversation) => {
      const { text, contentHash } = conversationText(
        conversation,
        {
          importer: IMPORTER,
          importer_version: `${provider.name}-importer/${task.variant}`,
          imported_at: task.importedAt,
          source_file: task.file,
          source_checksum: task.checksum,
        },
        task.hash === true,
      );
      return {
        id: conversation.id,
        platformId: conversation.provider.conversation_id,
        platform: conversation.provider.name,
        updated: conversation.temporal.updated_at ?? conversation.temporal.created_at,
        text,
        contentHash,
        index: toIndexEntry(conversation),
        counts: countConversation(conversation),
        refs,
        inlineAssets: texts.forConversation(conversation),
        ...(task.graph
          ? {
              // With its messages' pairs of common words, made here off the writer's thread.
              batch: notePairs(
                projectConversation(conversation, projectorOf(conversation, provider), {
                  deep: task.graph.deep,
                  checksum: task.checksum,
                  attachmentText: texts.lookup,
                }),
              ),
            }
          : {}),
      };
    }),
  };
}

/**
 * The provider that projects a conversation into the graph: its own platform's, which is the
 * claiming provider's except for a PAM file (claimed by `pam`, of ChatGPT, Claude, …).
 */
function projectorOf(conversation: Conversation, claiming: Provider): Provider {
  return findProvider(conversation.provider.name) ?? claiming;
}

// A PAM file of a platform chatgraph does not know could be written to the bundle but not
// indexed (reindex leaves such files out too): said, and skipped, rather than half imported.
function knownPlatform(conversation: Conversation, context: ConversionContext): boolean {
  if (findProvider(conversation.provider.name)) return true;
  context.report({
    level: 'error',
    code: 'unknown-platform',
    message: `conversation ${conversation.provider.conversation_id ?? conversation.id} is of the platform "${conversation.provider.name}", which chatgraph does not know (it reads ${PROVIDERS.filter(
      (p) => p.name !== 'pam',
    )
      .map((p) => p.name)
      .join(', ')}); skipped`,
    record: context.record,
  });
  return false;
}
