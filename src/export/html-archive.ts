import { createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import type { ExportItem } from './export-source.js';
import { copyAttachments, type AttachmentPolicy } from './attachment-files.js';
import { conversationStem } from './file-names.js';
import type { OutputTree } from './output-tree.js';
import {
  ARCHIVE_CSS,
  ARCHIVE_JS,
  conversationHtml,
  indexHtml,
  searchWords,
  type ArchiveRow,
} from './render-html.js';

/** The web app's style sheet, beside this module in both the sources and the build. */
const WEB_CSS = new URL('../web/client/style.css', import.meta.url);

/**
 * The static archive: a page a conversation (`conversations/`), `index.html` with the list and
 * a search box, and `assets/search-index.js`, the prebuilt word index, written line by line as
 * the conversations go by (a script, not JSON: a page opened from disk may not fetch).
 */
export class HtmlArchive {
  private readonly rows: ArchiveRow[] = [];
  private readonly temp: string;
  private readonly index: WriteStream;
  private first = true;

  constructor(
    private readonly tree: OutputTree,
    /** Each conversation's page stem, by id (see `uniquePaths`). */
    private readonly stems: ReadonlyMap<string, string>,
    private readonly policy: AttachmentPolicy,
  ) {
    this.temp = join(tree.dir, `search-index.js.${String(process.pid)}.tmp`);
    // A killed export's file, or a link planted at the name, removed; `wx`: never written through.
    rmSync(this.temp, { force: true });
    this.index = createWriteStream(this.temp, { flags: 'wx' });
    this.index.write('window.CHATGRAPH_SEARCH = [\n');
  }

  async write(item: ExportItem): Promise<boolean> {
    const info = item.view.conversation;
    const stem = this.stems.get(info.id) ?? conversationStem(info.title ?? info.name, info.id);
    const names = await copyAttachments(
      this.tree,
      item,
      `conversations/${stem}.files`,
      this.policy,
    );
    const links = new Map(
      [...names].map(([ref, name]) => [
        ref,
        `${encodeURIComponent(stem)}.files/${encodeURIComponent(name)}`,
      ]),
    );
    const href = `conversations/${encodeURIComponent(stem)}.html`;
    await this.tree.put(
      `conversations/${stem}.html`,
      conversationHtml(item.view, (ref) => links.get(ref) ?? null),
      info.id,
    );
    this.rows.push({
      href,
      title: info.title ?? info.name,
      source: info.source,
      createdAt: info.createdAt,
      messages: item.view.messages.length,
    });
    const line = JSON.stringify({ p: href, t: info.title ?? info.name, w: searchWords(item.view) });
    // `<` escaped: the index is a script, and chat text must not close its tag or open another.
    const safe = line
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
    if (!this.index.write(`${this.first ? '' : ',\n'}${safe}`)) await once(this.index, 'drain');
    this.first = false;
    return true;
  }

  async end(): Promise<void> {
    this.index.end('\n];\n');
    await once(this.index, 'finish');
    try {
      await this.tree.adopt('assets/search-index.js', this.temp);
    } finally {
      await rm(this.temp, { force: true });
    }
    await this.tree.put('assets/style.css', await readFile(WEB_CSS));
    await this.tree.put('assets/archive.css', ARCHIVE_CSS);
    await this.tree.put('assets/archive.js', ARCHIVE_JS);
    await this.tree.put('index.html', indexHtml(this.rows));
  }
}
