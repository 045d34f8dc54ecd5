import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { followFolders } from '../src/live/follower.js';
import { convertToTemp } from './support/convert-to-temp.js';
import { LINES } from './support/patch-fixtures.js';
import { writeHostileCorpus } from './support/hostile-corpus.js';
import {
  CORPUS_SOURCES,
  GOLDEN_SOURCES,
  ROOT,
  corpusOf,
  fixturesOf,
  itReadsTheCorpus,
} from './support/shared.js';
import { startPamValidator } from './support/pam-sdk.js';
import { Folder } from '../src/folder/folder.js';
import { fixtureInput } from './support/sqlite-fixtures.js';

// Our fixtures, then the public samples of the conformance layer when the corpus is there.
const inputs: [string, string[]][] = [
  ...GOLDEN_SOURCES.flatMap((folder) =>
    fixturesOf(folder).map((path): [string, string[]] => [`${folder}/${basename(path)}`, [path]]),
  ),
  ...CORPUS_SOURCES.flatMap((folder) =>
    corpusOf(folder).map((path): [string, string[]] => [
      `corpus ${folder}/${basename(path)}`,
      [path],
    ]),
  ),
  ...readdirSync(join(ROOT, 'samples'))
    .filter((name) => name.endsWith('.zip') || name === 'claude-code')
    .map((name): [string, string[]] => [`samples/${name}`, [join(ROOT, 'samples', name)]]),
];

// One Python process runs every `pam validate` of the file (about a hundred bundles).
const validator = startPamValidator();
afterAll(() => {
  validator.close();
});

describe('the official PAM SDK validator (pam validate)', () => {
  itReadsTheCorpus();

  it.each(inputs)('accepts the bundle written from %s', async (_name, paths) => {
    const { dir } = await convertToTemp(paths.map(fixtureInput));
    const { status, output } = await validator.validate(dir);
    expect(output).toMatch(/\b0 invalid\b/);
    expect(status, output).toBe(0);
  });

  it('accepts the bundle `watch` writes as a session grows, settled at quiet moments', async () => {
    const projects = mkdtempSync(join(tmpdir(), 'chatgraph-pam-watch-'));
    const data = mkdtempSync(join(tmpdir(), 'chatgraph-pam-watch-data-'));
    mkdirSync(join(projects, '-p'));
    const log = join(projects, '-p', 's1.jsonl');
    writeFileSync(log, '');
    const waiters: (() => void)[] = [];
    const follower = await followFolders(new Folder(data), {
      folders: [projects],
      indexDelayMilliseconds: 0,
      onEvent: (event) => {
        if (event.kind === 'imported') for (const w of waiters.splice(0)) w();
      },
    });
    // A prompt, a reply split over two lines, a tool call and its result on a later line.
    for (const line of LINES) {
      const imported = new Promise<void>((resolve) => waiters.push(resolve));
      appendFileSync(log, `${JSON.stringify(line)}\n`);
      await imported;
    }
    await follower.stop();
    const files = readdirSync(join(data, 'bundle', 'conversations'));
    const text = files.map((f) => readFileSync(join(data, 'bundle', 'conversations', f), 'utf8'));
    // The conversation file as of the last line (settled), beside memory-store.json.
    expect(text.join('')).toContain('and the return trip');
    const { status, output } = await validator.validate(join(data, 'bundle'));
    expect(output).toMatch(/\b2 valid, 0 invalid\b/);
    expect(status, output).toBe(0);
  }, 60_000);

  it('accepts the bundle written from the hostile corpus', async () => {
    const { dir } = await convertToTemp(await writeHostileCorpus());
    const { status, output } = await validator.validate(dir);
    expect(output).toMatch(/\b0 invalid\b/);
    expect(status, output).toBe(0);
  }, 120_000);
});
