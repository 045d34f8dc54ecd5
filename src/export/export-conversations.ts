import type { Folder } from '../folder/folder.js';
import { createWriteStream, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { readMemories } from '../memory/list-memories.js';
import { redactText, redactValue, type RedactionCounts } from '../model/redact.js';
import type { ConversationInfo } from '../stores/store.js';
import {
  selectedIds,
  readExportItem,
  type ExportItem,
  type ExportSelection,
  type ExportStore,
} from './export-source.js';
import { conversationStem, safeName, uniquePaths } from './file-names.js';
import { frontmatter } from './frontmatter.js';
import { OutputTree, type ExportTally } from './output-tree.js';
import { renderConversationMarkdown, readableTime } from './render-markdown.js';
import { relatedConversations } from './related.js';
import { meaningCutoffOf } from '../embed/model-catalog.js';
import { HtmlArchive } from './html-archive.js';
import { copyAttachments, type AttachmentPolicy } from './attachment-files.js';

/** The formats `exportConversations` writes. */
export const EXPORT_FORMATS = ['markdown', 'obsidian', 'html', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What to export, from where, to where. */
export interface ExportOptions extends ExportSelection {
  store: ExportStore;
  format: ExportFormat;
  /** The folder written (made when missing); a second export to it writes only what changed. */
  out: string;
  /** Overwrite (and remove) files the user edited since the last export. */
  force?: boolean;
  /** Mask secrets (keys, tokens, passwords) in what is written, as `import --redact` does. */
  redact?: boolean;
  /** Called after each conversation. */
  onProgress?: (progress: { done: number; total: number; messages: number }) => void;
  signal?: AbortSignal;
}

/** What an export did: its folder's tally, and what it read. */
export interface ExportReport extends ExportTally {
  format: ExportFormat;
  out: string;
  conversations: number;
  messages: number;
  bytesWritten: number;
  /** Secrets masked, by kind (with `redact`). */
  redactions: RedactionCounts;
  /** Conversations the store lists that could not be read (gone, or not in the bundle for jsonl). */
  missing: number;
  /** Attachment files left out by `redact`: not text, so their secrets could not be masked. */
  withheld: number;
}

/** One exported conversation, as index notes and the archive list it. */
export interface ExportedEntry {
  id: string;
  title: string;
  source: string;
  createdAt: string;
  messages: number;
  /** Its note's path in the folder, without `.md` (Obsidian's wikilink target). */
  path: string;
}

/**
 * Exports conversations as Markdown notes, an Obsidian vault, a static HTML archive or PAM JSON
 * Lines, one conversation at a time. The folder keeps a manifest: a second run writes nothing
 * that did not change, removes what is no longer exported, and keeps files the user edited.
 */
export async function exportConversations(
  folder: Folder,
  given: ExportOptions,
): Promise<ExportReport> {
  const options: ExportRun = { ...given, folder };
  const source = { store: options.store, folder };
  const tree = await OutputTree.open(options.out, options.format, options.force === true);
  const listed: ConversationInfo[] = [];
  for await (const info of selectedIds(source, options))
    listed.push(options.redact === true ? maskedNames(info) : info);
  const redactions: RedactionCounts = {};
  const report = { conversations: 0, messages: 0, missing: 0, withheld: 0 };
  const entries: ExportedEntry[] = [];
  const policy: AttachmentPolicy = {
    redact: options.redact === true,
    redactions,
    onWithheld: () => report.withheld++,
  };
  const writer = await formatWriter(options, tree, listed, policy);
  for (const [n, info] of listed.entries()) {
    options.signal?.throwIfAborted();
    let item = await readExportItem(source, info.id);
    if (item && options.redact === true) {
      // Counted once: on what this format writes (the PAM record for JSON Lines, else the view).
      const jsonl = options.format === 'jsonl';
      item = {
        ...item,
        view: redactValue(item.view, jsonl ? {} : redactions),
        pam: item.pam && redactValue(item.pam, jsonl ? redactions : {}),
      };
    }
    if (!item || !(await writer.write(item, entries))) report.missing++;
    else {
      report.conversations++;
      report.messages += item.view.messages.length;
    }
    options.onProgress?.({ done: n + 1, total: listed.length, messages: report.messages });
  }
  await writer.end(entries);
  const tally = await tree.finish();
  return {
    format: options.format,
    out: options.out,
    ...tally,
    ...report,
    bytesWritten: tree.bytesWritten,
    redactions,
  };
}

/**
 * A conversation's title and name with their secrets masked, as `--redact` shows them: they
 * name its files, links, index entries and the manifest, not only the title on the page.
 * (Counted where the page's title is.)
 */
function maskedNames(info: ConversationInfo): ConversationInfo {
  return {
    ...info,
    title: info.title === null ? null : redactText(info.title, {}),
    name: redactText(info.name, {}),
  };
}

interface FormatWriter {
  /** Writes one conversation's files; false when it has nothing to write in this format. */
  write(item: ExportItem, entries: ExportedEntry[]): Promise<boolean>;
  end(entries: ExportedEntry[]): Promise<void>;
}

/** A conversation note's path in the folder, without `.md`: the same on every run. */
function notePaths(listed: readonly ConversationInfo[], obsidian: boolean): Map<string, string> {
  return uniquePaths(
    listed.map((info) => ({ id: info.id, title: info.title ?? info.name })),
    (stem, index) => {
      const info = listed[index];
      if (!obsidian || !info) return stem;
      return `${safeName(info.source, 'source')}/${info.createdAt.slice(0, 4) || 'undated'}/${stem}`;
    },
  );
}

/** An export's options, with the folder it reads. */
type ExportRun = ExportOptions & { folder: Folder };

// Judged as the model the vectors come from was calibrated.
async function relatedOf(
  options: ExportOptions,
  exported: ReadonlySet<string>,
): Promise<Map<string, string[]>> {
  const model = await options.store.vectors.model();
  if (!model) return new Map();
  return relatedConversations(options.store, exported, meaningCutoffOf(model.id));
}

async function formatWriter(
  options: ExportRun,
  tree: OutputTree,
  listed: readonly ConversationInfo[],
  policy: AttachmentPolicy,
): Promise<FormatWriter> {
  const { redactions } = policy;
  if (options.format === 'jsonl') return jsonlWriter(tree);
  if (options.format === 'html') return new HtmlArchive(tree, notePaths(listed, false), policy);
  const obsidian = options.format === 'obsidian';
  const paths = notePaths(listed, obsidian);
  const related = obsidian
    ? await relatedOf(options, new Set(paths.keys()))
    : new Map<string, string[]>();
  return {
    async write(item, entries) {
      const info = item.view.conversation;
      const note = paths.get(info.id) ?? conversationStem(info.title ?? info.name, info.id);
      const slash = note.lastIndexOf('/');
      const folder = note.slice(0, slash + 1);
      const stem = note.slice(slash + 1);
      const files = obsidian ? `attachments/${stem}` : `${stem}.files`;
      const names = await copyAttachments(tree, item, `${folder}${files}`, policy);
      const links = new Map([...names].map(([ref, name]) => [ref, `${files}/${name}`]));
      entries.push({
        id: info.id,
        title: info.title ?? info.name,
        source: info.source,
        createdAt: info.createdAt,
        messages: item.view.messages.length,
        path: note,
      });
      const near = (related.get(info.id) ?? [])
        .map((other) => paths.get(other))
        .filter((p) => p !== undefined);
      const text = renderConversationMarkdown(item.view, item.pam, {
        style: obsidian ? 'obsidian' : 'markdown',
        attachmentLink: (ref) => links.get(ref) ?? null,
        related: near,
      });
      await tree.put(`${note}.md`, text, info.id);
      return true;
    },
    async end(entries) {
      if (obsidian) await writeVaultIndexes(tree, entries, options, redactions);
    },
  };
}

function jsonlWriter(tree: OutputTree): FormatWriter {
  const temp = join(tree.dir, `conversations.jsonl.${String(process.pid)}.tmp`);
  // A killed export's file, or a link planted at the name, removed; `wx`: never written through.
  rmSync(temp, { force: true });
  const stream = createWriteStream(temp, { flags: 'wx' });
  return {
    async write(item) {
      if (!item.pam) return false;
      if (!stream.write(`${JSON.stringify(item.pam)}\n`)) await once(stream, 'drain');
      return true;
    },
    async end() {
      stream.end();
      await once(stream, 'finish');
      try {
        await tree.adopt('conversations.jsonl', temp);
      } finally {
        await rm(temp, { force: true });
      }
    },
  };
}

const link = (entry: ExportedEntry): string =>
  `[[${entry.path}|${
    entry.title
      .replace(/[[\]|]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'Untitled'
  }]]`;

/** The vault's index notes (one per source, one per month) and its memories note. */
async function writeVaultIndexes(
  tree: OutputTree,
  entries: ExportedEntry[],
  options: ExportRun,
  redactions: RedactionCounts,
): Promise<void> {
  const sorted = [...entries].sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0,
  );
  const group = (key: (e: ExportedEntry) => string): Map<string, ExportedEntry[]> => {
    const groups = new Map<string, ExportedEntry[]>();
    for (const entry of sorted) groups.set(key(entry), [...(groups.get(key(entry)) ?? []), entry]);
    return groups;
  };
  const line = (e: ExportedEntry): string =>
    `- ${readableTime(e.createdAt).slice(0, 10)} ${link(e)} (${String(e.messages)} messages)`;
  const sources = group((e) => e.source);
  const months = group((e) => e.createdAt.slice(0, 7) || 'undated');
  for (const [source, list] of sources)
    await tree.put(
      `Index/Sources/${safeName(source, 'source')}.md`,
      `${frontmatter({ title: `${source} conversations`, source, conversations: list.length, tags: ['chatgraph/index'] })}\n# ${source}\n\n${list.map(line).join('\n')}\n`,
    );
  for (const [month, list] of months)
    await tree.put(
      `Index/Months/${safeName(month, 'undated')}.md`,
      `${frontmatter({ title: `Conversations of ${month}`, month, conversations: list.length, tags: ['chatgraph/index'] })}\n# ${month}\n\n${list.map(line).join('\n')}\n`,
    );
  const home = [
    '# Conversations',
    '',
    '## By source',
    '',
    ...[...sources.keys()]
      .sort()
      .map(
        (s) =>
          `- [[Index/Sources/${safeName(s, 'source')}|${s}]] (${String(sources.get(s)?.length ?? 0)})`,
      ),
    '',
    '## By month',
    '',
    ...[...months.keys()]
      .sort()
      .map(
        (m) =>
          `- [[Index/Months/${safeName(m, 'undated')}|${m}]] (${String(months.get(m)?.length ?? 0)})`,
      ),
  ];
  await tree.put(
    'Index.md',
    `${frontmatter({ title: 'Conversations', conversations: entries.length, tags: ['chatgraph/index'] })}\n${home.join('\n')}\n`,
  );
  const stored = await readMemories(options.folder);
  const memories = options.redact === true ? redactValue(stored, redactions) : stored;
  if (memories.length === 0) return;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const lines = memories.map((memory) => {
    const from = memory.provenance.conversation_ref;
    const entry = from !== undefined ? byId.get(from) : undefined;
    const target = entry ? ` — from ${link(entry)}` : '';
    return `- **${memory.type}** (${memory.status}): ${memory.content.replace(/\s+/g, ' ').trim()}${target}`;
  });
  await tree.put(
    'Memories.md',
    `${frontmatter({ title: 'Memories', memories: memories.length, tags: ['chatgraph/memories'] })}\n# Memories\n\n${lines.join('\n')}\n`,
  );
}
