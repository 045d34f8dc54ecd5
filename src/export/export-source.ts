import { readBundleConversation } from '../bundle/read-bundle.js';
import {
  readConversationView,
  type ConversationView,
} from '../conversation-view/conversation-view.js';
import type { SealedFiles } from '../bundle/sealed-files.js';
import type { Folder } from '../folder/folder.js';
import type { Conversation } from '../model/pam.js';
import { parseDateBound } from '../stores/date-bound.js';
import { MAX_SEARCH_LIMIT } from '../stores/page-bounds.js';
import { resolveConversation } from '../stores/resolve-id.js';
import type {
  ConversationInfo,
  ConversationReader,
  GraphQueries,
  VectorHolder,
} from '../stores/store.js';

/** What an export reads of a store: conversations, a search by words, the vectors' model. */
export type ExportStore = ConversationReader & GraphQueries & VectorHolder;

/** Which conversations an export takes: the filters of `list` and `search`, or ids. */
export interface ExportSelection {
  source?: string | undefined;
  /** Created at or after (a date `parseDateBound` reads). */
  since?: string | undefined;
  /** Created before. */
  until?: string | undefined;
  /** Only conversations a word search finds. */
  query?: string | undefined;
  /** Only these conversations: ids whole or their first 8 or more characters. */
  ids?: readonly string[] | undefined;
}

/** One conversation as an export reads it: what a shell shows, and the bundle's PAM record. */
export interface ExportItem {
  view: ConversationView;
  /** The bundle's record (undefined when the data folder lacks it: a Neo4j store alone). */
  pam: Conversation | undefined;
  /**
   * Where an attachment's `ref` is on disk; undefined when the ref points outside the bundle's
   * attachments (a bundle edited by hand, or written by another tool), so nothing else is read.
   */
  attachmentPath(ref: string): string | undefined;
  /** The door the bundle's files are read through (sealed when the folder is encrypted). */
  files: SealedFiles;
}

/**
 * Where an export reads from: the one place it touches the store and the data folder, so it can
 * be pointed elsewhere (a data folder object) without the renderers knowing.
 */
export interface ExportSource {
  store: ExportStore;
  folder: Folder;
}

const PAGE = 200;

// A date as the user typed it (2024-05, 7d, yesterday) as the timestamp the stores compare.
const bound = (text: string): string => parseDateBound(text, new Date()) ?? text;

/** The ids of the selected conversations, oldest first, a page at a time. */
export async function* selectedIds(
  source: ExportSource,
  selection: ExportSelection,
): AsyncGenerator<ConversationInfo> {
  const { store } = source;
  if (selection.ids && selection.ids.length > 0) {
    const seen = new Set<string>();
    for (const id of selection.ids) {
      const info = await resolveConversation(store, id);
      if (seen.has(info.id)) continue;
      seen.add(info.id);
      if (await passes(info, selection, store)) yield info;
    }
    return;
  }
  const found = selection.query !== undefined ? await matching(store, selection) : undefined;
  let after: string | undefined;
  for (;;) {
    const page = await store.listConversations({
      source: selection.source,
      since: selection.since,
      until: selection.until,
      sort: 'oldest',
      limit: PAGE,
      ...(after !== undefined ? { after } : {}),
    });
    for (const item of page.items) if (!found || found.has(item.id)) yield item;
    if (page.nextCursor === null || page.items.length === 0) return;
    after = page.nextCursor;
  }
}

// The conversations a word search finds (every page of hits), with the selection's filters.
async function matching(store: GraphQueries, selection: ExportSelection): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += MAX_SEARCH_LIMIT) {
    const result = await store.search({
      text: selection.query ?? '',
      mode: 'keyword',
      ...(selection.source !== undefined ? { source: selection.source } : {}),
      ...(selection.since !== undefined ? { since: bound(selection.since) } : {}),
      ...(selection.until !== undefined ? { until: bound(selection.until) } : {}),
      limit: MAX_SEARCH_LIMIT,
      offset,
    });
    for (const hit of result.hits) if (hit.conversationId !== '') ids.add(hit.conversationId);
    if (result.hits.length < MAX_SEARCH_LIMIT) return ids;
  }
}

// Ids given with filters as well: a conversation outside the filters is left out.
async function passes(
  info: ConversationInfo,
  selection: ExportSelection,
  store: GraphQueries,
): Promise<boolean> {
  if (selection.source !== undefined && info.source !== selection.source) return false;
  if (selection.since !== undefined && info.createdAt < bound(selection.since)) return false;
  if (selection.until !== undefined && info.createdAt >= bound(selection.until)) return false;
  if (selection.query !== undefined) return (await matching(store, selection)).has(info.id);
  return true;
}

/** One conversation read for export; undefined when it went away since it was listed. */
export async function readExportItem(
  source: ExportSource,
  id: string,
): Promise<ExportItem | undefined> {
  const view = await readConversationView(source.store, source.folder, id);
  if (!view) return undefined;
  const { bundle } = source.folder;
  const pam = await readBundleConversation(bundle, view.conversation.id).catch(() => undefined);
  return {
    view,
    pam,
    attachmentPath: (ref) => bundle.layout.attachment(ref),
    files: bundle.files,
  };
}
