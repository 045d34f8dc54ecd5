import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';

// Issue 41, point 19: a line break in a platform or citation URL made headings, `javascript:`
// links and HTML in Markdown and Obsidian notes; the notes kept `javascript:` and `data:`
// citation links the HTML export and the web app drop; a Perplexity thread's "open on the
// platform" link could point at any https host. The hostile thread is written here.

const INJECTED = '\n# Injected heading\n<img src=x onerror=alert(1)>\n[click](javascript:alert(2))';

function thread(url: string): Record<string, unknown> {
  return {
    metadata: {
      thread_title: 'Tide tables for Brest',
      thread_url: url,
      thread_id: 'Tq9xWbKQ2aL8vR1mW4nPg1',
      total_entries: 1,
      thread_created_at: '2026-10-01T08:02:10Z',
      thread_updated_at: '2026-10-01T08:02:10Z',
    },
    conversations: [
      {
        index: 1,
        uuid: '9c1e0c52-4a9d-4f36-9a0e-2c5d8e1f3b01',
        query: 'When is high tide in Brest on Saturday?',
        answer: 'At 06:12 and 18:40 [1], with a coefficient of 95 [2]; see also [3] and [4].',
        model: 'sonar-pro',
        timestamp: '2026-10-01T08:02:10Z',
        sources: [
          { title: 'Tides', url: `https://tides.example.org/brest${INJECTED}`, snippet: null },
          { title: 'Script', url: 'javascript:alert(3)', snippet: null },
          { title: 'Data', url: 'data:text/html,<script>alert(4)</script>', snippet: null },
          { title: `Title${INJECTED}`, url: 'https://coefficients.example.net/95', snippet: null },
        ],
      },
    ],
  };
}

let data: string;
beforeAll(async () => {
  const dir = tempDir();
  const inject = join(dir, 'inject.json');
  writeFileSync(
    inject,
    JSON.stringify(thread(`https://www.perplexity.ai/search/tides-Tq9x${INJECTED}`)),
  );
  const foreign = join(dir, 'foreign.json');
  const other = thread('https://evil.example/search/tides');
  (other.metadata as Record<string, unknown>).thread_id = 'Fx9xWbKQ2aL8vR1mW4nPg2';
  (other.metadata as Record<string, unknown>).thread_title = 'Foreign host';
  writeFileSync(foreign, JSON.stringify(other));
  data = join(dir, 'data');
  const imported = await chatgraph('import', inject, foreign, '--data-dir', data, '-q');
  expect(imported.code, imported.stderr).toBeLessThan(2);
}, 120_000);

function notes(out: string): Map<string, string> {
  return new Map(
    readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => [e.name, readFileSync(join(e.parentPath, e.name), 'utf8')]),
  );
}

describe('URLs in Markdown and Obsidian notes (issue 41, point 19)', () => {
  for (const format of ['markdown', 'obsidian']) {
    it(`${format}: a line break in a URL makes no heading, HTML or link; javascript: and data: are no links`, async () => {
      const out = join(tempDir(), format);
      const run = await chatgraph('export', '--format', format, '--out', out, '--data-dir', data);
      expect(run.code, run.stderr).toBe(0);
      const all = notes(out);
      const tides = [...all.entries()].find(([name]) => name.startsWith('Tide tables'))?.[1];
      expect(tides, [...all.keys()].join(', ')).toBeDefined();
      const text = tides ?? '';
      expect(text).not.toMatch(/^# Injected/m);
      expect(text).not.toMatch(/^<img/m);
      expect(text).not.toMatch(/\]\(<?(javascript|data):/i);
      expect(text).toContain('[open on the platform](<https://www.perplexity.ai/search/');
      // Every link destination stays on its line and inside its brackets.
      for (const [, target] of text.matchAll(/\]\(<([^>]*)>\)/g))
        expect(target, target).not.toMatch(/[\s<]/);
      // The sources are still there, as text when they are no link.
      expect(text).toContain('Script');
      expect(text).toContain('Data');
    });
  }

  it('an "open on the platform" link to a host not the platform’s is left out', async () => {
    const out = join(tempDir(), 'markdown-foreign');
    const run = await chatgraph('export', '--format', 'markdown', '--out', out, '--data-dir', data);
    expect(run.code, run.stderr).toBe(0);
    const foreign = [...notes(out).entries()].find(([name]) => name.startsWith('Foreign host'));
    expect(foreign).toBeDefined();
    expect(foreign?.[1]).not.toContain('evil.example');
    expect(foreign?.[1]).not.toContain('open on the platform');
  });
});
