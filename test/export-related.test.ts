import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSamples } from './support/bundled-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { testModelDir } from './support/embedding-model.js';
import { CLI } from './support/run-cli.js';

const env = { ...process.env, CHATGRAPH_MODEL_DIR: testModelDir() };

function notes(vault: string): Map<string, string> {
  return new Map(
    readdirSync(vault, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => {
        const path = relative(vault, join(e.parentPath, e.name)).split(sep).join('/');
        return [path, readFileSync(join(vault, path), 'utf8')];
      }),
  );
}

describe('the vault’s Related sections', () => {
  it('are left out before embedding, and link conversations close in meaning after it', () => {
    const root = tempDir();
    const data = join(root, 'data');
    importSamples(data);
    const exportTo = (out: string) =>
      execFileSync(
        process.execPath,
        [CLI, 'export', '--format', 'obsidian', '--out', out, '--data-dir', data],
        { env },
      );
    const before = join(root, 'before');
    exportTo(before);
    expect([...notes(before).values()].some((n) => n.includes('## Related'))).toBe(false);

    execFileSync(process.execPath, [CLI, 'embed', '--data-dir', data, '-q'], { env });
    const after = join(root, 'after');
    exportTo(after);
    const all = notes(after);
    const related = [...all].filter(([, text]) => text.includes('\n## Related\n'));
    expect(related.length).toBeGreaterThan(0);
    for (const [, text] of related)
      for (const [, target] of (text.split('\n## Related\n')[1] ?? '').matchAll(
        /\[\[([^\]|]+)\]\]/g,
      ))
        expect(existsSync(join(after, `${target ?? ''}.md`)), target).toBe(true);
    // Two of the samples' cooking conversations, in two sources, are each other's neighbours.
    const lentils = [...all].find(([path]) => path.includes('Quick Lentil Dinner Ideas'));
    expect(lentils?.[1]).toMatch(
      /## Related\n\n- \[\[claude-ai\/2026\/Vegetarian meal prep for a week \([0-9a-f]{8}\)\]\]/,
    );
  }, 180_000);
});
