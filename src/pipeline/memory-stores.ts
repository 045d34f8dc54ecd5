import { z } from 'zod';
import type { BundleWriter } from '../bundle/bundle-writer.js';
import { memorySchema, relationSchema, toMemory } from '../bundle/memory-schema.js';
import { sameMemory, storedMemory } from '../bundle/memory-store.js';
import { readPamExports, type PamExport } from '../bundle/pam-exports.js';
import { sha256 } from '../model/content-hash.js';
import { integrityChecksum } from '../model/integrity.js';
import type { Memory, Relation } from '../model/pam.js';
import { plural } from '../model/plural.js';
import { readValues } from '../read/read-records.js';
import type { Claim } from './claim.js';
import type { ReportBuilder } from './import-report.js';
import { maskMemories } from './memories.js';
import { besideOthers } from './memory-owners.js';
import { readDiagnostic } from './read-diagnostic.js';
import { pamConversationId } from '../providers/pam/to-conversation.js';

// A PAM memory store as another tool writes it: what PAM 16 needs to merge it is checked here,
// each memory on its own (one that does not fit PAM costs only itself).
const StoreFile = z.object({
  schema: z.literal('portable-ai-memory'),
  schema_version: z.string().regex(/^1\.[0-9]+/, 'not a PAM 1.x version'),
  export_id: z.string().min(1).nullish(),
  export_date: z.string().nullish(),
  export_type: z.enum(['full', 'incremental']).nullish(),
  base_export_id: z.string().min(1).nullish(),
  owner: z.object({ id: z.string().min(1) }).passthrough(),
  memories: z.array(z.unknown()),
  relations: z.array(z.unknown()).nullish(),
  integrity: z
    .object({ checksum: z.string().nullish(), total_memories: z.number().nullish() })
    .passthrough()
    .nullish(),
});

type StoreFileValue = z.infer<typeof StoreFile>;

interface ReadStore {
  claim: Claim;
  value: StoreFileValue;
  exportId: string;
  /** Its memories, each parsed once (for the integrity check, then the merge). */
  memories: Parsed<MemoryValue>[];
}

/** What merging memory stores gave: the owner the first one names, and the exports taken in. */
export interface MergedStores {
  ownerId: string | undefined;
  imported: PamExport[];
}

/**
 * Stage 8b, PAM memory stores (PAM 16.3): a full export's memories are added to the bundle's
 * (by id; another owner's beside them, never over them: see `besideOthers`); an incremental one
 * is merged only onto an export the bundle took in or wrote before (its `base_export_id`) of
 * the same owner, each memory inserted or updated by id, a retracted one kept retracted and
 * never removed. Full exports are taken first, then increments in the order of their dates. An
 * export taken in before is skipped; the integrity checksum is recomputed when the bundle's
 * `memory-store.json` is written.
 */
export async function mergeMemoryStores(
  claims: readonly Claim[],
  writer: BundleWriter,
  report: ReportBuilder,
  options: {
    redact: boolean;
    importedAt: string;
    accountId?: string | undefined;
    /** Conversations of this import given ids of their own (see `keepApart`): old id → new. */
    keptApart?: ReadonlyMap<string, string>;
  },
): Promise<MergedStores> {
  const read: ReadStore[] = [];
  for (const claim of claims)
    if (claim.detection.role === 'memory-store') {
      const store = await readStore(claim, report);
      if (store) read.push(store);
    }
  read.sort((a, b) => order(a.value).localeCompare(order(b.value)));
  const known = new Map((await readPamExports(writer.bundle)).map((e) => [e.export_id, e]));
  // Whose the bundle's memories are: its owner, else (a new bundle) the account or first store's.
  const bundleOwner = writer.ownerId ?? options.accountId ?? read[0]?.value.owner.id;
  const imported: PamExport[] = [];
  for (const store of read) {
    const { claim, value, exportId } = store;
    const file = claim.entry.displayPath;
    if (known.has(exportId)) {
      report.add({
        level: 'info',
        code: 'pam-export-already-imported',
        message: `skipped: this memory store (export ${exportId}) was merged before`,
        file,
      });
      continue;
    }
    const base = value.base_export_id ?? null;
    const incremental = value.export_type === 'incremental';
    const owner = value.owner.id;
    if (incremental && !extendsKnown(store, base, known, bundleOwner, report)) continue;
    const own = contentOf(store, writer, report, options);
    const { memories, relations, apart } = besideOthers(writer, own, {
      store: owner,
      bundle: bundleOwner,
    });
    const counts = upsert(writer, memories);
    writer.addRelations(relations);
    // Counted when new or changed: a memory store imported again adds none.
    report.summary(claim.provider.name).memories += memories.length - counts.unchanged;
    report.add({
      level: 'info',
      code: 'pam-memory-store',
      message: `${incremental ? `incremental export ${exportId} merged onto ${base ?? ''}` : `memory store ${exportId}`}: ${String(counts.inserted)} inserted, ${String(counts.updated)} updated, ${String(counts.retracted)} retracted, ${String(counts.unchanged)} unchanged${relations.length > 0 ? `; ${plural(relations.length, 'relation')}` : ''}`,
      file,
    });
    if (apart > 0)
      report.add({
        level: 'warning',
        code: 'memory-kept-apart',
        message: `${plural(apart, 'memory', 'memories')} of ${JSON.stringify(owner)} had the id of a memory of another owner in this bundle; added beside it with an id of ${apart === 1 ? 'its' : 'their'} own, nothing replaced`,
        file,
      });
    if (incremental && counts.retracted > 0)
      report.add({
        level: 'warning',
        code: 'pam-memories-retracted',
        message: `this incremental export retracted ${plural(counts.retracted, 'memory', 'memories')} of the bundle (kept, marked retracted: "chatgraph memories --all" lists them)`,
        file,
      });
    const record: PamExport = {
      export_id: exportId,
      export_type: incremental ? 'incremental' : 'full',
      export_date: value.export_date ?? null,
      base_export_id: base,
      direction: 'imported',
      file,
      at: options.importedAt,
      owner_id: owner,
    };
    known.set(exportId, record);
    imported.push(record);
  }
  return { ownerId: read[0]?.value.owner.id, imported };
}

// A store's memories (masked when asked, their conversation links mapped) and its relations
// (PAM 13: they come with their memories; one whose end the bundle lacks is left out when
// memory-store.json is written, as PAM requires both ends in the file).
function contentOf(
  store: ReadStore,
  writer: BundleWriter,
  report: ReportBuilder,
  options: { redact: boolean; keptApart?: ReadonlyMap<string, string> },
): { memories: Memory[]; relations: Relation[] } {
  const { redact, keptApart } = options;
  const file = store.claim.entry.displayPath;
  const parsed = kept(store.memories, 'memory', file, report).map((m) => storedMemory(toMemory(m)));
  const memories = linked(maskMemories(parsed, redact, report), writer, keptApart, (dropped) => {
    report.add({
      level: 'warning',
      code: 'pam-conversation-ref-missing',
      message: `${plural(dropped, 'memory', 'memories')} named a conversation this bundle does not have; the link was dropped (PAM 14: a conversation_ref names an index entry)`,
      file,
    });
  });
  const relations = (store.value.relations ?? []).map((r) => relationSchema.safeParse(r));
  return { memories, relations: kept(relations, 'relation', file, report) };
}

/**
 * Whether an incremental store extends an export this bundle knows (PAM 16.3), and the same
 * owner's: an export's id is no secret (it is in every copy of it), so an increment naming the
 * bundle's own `export-pam` but written for another owner is refused, as one of an unknown base.
 */
function extendsKnown(
  store: ReadStore,
  base: string | null,
  known: ReadonlyMap<string, PamExport>,
  bundleOwner: string | undefined,
  report: ReportBuilder,
): boolean {
  const { value, exportId } = store;
  const file = store.claim.entry.displayPath;
  const count = plural(value.memories.length, 'memory', 'memories');
  const record = base === null ? undefined : known.get(base);
  if (!record) {
    report.add({
      level: 'error',
      code: 'pam-unknown-base',
      message: `an incremental export (${exportId}) of ${base === null ? 'no base_export_id' : `the export ${base}`}, which this bundle has not taken in: its ${count} were not merged (import that full export first; PAM 16.3)`,
      file,
    });
    return false;
  }
  // A record written before owners were recorded: an export written from this bundle is its owner's.
  const baseOwner = record.owner_id ?? (record.direction === 'written' ? bundleOwner : undefined);
  if (baseOwner === undefined || baseOwner === value.owner.id) return true;
  report.add({
    level: 'error',
    code: 'pam-base-owner',
    message: `an incremental export (${exportId}) of ${JSON.stringify(value.owner.id)} names the export ${record.export_id}, which is ${JSON.stringify(baseOwner)}'s: it does not extend it, and its ${count} were not merged (PAM 16.3)`,
    file,
  });
  return false;
}

// Full exports first, then by date (an increment after the export it extends).
function order(value: StoreFileValue): string {
  return `${value.export_type === 'incremental' ? '1' : '0'}${value.export_date ?? ''}`;
}

async function readStore(claim: Claim, report: ReportBuilder): Promise<ReadStore | undefined> {
  const file = claim.entry.displayPath;
  for await (const item of readValues(claim.entry, claim.detection.format)) {
    if (item.kind === 'problem') {
      report.add(readDiagnostic(item, claim.entry));
      continue;
    }
    const parsed = StoreFile.safeParse(item.value);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`)
        .join('; ');
      report.add({
        level: 'error',
        code: 'pam-schema',
        message: `not a valid PAM memory store (${issues}); nothing of it was read`,
        file,
      });
      return undefined;
    }
    const memories = parsed.data.memories.map((m) => memorySchema.safeParse(m));
    checkIntegrity(parsed.data, memories, claim, report);
    // Without an export_id (PAM does not require one) the file's content names it.
    const exportId = parsed.data.export_id ?? sha256(JSON.stringify(item.value));
    return { claim, value: parsed.data, exportId, memories };
  }
  return undefined;
}

type Parsed<T> = z.SafeParseReturnType<unknown, T>;
type MemoryValue = z.infer<typeof memorySchema>;

/**
 * The items of one list of a memory store that fit PAM; each one that does not is named (its
 * index and the first thing wrong) and skipped, costing only itself.
 */
function kept<T>(
  items: readonly Parsed<T>[],
  what: 'memory' | 'relation',
  file: string,
  report: ReportBuilder,
): T[] {
  const list = what === 'memory' ? 'memories' : 'relations';
  return items.flatMap((parsed, index) => {
    if (parsed.success) return [parsed.data];
    const issue = parsed.error.issues[0];
    report.add({
      level: 'error',
      code: 'pam-schema',
      message: `${what} ${String(index)} is not a PAM ${what} (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad shape'}); skipped`,
      file,
      record: `${list}[${String(index)}]`,
    });
    return [];
  });
}

// PAM 15: the checksum as the spec has it (the memories as written) or as the official SDK
// has it (as Pydantic writes them back); either agreeing is a store unchanged since written.
function checkIntegrity(
  value: StoreFileValue,
  memories: readonly Parsed<MemoryValue>[],
  claim: Claim,
  report: ReportBuilder,
): void {
  const integrity = value.integrity;
  if (!integrity?.checksum) return;
  const asWritten = sha256Form(value.memories);
  const normalized = memories.every((p) => p.success)
    ? integrityChecksum(memories.map((p) => storedMemory(toMemory(p.data))))
    : undefined;
  const total = integrity.total_memories;
  if (integrity.checksum === asWritten || integrity.checksum === normalized) {
    if (total === undefined || total === null || total === value.memories.length) return;
  }
  report.add({
    level: 'warning',
    code: 'pam-integrity',
    message: `the integrity block does not match the memories (${total !== undefined && total !== null && total !== value.memories.length ? `total_memories ${String(total)}, ${String(value.memories.length)} memories` : 'checksum differs'}): changed since it was written; merged as it is, and the checksum recomputed`,
    file: claim.entry.displayPath,
  });
}

// The memories exactly as the file has them (a memory without a string id: no checksum).
function sha256Form(memories: readonly unknown[]): string | undefined {
  const parsed = z.array(z.object({ id: z.string() }).passthrough()).safeParse(memories);
  return parsed.success ? integrityChecksum(parsed.data) : undefined;
}

// A memory's conversation_ref mapped as its conversation's id was (see pamConversationId); one
// naming a conversation the bundle lacks loses the link, or the bundle would fail validation.
function linked(
  memories: readonly Memory[],
  writer: BundleWriter,
  keptApart: ReadonlyMap<string, string> | undefined,
  onDropped: (count: number) => void,
): Memory[] {
  let dropped = 0;
  const result = memories.map((memory) => {
    const ref = memory.provenance.conversation_ref;
    if (ref === undefined) return memory;
    // A conversation of this import kept apart from one of the bundle is named by its own id.
    const id = keptApart?.get(pamConversationId(ref)) ?? pamConversationId(ref);
    if (writer.indexed(id))
      return { ...memory, provenance: { ...memory.provenance, conversation_ref: id } };
    dropped++;
    const { conversation_ref: _ref, message_ref: _message, ...provenance } = memory.provenance;
    return { ...memory, provenance };
  });
  if (dropped > 0) onDropped(dropped);
  return result;
}

interface UpsertCounts {
  inserted: number;
  updated: number;
  retracted: number;
  unchanged: number;
}

function upsert(writer: BundleWriter, memories: readonly Memory[]): UpsertCounts {
  const counts = { inserted: 0, updated: 0, retracted: 0, unchanged: 0 };
  const changed: Memory[] = [];
  for (const memory of memories) {
    const before = writer.memory(memory.id);
    if (before && sameMemory(before, memory)) {
      counts.unchanged++;
      continue;
    }
    if (!before) counts.inserted++;
    else if (memory.status === 'retracted' && before.status !== 'retracted') counts.retracted++;
    else counts.updated++;
    changed.push(memory);
  }
  writer.addMemories(changed);
  return counts;
}
