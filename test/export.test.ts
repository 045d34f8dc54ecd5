import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportConversations } from '../src/export/export-conversations.js';
import { type ExportFormat, type ExportReport, type ThreadMessage } from '../src/api/view.js';
import type { Store } from '../src/stores/store.js';
import { isPortablePath, safeName, uniquePaths } from '../src/export/file-names.js';
import { SAMPLE_INPUTS } from './support/bundled-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { CLI, chatgraph } from './support/run-cli.js';
import { CORPUS_FOLDERS, ROOT, corpusOf, itReadsTheCorpus } from './support/shared.js';
import { Folder } from '../src/folder/folder.js';

/**
 * Every fixture folder we wrote, the bundled samples and, as the conformance layer, the public
 * export samples (required under CI), in one data folder.
 */
const FIXTURES = [
  ...readdirSync(join(ROOT, 'test', 'fixtures'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(ROOT, 'test', 'fixtures', e.name)),
  ...CORPUS_FOLDERS.flatMap(corpusOf),
];

let data = '';
let remembered = '';
let store: Store;
let conversations: { id: string; messages: ThreadMessage[] }[] = [];

// Attachments copied beside the notes (an attached .md among them) are not notes.
const isNote = (path: string): boolean =>
  path.endsWith('.md') && !/(\.files|^attachments|\/attachments)\//.test(path);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

const run = (format: ExportFormat, out: string, more: { force?: boolean; ids?: string[] } = {}) =>
  exportConversations(new Folder(data), { store, format, out, ...more });

beforeAll(async () => {
  data = join(tempDir(), 'data');
  execFileSync(process.execPath, [
    CLI,
    'import',
    ...FIXTURES,
    ...SAMPLE_INPUTS,
    '--data-dir',
    data,
    '-q',
  ]);
  // A memory that came from a conversation, for the vault's wikilinks.
  const listed = JSON.parse(
    execFileSync(process.execPath, [CLI, 'list', '--json', '--limit', '1', '--data-dir', data], {
      encoding: 'utf8',
    }),
  ) as { conversations: { id: string }[] };
  remembered = listed.conversations[0]?.id ?? '';
  execFileSync(process.execPath, [
    CLI,
    'remember',
    'Prefers trains to planes',
    '--type',
    'preference',
    '--conversation',
    remembered,
    '--data-dir',
    data,
  ]);
  store = await new Folder(data).openStore({ readonly: true });
  const page = await store.listConversations({ limit: 1000 });
  conversations = await Promise.all(
    page.items.map(async (c) => ({
      id: c.id,
      messages: await store.thread(c.id, { allBranches: true }),
    })),
  );
}, 120_000);

afterAll(async () => {
  await store.close();
});

// A note's frontmatter, parsed by a YAML library; the note must start with it.
function frontmatterOf(text: string): Record<string, unknown> {
  expect(text.startsWith('---\n')).toBe(true);
  const end = text.indexOf('\n---\n', 4);
  expect(end).toBeGreaterThan(0);
  const parsed: unknown = parse(text.slice(4, end));
  expect(typeof parsed).toBe('object');
  return parsed as Record<string, unknown>;
}

// Callouts quote their lines ("> "); the text inside is compared without the marks.
const unquote = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.replace(/^(>\s?)+/, ''))
    .join('\n');

/** The conversation id each note names in its frontmatter, with its text. */
function notesById(dir: string): Map<string, string> {
  const notes = new Map<string, string>();
  for (const path of filesUnder(dir).filter(isNote)) {
    const text = readFileSync(join(dir, path), 'utf8');
    const id = frontmatterOf(text).id;
    if (typeof id === 'string') notes.set(id, text);
  }
  return notes;
}

itReadsTheCorpus();

describe('export --format markdown', () => {
  let out = '';
  let first: ExportReport;
  beforeAll(async () => {
    out = join(tempDir(), 'md');
    first = await run('markdown', out);
  });

  it('writes every message text of every branch of every conversation, verbatim', () => {
    expect(conversations.length).toBeGreaterThan(50);
    expect(first.conversations).toBe(conversations.length);
    const notes = notesById(out);
    let checked = 0;
    for (const c of conversations) {
      const note = notes.get(c.id);
      expect(note, c.id).toBeDefined();
      for (const m of c.messages) {
        if (m.content.trim() === '') continue;
        expect(note?.includes(m.content), `${c.id} ${m.id}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(250);
  });

  it('heads each note with frontmatter a YAML parser reads, with the fields asked for', () => {
    for (const note of notesById(out).values()) {
      const fields = frontmatterOf(note);
      for (const key of [
        'title',
        'source',
        'id',
        'platform_id',
        'created',
        'updated',
        'models',
        'messages',
        'tags',
      ])
        expect(fields, key).toHaveProperty(key);
      expect(Array.isArray(fields.tags)).toBe(true);
      expect(typeof fields.messages).toBe('number');
    }
  });

  it('marks other branches at their fork and keeps them once, not the conversation twice', async () => {
    const notes = notesById(out);
    const forked = [...notes.values()].filter((n) => n.includes('## Other branches'));
    expect(forked.length).toBeGreaterThan(3);
    for (const note of forked)
      expect(note).toContain('Another branch forks here: [Branch 1](#branch-1)');
    // Each message is written once: a text no other message of its conversation holds appears
    // once in the note, whether it is on the shown thread or on another branch.
    let checked = 0;
    for (const c of conversations) {
      // The body only (a title is often the first message); a branch's heading quotes the
      // message it forks after: that quote is not the message.
      const whole = notes.get(c.id) ?? '';
      const note = whole
        .slice(whole.indexOf('\n# ') + 1)
        .replace(/^# .*$/m, '')
        .replace(/^Forks after the .*$/gm, '')
        // A footnote quotes its source, which may say what the message says.
        .replace(/^\[\^c\d+\]: .*$/gm, '');
      if (!note.includes('## Other branches')) continue;
      const shown = new Set((await store.thread(c.id)).map((m) => m.id));
      const onBranches = c.messages.filter((m) => !shown.has(m.id));
      expect(onBranches.length, c.id).toBeGreaterThan(0);
      for (const m of c.messages) {
        const text = m.content.trim();
        if (text.length < 12 || c.messages.some((o) => o !== m && o.content.includes(text)))
          continue;
        expect(note.split(text).length - 1, `${c.id} ${m.id}`).toBe(1);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('copies attachments beside the note and links them', () => {
    const copied = filesUnder(out).filter((p) => p.includes('.files/'));
    expect(copied.length).toBeGreaterThan(0);
    for (const path of copied) {
      const [stem] = path.split('.files/');
      const note = readFileSync(join(out, `${stem ?? ''}.md`), 'utf8');
      expect(note).toContain(`](<${path}>)`);
    }
  });

  it('writes citations as footnotes and thinking folded', () => {
    const all = [...notesById(out).values()].join('\n');
    expect(all).toMatch(/\[\^c1\]: \[/);
    expect(all).toContain('<summary>Thinking</summary>');
    expect(all).toMatch(/<summary>Tool call: [^<]+<\/summary>\n\n```/);
  });

  it('names files validly on Windows, macOS and Linux', () => {
    for (const path of filesUnder(out)) expect(isPortablePath(path), path).toBe(true);
  });

  it('writes nothing on a second run, and says the files are up to date', async () => {
    const again = await run('markdown', out);
    expect(again).toMatchObject({ written: 0, removed: 0, moved: 0, kept: [] });
    expect(again.unchanged).toBe(first.written);
    const cli = await chatgraph('export', '--format', 'markdown', '--out', out, '--data-dir', data);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('nothing changed');
  });

  it('keeps a note the user edited, says so, and overwrites it only with --force', async () => {
    const [path] = filesUnder(out).filter(isNote);
    const file = join(out, path ?? '');
    const edited = `${readFileSync(file, 'utf8')}\nMy own note.\n`;
    writeFileSync(file, edited);
    const kept = await run('markdown', out);
    expect(kept.kept).toEqual([{ path, reason: 'edited' }]);
    expect(kept.written).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(edited);
    const cli = await chatgraph('export', '--format', 'markdown', '--out', out, '--data-dir', data);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`kept ${path ?? ''}: edited since it was exported`);
    const forced = await run('markdown', out, { force: true });
    expect(forced.written).toBe(1);
    expect(readFileSync(file, 'utf8')).not.toContain('My own note.');
  });

  it('removes the files of a conversation no longer exported, and nothing else', async () => {
    const dir = join(tempDir(), 'md-some');
    cpSync(out, dir, { recursive: true });
    const keep = conversations.slice(0, 3).map((c) => c.id.slice(0, 8));
    const some = await run('markdown', dir, { ids: keep });
    expect(some.conversations).toBe(3);
    expect(some.written).toBe(0);
    expect(some.removed).toBe(first.written - some.unchanged);
    expect(notesById(dir).size).toBe(3);
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves the note of a conversation whose title changed', async () => {
    const dir = join(tempDir(), 'md-rename');
    const manifest = join(dir, '.chatgraph-export.json');
    const [target] = conversations;
    await run('markdown', dir, { ids: [target?.id ?? ''] });
    // As if the conversation had had another title when the last export ran.
    const before = JSON.parse(readFileSync(manifest, 'utf8')) as { files: Record<string, unknown> };
    const name = Object.keys(before.files).find((p) => p.endsWith('.md')) ?? '';
    const old = `Old title (${(target?.id ?? '').slice(0, 8)}).md`;
    cpSync(join(dir, name), join(dir, old));
    before.files = Object.fromEntries(
      Object.entries(before.files).map(([p, entry]) => [p === name ? old : p, entry]),
    );
    writeFileSync(manifest, JSON.stringify(before));
    rmSync(join(dir, name));
    const moved = await run('markdown', dir, { ids: [target?.id ?? ''] });
    expect(moved).toMatchObject({ written: 1, moved: 1, removed: 0 });
    expect(filesUnder(dir).filter(isNote)).toEqual([name]);
  });
});

describe('export selections', () => {
  it('takes the filters of list and search: source, a word search, ids by their start', async () => {
    const claude = join(tempDir(), 'claude');
    const some = await exportConversations(new Folder(data), {
      store,
      format: 'markdown',
      out: claude,
      source: 'claude-code',
    });
    const sources = [...notesById(claude).values()].map((n) => frontmatterOf(n).source);
    expect(sources.length).toBe(some.conversations);
    expect(sources.length).toBeGreaterThan(2);
    expect(new Set(sources)).toEqual(new Set(['claude-code']));
    const found = await store.search({ text: 'sourdough', mode: 'keyword', limit: 1000 });
    const ids = new Set(found.hits.map((h) => h.conversationId));
    expect(ids.size).toBeGreaterThan(0);
    const words = join(tempDir(), 'words');
    await exportConversations(new Folder(data), {
      store,
      format: 'markdown',
      out: words,
      query: 'sourdough',
    });
    expect(new Set(notesById(words).keys())).toEqual(ids);
    const cli = await chatgraph(
      'export',
      '--format',
      'jsonl',
      '--out',
      join(tempDir(), 'x'),
      'nosuchid1',
      '--data-dir',
      data,
    );
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('there is no conversation with id nosuchid1');
  });
});

describe('export --format obsidian', () => {
  let out = '';
  beforeAll(async () => {
    out = join(tempDir(), 'vault');
    await run('obsidian', out);
  });

  it('keeps every message text, folders by source and year, valid names', () => {
    const notes = notesById(out);
    for (const c of conversations) {
      const note = unquote(notes.get(c.id) ?? '');
      for (const m of c.messages)
        if (m.content.trim() !== '')
          expect(note.includes(unquote(m.content)), `${c.id} ${m.id}`).toBe(true);
    }
    for (const path of filesUnder(out)) {
      expect(isPortablePath(path), path).toBe(true);
      if (isNote(path) && !path.startsWith('Index') && !['Index.md', 'Memories.md'].includes(path))
        expect(path).toMatch(/^[a-z-]+\/(\d{4}|undated)\//);
    }
  });

  it('starts every note with frontmatter, Obsidian tags a list; callouts for thinking and tools', () => {
    const paths = filesUnder(out).filter(isNote);
    for (const path of paths) {
      const fields = frontmatterOf(readFileSync(join(out, path), 'utf8'));
      expect(Array.isArray(fields.tags), path).toBe(true);
    }
    const all = paths.map((p) => readFileSync(join(out, p), 'utf8')).join('\n');
    expect(all).toContain('> [!note]- Thinking');
    expect(all).toMatch(/> \[!example\]- Tool call: /);
  });

  it('writes an index note per source and per month, linking every conversation', () => {
    const paths = filesUnder(out);
    const sources = paths.filter((p) => p.startsWith('Index/Sources/'));
    const months = paths.filter((p) => p.startsWith('Index/Months/'));
    expect(sources.length).toBeGreaterThanOrEqual(9);
    expect(months.length).toBeGreaterThan(3);
    const links = sources.map((p) => readFileSync(join(out, p), 'utf8')).join('\n');
    for (const note of paths.filter((p) => /^[a-z-]+\/(\d{4}|undated)\/[^/]+\.md$/.test(p)))
      expect(links).toContain(`[[${note.slice(0, -3)}|`);
  });

  it('links memories to the conversations they came from', () => {
    const memories = readFileSync(join(out, 'Memories.md'), 'utf8');
    expect(frontmatterOf(memories).title).toBe('Memories');
    const linked = memories.match(/from \[\[([^|\]]+)\|/g) ?? [];
    expect(linked.length).toBe(1);
    expect(memories).toContain('Prefers trains to planes — from [[');
    expect(notesById(out).has(remembered)).toBe(true);
    for (const link of linked) {
      const target = /\[\[([^|\]]+)\|/.exec(link)?.[1] ?? '';
      expect(filesUnder(out)).toContain(`${target}.md`);
    }
  });

  it('writes nothing on a second run', async () => {
    expect(await run('obsidian', out)).toMatchObject({ written: 0, removed: 0, kept: [] });
  });
});

describe('export --format jsonl', () => {
  it('writes one PAM conversation a line, the bundle’s own, and nothing the second time', async () => {
    const out = join(tempDir(), 'jsonl');
    const report = await run('jsonl', out);
    const lines = readFileSync(join(out, 'conversations.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBe(conversations.length);
    const bundle = join(data, 'bundle', 'conversations');
    for (const line of lines) {
      const record = JSON.parse(line) as { schema: string; id: string };
      expect(record.schema).toBe('portable-ai-memory-conversation');
      expect(JSON.parse(readFileSync(join(bundle, `${record.id}.json`), 'utf8'))).toEqual(record);
    }
    expect(report.written).toBe(1);
    expect(await run('jsonl', out)).toMatchObject({ written: 0, unchanged: 1 });
  });
});

describe('export --format html', () => {
  let out = '';
  beforeAll(async () => {
    out = join(tempDir(), 'html');
    await run('html', out);
  });

  // Words of a text, in order: what a Markdown rendering keeps of it.
  const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const decoded = (html: string): string =>
    html
      // A code block's caption names its language: the fence's, compared without it.
      .replace(/<span class="code-language">[^<]*<\/span>/g, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');

  it('has a page a conversation holding every message’s words in order', () => {
    const pages = filesUnder(out).filter(
      (p) => p.startsWith('conversations/') && p.endsWith('.html'),
    );
    expect(pages.length).toBe(conversations.length);
    const byShort = new Map(pages.map((p) => [/\(([^)]+)\)\.html$/.exec(p)?.[1] ?? '', p]));
    for (const c of conversations) {
      const page = byShort.get(c.id.slice(0, 8));
      expect(page, c.id).toBeDefined();
      const text = ` ${words(decoded(readFileSync(join(out, page ?? ''), 'utf8'))).join(' ')} `;
      for (const m of c.messages) {
        // An ordered list's numbers become <ol> items: the rendering keeps the rest.
        // A Markdown link shows its words, not its target.
        const own = words(
          m.content
            .replace(/^\s*\d+[.)]\s/gm, ' ')
            .replace(/^\s*(`{3,}|~{3,}).*$/gm, ' ')
            .replace(/\]\([^)\s]*\)/g, '] '),
        );
        if (own.length === 0) continue;
        expect(text.includes(` ${own.join(' ')} `), `${c.id} ${m.id}`).toBe(true);
      }
    }
  });

  it('escapes chat text and allows nothing remote', () => {
    for (const path of filesUnder(out).filter((p) => p.endsWith('.html'))) {
      const html = readFileSync(join(out, path), 'utf8');
      expect(html).toContain(
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\';',
      );
      // Only our own scripts, by file; no inline script, no handler attribute from chat text.
      for (const tag of html.match(/<script[^>]*>/g) ?? [])
        expect(tag).toMatch(/^<script src="assets\//);
      expect(html).not.toMatch(/<[a-z]+[^>]*\son[a-z]+=/i);
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\/(?![^"]*")[^"]*"[^>]*>\s*<\/script/);
    }
  });

  it('writes nothing on a second run', async () => {
    expect(await run('html', out)).toMatchObject({ written: 0, removed: 0, kept: [] });
  });
});

describe('file names', () => {
  it('are made valid on every system, and kept when they are', () => {
    expect(safeName('CON', 'x')).toBe('CON_');
    expect(safeName('com1.txt', 'x')).toBe('com1_.txt');
    expect(safeName('aux .txt', 'x')).toBe('aux_ .txt');
    expect(safeName('a<b>c:d"e/f\\g|h?i*j', 'x')).toBe('a b c d e f g h i j');
    expect(safeName('trailing dots... ', 'x')).toBe('trailing dots');
    expect(safeName('...', 'fallback')).toBe('fallback');
    expect(Buffer.byteLength(safeName('日本語'.repeat(100), 'x'))).toBeLessThanOrEqual(150);
    expect(safeName('Plan: Q3 / Q4?', 'x')).toBe('Plan Q3 Q4');
    // Two that would meet (the same title and id start; titles apart only in case) never do.
    const paths = uniquePaths(
      [
        { id: 'abcdef12-0001', title: 'New chat' },
        { id: 'abcdef12-0002', title: 'New chat' },
        { id: 'abcdef12-0003', title: 'NEW CHAT' },
      ],
      (stem) => `chatgpt/2024/${stem}`,
    );
    expect([...paths.values()]).toEqual([
      'chatgpt/2024/New chat (abcdef12)',
      'chatgpt/2024/New chat (abcdef12-000)',
      'chatgpt/2024/NEW CHAT (abcdef12-0003)',
    ]);
    for (const bad of ['CON.md', 'a.', 'a ', 'a:b', 'nul'])
      expect(isPortablePath(bad), bad).toBe(false);
  });
});

describe('chatgraph export (the command)', () => {
  it('refuses a format it does not write, and a folder holding another format', async () => {
    const bad = await chatgraph(
      'export',
      '--format',
      'pdf',
      '--out',
      tempDir(),
      '--data-dir',
      data,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format pdf is not a format');
    const out = join(tempDir(), 'one');
    expect(
      (await chatgraph('export', '--format', 'jsonl', '--out', out, '--data-dir', data)).code,
    ).toBe(0);
    const other = await chatgraph('export', '--format', 'html', '--out', out, '--data-dir', data);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('holds a jsonl export; choose another --out folder for html');
  });
});

describe('export --redact', () => {
  it('masks a secret the store holds unmasked, in the note and the JSON Lines', async () => {
    const root = tempDir();
    const key = 'AKIAQWERTYUIOPASDFGH';
    const message = (id: string, role: string, text: string, time: number) => ({
      id,
      author: { role, metadata: {} },
      create_time: time,
      content: { content_type: 'text', parts: [text] },
      metadata: {},
      recipient: 'all',
    });
    const file = join(root, 'secret.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          id: 'secret-1',
          conversation_id: 'secret-1',
          title: 'My AWS setup',
          create_time: 1_700_000_000,
          update_time: 1_700_000_100,
          current_node: 'a',
          mapping: {
            root: { id: 'root', parent: null, children: ['u'], message: null },
            u: {
              id: 'u',
              parent: 'root',
              children: ['a'],
              message: message('u', 'user', `my key is ${key}`, 1_700_000_001),
            },
            a: {
              id: 'a',
              parent: 'u',
              children: [],
              message: message('a', 'assistant', `do not paste ${key} anywhere`, 1_700_000_002),
            },
          },
        },
      ]),
    );
    const folder = join(root, 'data');
    execFileSync(process.execPath, [CLI, 'import', file, '--data-dir', folder, '-q']);
    for (const format of ['markdown', 'jsonl'] as const) {
      const out = join(root, format);
      const plain = await chatgraph(
        'export',
        '--format',
        format,
        '--out',
        out,
        '--data-dir',
        folder,
      );
      expect(plain.code).toBe(0);
      const text = () =>
        filesUnder(out)
          .map((p) => readFileSync(join(out, p), 'utf8'))
          .join('\n');
      expect(text()).toContain(key);
      const masked = await chatgraph(
        'export',
        '--format',
        format,
        '--out',
        out,
        '--data-dir',
        folder,
        '--redact',
      );
      expect(masked.code).toBe(0);
      expect(masked.stdout).toContain('2 secrets masked');
      expect(text()).not.toContain(key);
      expect(text()).toContain('[REDACTED:aws-access-key]');
    }
  });
});
