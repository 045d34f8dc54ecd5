import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importSamples } from './support/bundled-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';

// Issue 41, point 5: links planted in an export's --out folder (a linked subfolder, a linked
// note, a manifest entry naming a file behind a link) are never followed out of it: nothing is
// written, read or removed outside --out.

const Report = z.object({
  written: z.number(),
  kept: z.array(z.object({ path: z.string(), reason: z.string() })),
});

let data: string;
beforeAll(() => {
  data = join(tempDir(), 'data');
  importSamples(data);
}, 120_000);

async function exportHtml(out: string): Promise<{ code: number; report: z.infer<typeof Report> }> {
  const { code, stdout, stderr } = await chatgraph(
    'export',
    '--format',
    'html',
    '--out',
    out,
    '--data-dir',
    data,
    '--json',
  );
  expect(stdout, stderr).not.toBe('');
  return { code, report: Report.parse(JSON.parse(stdout)) };
}

function manifestAdd(out: string, path: string, file: string): void {
  const manifest = join(out, '.chatgraph-export.json');
  const value = JSON.parse(readFileSync(manifest, 'utf8')) as {
    files: Record<string, unknown>;
  };
  const info = statSync(file);
  value.files[path] = {
    hash: createHash('sha256').update(readFileSync(file)).digest('hex'),
    size: info.size,
    mtimeMs: info.mtimeMs,
  };
  writeFileSync(manifest, JSON.stringify(value));
}

describe('export never follows a link out of --out (issue 41, point 5)', () => {
  it('writes nothing into, and removes nothing from, a folder linked in as a subfolder', async () => {
    const root = tempDir();
    const out = join(root, 'archive');
    expect((await exportHtml(out)).code).toBe(0);
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const victim = join(outside, 'victim.html');
    writeFileSync(victim, 'not the export’s');
    // The pages' folder becomes a link to a folder outside, and the manifest claims a file there.
    renameSync(join(out, 'conversations'), join(root, 'pages-moved-away'));
    symlinkSync(outside, join(out, 'conversations'));
    manifestAdd(out, 'conversations/victim.html', victim);

    const again = await exportHtml(out);
    expect(readdirSync(outside)).toEqual(['victim.html']);
    expect(readFileSync(victim, 'utf8')).toBe('not the export’s');
    expect(again.code).toBe(1);
    expect(again.report.kept.some((k) => k.reason === 'link')).toBe(true);
  });

  it('does not write through a note that is a link, nor read a manifest that is one', async () => {
    const root = tempDir();
    const out = join(root, 'archive');
    expect((await exportHtml(out)).code).toBe(0);
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'keep me');
    const page = readdirSync(join(out, 'conversations')).find((f) => f.endsWith('.html')) ?? '';
    const note = join(out, 'conversations', page);
    renameSync(note, join(root, 'moved.html'));
    symlinkSync(outside, note);
    manifestAdd(out, `conversations/${page}`, outside);
    const again = await exportHtml(out);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(again.report.kept).toContainEqual({ path: `conversations/${page}`, reason: 'link' });

    const linkedManifest = join(tempDir(), 'archive');
    mkdirSync(linkedManifest);
    symlinkSync('/dev/zero', join(linkedManifest, '.chatgraph-export.json'));
    const refused = await chatgraph(
      'export',
      '--format',
      'html',
      '--out',
      linkedManifest,
      '--data-dir',
      data,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/\.chatgraph-export\.json.*link/);
  });
});
