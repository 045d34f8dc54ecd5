import { storedAttachment, type StoredAttachment } from './stored-attachment.js';
import type { Follower, FollowOptions } from '../live/follower.js';
import type { GoneConversation } from '../live/live-state.js';
import type { Conversation, Memory } from '../model/pam.js';
import { readBundleConversation } from '../bundle/read-bundle.js';
import type { ConversationView } from '../conversation-view/conversation-view.js';
import { listMemories, type MemoryPage, type MemoryQuery } from '../memory/list-memories.js';
import {
  recentActivity,
  type RecentActivity,
  type RecentOptions,
} from '../memory/recent-activity.js';
import type { MemoryRevision, RememberInput, RememberResult } from '../memory/remember.js';
import type { MemoryOptions as MemoryWriteOptions } from '../memory/write-memories.js';
import type { MemoryVectorNote } from '../recall/memory-vectors.js';
import type { EmbedReport } from '../recall/embed-conversations.js';
import type { EmbedStoreOptions } from '../recall/embed-store.js';
import { createRecaller, type Recaller, type RecallerOptions } from '../recall/recaller.js';
import type { TopicMap } from '../recall/topic-map.js';
import { topicMapCache } from '../recall/topic-map-cache.js';
import type { Neo4jTarget } from '../stores/neo4j/neo4j-target.js';
import type { SearchQuery, SearchResult, Store } from '../stores/store.js';
import { readerOf, type StoreReader } from '../stores/store-reader.js';
import { Folder } from '../folder/folder.js';
import { withSignatureNotes, type Noted } from './signature-notes.js';
import { readTombstones, type Tombstone } from '../folder/deleted-conversations.js';
import type { DeleteOptions, DeleteResult } from './delete-conversation.js';
import type { BundleLoad, ImportOptions, ImportResult, LoadOptions } from './import-exports.js';
import type { ExportPamOptions, ExportPamReport } from './export-pam.js';
import type { FolderDigests } from './sync-support.js';
import type { LockHolder } from '../folder/write-lock.js';
import type { ConvertReport, EncryptOptions } from '../folder/encrypt-folder.js';
import type { Unlock } from '../at-rest/folder-key.js';
import type { SignOptions, SignResult } from '../trust/sign-bundle.js';
import type { VerifyOptions, VerifyReport } from '../trust/verify-bundle.js';
import type { SigningKey } from '../trust/signing-key.js';
import type { DoctorCheck, DoctorOptions } from '../doctor/doctor.js';
import type { ExportOptions, ExportReport } from '../export/export-conversations.js';

/** How a data folder is opened: its store, its secret, whether to write, and how a writing verb waits. */
export interface DataFolderOptions {
  /** The store is this Neo4j server rather than the folder's embedded one. */
  neo4j?: Neo4jTarget | undefined;
  /**
   * How an encrypted folder's passphrase (`{ passphrase }`) or age identity (`{ identity }`,
   * the identity file's text) is asked for: once, when the folder's key is first needed, and
   * for this folder alone. A plain folder never calls it.
   */
  unlock?: ((dir: string) => Promise<Unlock>) | undefined;
  /**
   * How every writing verb of this folder waits for another writer: who to tell (`onWait`),
   * and for how long at most (`maxMilliseconds`: a server's request says so rather than hang).
   */
  wait?:
    | {
        onWait?: ((holder: LockHolder) => void) | undefined;
        maxMilliseconds?: number | undefined;
      }
    | undefined;
  /**
   * The store the reads go through is opened read-only, at once, and must exist (nothing
   * imported yet is a `StoreConnectionError`); the verbs that write open their own under the lock.
   */
  readonly?: boolean | undefined;
  /**
   * The store's keyword searches run in the caller's thread rather than in child processes,
   * for a command that searches once and ends; past its deadline a search ends the process,
   * after writing `deadlineLine(message)` to stderr. Servers leave it unset.
   */
  searchHere?: { deadlineLine(message: string): string } | undefined;
}

/** What `import` takes beyond the folder itself (its store is the folder's). */
export type FolderImportOptions = ImportOptions;

/** What `reindex` and `push` take beyond the folder itself. */
export type FolderLoadOptions = LoadOptions;

/** What `delete` takes beyond the folder itself. */
export type FolderDeleteOptions = DeleteOptions;

/** What `follow` takes beyond the folder itself. */
export type FolderFollowOptions = FollowOptions;

/** What `remember`, `forget` and `revise` take beyond the folder itself. */
export type MemoryOptions = MemoryWriteOptions;

/** What `exportConversations` takes beyond the folder itself (its store is the folder's). */
export type FolderExportOptions = Omit<ExportOptions, 'store'>;

/**
 * A data folder (the bundle, the record; its store, the index; tombstones, the vector cache and
 * the memories), and the one way the shells reach it. Each verb that changes the folder runs
 * in its one write sequence (`Folder.write`: the write lock for as long as it runs, a second
 * writer waiting; the store it writes opened and closed); readers never take the lock. The
 * store the reads go through is opened once, on first use (at once when `readonly`), and
 * closed by {@link close}; a shell reads it through {@link reader}, which has no write path.
 * Each verb's code (the import pipeline and every provider, exports, signing, encryption, the
 * doctor) is loaded when the verb is called: a `chatgraph search` loaded all of it (issue 46).
 */
export class DataFolder {
  private opened: Promise<Store> | undefined;
  private reading: StoreReader | undefined;
  private searching: Promise<Recaller> | undefined;
  private topicMap: (() => Promise<TopicMap>) | undefined;
  private readonly folder: Folder;

  private constructor(
    dir: string,
    private readonly options: DataFolderOptions,
  ) {
    this.folder = new Folder(dir, {
      neo4j: options.neo4j,
      unlock: options.unlock,
      wait: options.wait,
    });
  }

  /** Opens a data folder; `readonly` opens its store now (and fails now if there is none). */
  static async open(dir: string, options: DataFolderOptions = {}): Promise<DataFolder> {
    const folder = new DataFolder(dir, options);
    if (options.readonly === true) await folder.store();
    return folder;
  }

  /**
   * The store as the shells read it (lists, threads, Cypher, search by words, stats), opened
   * on first use: reads alone, no write path.
   */
  async reader(): Promise<StoreReader> {
    const store = await this.store();
    this.reading ??= readerOf(store);
    return this.reading;
  }

  /** The folder's path. */
  get dir(): string {
    return this.folder.dir;
  }

  /** The Neo4j server the folder's store is, if it is one. */
  get neo4j(): Neo4jTarget | undefined {
    return this.folder.neo4j;
  }

  /** The PAM bundle inside the folder (the record). */
  get bundle(): string {
    return this.folder.layout.bundle.dir;
  }

  /**
   * The conversations kept only here: `watch` followed them, and their agent deleted their
   * source since (a session file, a store's session; what was imported stays). The most
   * recently gone first.
   */
  async goneConversations(): Promise<GoneConversation[]> {
    await this.folder.unlock();
    // Loaded here: `import 'chatgraph'` loads no SQLite (test/public-api.test.ts).
    const { readGone } = await import('../live/live-state.js');
    return readGone(this.folder.layout.liveState, this.folder.sqliteKey);
  }

  /** The store the reads go through, opened on first use (see {@link reader}). */
  private store(): Promise<Store> {
    this.opened ??= this.folder
      .openStore({
        readonly: this.options.readonly === true,
        ...(this.options.searchHere ? { searchHere: this.options.searchHere } : {}),
      })
      .catch((error: unknown) => {
        this.opened = undefined;
        throw error;
      });
    return this.opened;
  }

  /** The conversations deleted with `delete` (so an import leaves them out unless restoring). */
  tombstones(): Promise<Tombstone[]> {
    return readTombstones(this.folder);
  }

  /**
   * Searches the folder by words, meaning or both, as the query's `mode` asks (with none: both
   * when the folder has vectors and their model is installed, else words, and the result says
   * why); the model is opened on the first search by meaning, and kept until {@link close}.
   */
  async search(query: SearchQuery): Promise<SearchResult> {
    this.searching ??= this.recaller().catch((error: unknown) => {
      this.searching = undefined;
      throw error;
    });
    return (await this.searching).search(query);
  }

  /**
   * The history's topics (its conversations clustered by meaning, each cluster named), kept
   * between calls until the vectors or the conversations change; none before the first embed.
   */
  async topics(): Promise<TopicMap> {
    this.topicMap ??= topicMapCache(await this.store());
    return this.topicMap();
  }

  /** Search in every mode over the folder's store, its model opened on the first search by meaning. */
  async recaller(options: RecallerOptions = {}): Promise<Recaller> {
    return createRecaller(await this.store(), this.folder, options);
  }

  /**
   * A conversation as the shells show it (the store's thread and graph, with the bundle's side:
   * sources, attachments, the platform's address), or undefined when the store has no such id.
   */
  async view(id: string): Promise<ConversationView | undefined> {
    return (await import('../conversation-view/conversation-view.js')).readConversationView(
      await this.store(),
      this.folder,
      id,
    );
  }

  /** The bundle's PAM record of a conversation (by chatgraph's id), undefined when it has none. */
  async pamConversation(id: string): Promise<Conversation | undefined> {
    await this.folder.unlock();
    return readBundleConversation(this.folder.bundle, id);
  }

  /** A page of the folder's memories, newest first, filtered as the query asks. */
  async memories(query: MemoryQuery = {}): Promise<MemoryPage> {
    return listMemories(await this.store(), this.folder, query);
  }

  /** What changed since a time (`--since`'s forms): conversations started or continued, memories added. */
  async recent(options: RecentOptions): Promise<RecentActivity> {
    return recentActivity(await this.store(), this.folder, options);
  }

  /** Imports exports into the bundle and the store, with every shell's rules (see `importVerb`). */
  async import(
    inputs: readonly string[],
    options: FolderImportOptions = {},
  ): Promise<ImportResult> {
    const verify = () => this.verify();
    return (await import('./import-exports.js')).importVerb(this.folder, verify, inputs, options);
  }

  /** Rebuilds the store from the bundle alone (see `reindex`). */
  async reindex(options: FolderLoadOptions = {}): Promise<BundleLoad & { movedAside?: string }> {
    return (await import('./import-exports.js')).reindex(this.folder, options);
  }

  /** Loads the bundle into the store (Neo4j usually), skipping what is there already (see `pushBundle`). */
  async push(options: FolderLoadOptions = {}): Promise<BundleLoad> {
    return (await import('./import-exports.js')).pushBundle(this.folder, options);
  }

  /** Deletes one conversation everywhere, and remembers it deleted (see `deleteConversation`). */
  async delete(id: string, options: FolderDeleteOptions = {}): Promise<DeleteResult> {
    return (await import('./delete-conversation.js')).deleteConversation(this.folder, id, options);
  }

  /** A new memory in the bundle and the store (see `remember`); `notes`: the signature notes. */
  async remember(
    input: RememberInput,
    options: MemoryOptions = {},
  ): Promise<RememberResult & Noted> {
    return this.memoryWrite((m) => m.remember(this.folder, input, options));
  }

  /** Retracts a memory (see `forget`); `notes` as `remember`'s (the memory store is written again). */
  async forget(id: string, options: MemoryOptions = {}): Promise<{ memory: Memory } & Noted> {
    return this.memoryWrite(async (m) => ({ memory: await m.forget(this.folder, id, options) }));
  }

  /** A memory superseded by its revision (see `reviseMemory`); `notes` as `remember`'s. */
  async revise(
    id: string,
    revision: MemoryRevision,
    options: MemoryOptions = {},
  ): Promise<{ previous: Memory; memory: Memory; vector: MemoryVectorNote } & Noted> {
    return this.memoryWrite((m) => m.reviseMemory(this.folder, id, revision, options));
  }

  // A memory write, with the signature notes (`withSignatureNotes`) every shell says.
  private async memoryWrite<T extends object>(
    write: (memories: typeof import('../memory/remember.js')) => Promise<T>,
  ): Promise<T & Noted> {
    const memories = await import('../memory/remember.js');
    const { result, notes } = await withSignatureNotes(
      () => this.verify(),
      () => write(memories),
    );
    return { ...result, notes };
  }

  /** Embeds what the store has not embedded yet, caching the vectors in the folder (see `embedStore`). */
  async embed(
    options: EmbedStoreOptions = {},
  ): Promise<EmbedReport & { source: string; memories: { memories: number; embedded: number } }> {
    return (await import('../recall/embed-store.js')).embedStore(this.folder, options);
  }

  /** Follows session logs and dropped exports into the folder (see `followFolders`). */
  async follow(options: FolderFollowOptions = {}): Promise<Follower> {
    return (await import('./follow-folders.js')).followFolders(this.folder, options);
  }

  /** Signs the bundle with `key` (PAM §18, and chatgraph's manifest of every file). */
  async sign(key: SigningKey, options: SignOptions = {}): Promise<SignResult> {
    return (await import('../trust/sign-bundle.js')).signBundle(this.folder, key, options);
  }

  /** Checks the bundle's signatures (PAM §18, and chatgraph's manifest), through the folder's seal. */
  async verify(options: VerifyOptions = {}): Promise<VerifyReport> {
    await this.folder.unlock();
    return (await import('../trust/verify-bundle.js')).verifyBundleOf(this.folder.bundle, options);
  }

  /**
   * Encrypts the folder at rest (see docs/encryption.md): the secret is asked for only when
   * the folder is plain; with `ifPlain`, one encrypted already is left as it is.
   */
  async encrypt(
    secret: Unlock | (() => Promise<Unlock>),
    options: EncryptOptions = {},
  ): Promise<ConvertReport> {
    return (await import('../folder/encrypt-folder.js')).encryptFolder(
      this.folder,
      secret,
      options,
    );
  }

  /** Decrypts the folder back to its plain form. */
  async decrypt(secret: Unlock): Promise<ConvertReport> {
    return (await import('../folder/encrypt-folder.js')).decryptFolder(this.folder, secret);
  }

  /** Writes the folder's memories and conversations as a PAM bundle, whole or since a time (see `exportPam`). */
  async exportPam(options: ExportPamOptions): Promise<ExportPamReport | { refused: string }> {
    return (await import('./export-pam.js')).exportPam(this.folder, options);
  }

  /** Runs `work` as one write of the folder (the verbs it calls join it): `sync` as a whole. */
  writing<T>(work: () => Promise<T>): Promise<T> {
    return this.folder.write(() => work());
  }

  /** What the folder holds now, by digest (see `folderDigests`): what `sync` compares. */
  async syncDigests(): Promise<FolderDigests> {
    return (await import('./sync-support.js')).folderDigests(this.folder);
  }

  /** Deletions made on another machine, applied here (see `receiveDeletions`). */
  async receiveDeletions(deletions: readonly Tombstone[]): Promise<number> {
    return (await import('./sync-support.js')).receiveDeletions(this.folder, deletions);
  }

  /** The sync state's text (`layout.syncState`), and writing it. */
  async syncState(): Promise<string | undefined> {
    return (await import('./sync-support.js')).readSyncState(this.folder);
  }

  async saveSyncState(text: string): Promise<void> {
    return (await import('./sync-support.js')).writeSyncState(this.folder, text);
  }

  /** Writes conversations out as Markdown, Obsidian, HTML or PAM JSON Lines (see `exportConversations`). */
  async exportConversations(options: FolderExportOptions): Promise<ExportReport> {
    return (await import('../export/export-conversations.js')).exportConversations(this.folder, {
      ...options,
      store: await this.store(),
    });
  }

  /** Every check of the folder (its store, indexes, model, Neo4j, the write lock), each with its fix. */
  async doctor(options: DoctorOptions = {}): Promise<DoctorCheck[]> {
    return (await import('../doctor/doctor.js')).diagnose(this.folder, options);
  }

  /** The bundle's attachment at `ref`, ready to send (opened in memory when the folder is encrypted). */
  async attachment(ref: string): Promise<StoredAttachment | undefined> {
    await this.folder.unlock();
    return storedAttachment(this.folder.bundle, ref);
  }

  /** Closes the store the reads went through, and the model searches opened (the verbs close what they open themselves). */
  async close(): Promise<void> {
    const searching = this.searching;
    this.searching = undefined;
    await (await searching?.catch(() => undefined))?.close();
    const opened = this.opened;
    this.opened = undefined;
    this.reading = undefined;
    this.topicMap = undefined;
    if (opened) await (await opened).close();
  }
}
