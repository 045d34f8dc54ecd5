// Issue 42, points 2, 7 and 8: what an import says of a file it cannot use, in words a person
// can act on, and under --json as a report a script can read.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Folder } from '../src/folder/folder.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { NotAnExportError } from '../src/pipeline/not-an-export-error.js';
import { ZipWriter } from '../src/sample/zip-writer.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);
const FIXTURES = join(ROOT, 'test', 'fixtures');

const refusalOf = async (inputs: string[]): Promise<string> => {
  const error = await importExports(new Folder(join(tempDir(), 'data')), inputs).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotAnExportError);
  return String(error);
};

/** Runs the built CLI; resolves with its exit code and output whatever the code. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = z
      .object({ code: z.number(), stdout: z.string(), stderr: z.string() })
      .parse(error);
    return failed;
  }
}

const reportShape = z.object({
  bundle: z.string(),
  totals: z.object({ conversations: z.number() }),
  problems: z.array(
    z.object({
      code: z.string(),
      level: z.string(),
      examples: z.array(z.object({ message: z.string() })),
    }),
  ),
});

describe('a JSON file that is not an export', () => {
  it.each(['café ', 'cafe '])(
    'over 64 KiB with "%s" early on is not a chat export, not "cut off"',
    async (word) => {
      const file = join(tempDir(), 'notes.json');
      writeFileSync(file, JSON.stringify([{ note: word.repeat(20_000) }]));
      const refusal = await refusalOf([file]);
      expect(refusal).toMatch(/is not a chat export/);
      expect(refusal).not.toMatch(/cut off/);
    },
  );
});

describe('refusals under --json', () => {
  it('print the report with the refusal in it, and exit 2', async () => {
    const dir = tempDir();
    const file = join(dir, 'notes.json');
    writeFileSync(file, JSON.stringify([{ note: 'not a chat' }]));
    for (const args of [
      ['import', file, '--data-dir', join(dir, 'data'), '--json'],
      ['convert', file, '--out', join(dir, 'bundle'), '--json'],
    ]) {
      const { code, stdout } = await cli(args);
      expect(code).toBe(2);
      const report = reportShape.parse(JSON.parse(stdout));
      expect(report.totals.conversations).toBe(0);
      const refusal = report.problems.find((p) => p.code === 'not-an-export');
      expect(refusal?.level).toBe('error');
      expect(refusal?.examples[0]?.message).toMatch(/is not a chat export/);
    }
  }, 60_000);

  it('name the files a ChatGPT export_manifest.json lists when it is given alone', async () => {
    const dir = tempDir();
    const manifest = join(dir, 'export_manifest.json');
    writeFileSync(
      manifest,
      readFileSync(join(FIXTURES, 'chatgpt', 'sharded-manifest-2026', 'export_manifest.json')),
    );
    const refusal = await refusalOf([manifest]);
    expect(refusal).toMatch(
      /"export_manifest\.json" is ChatGPT's list of the export's files, not the export itself: the 3 files it lists \(conversations-000\.json, conversations-001\.json, user\.json\) were not given/,
    );
    const { code, stdout } = await cli([
      'import',
      manifest,
      '--data-dir',
      join(dir, 'd'),
      '--json',
    ]);
    expect(code).toBe(2);
    const codes = reportShape.parse(JSON.parse(stdout)).problems.map((p) => p.code);
    expect(codes).toEqual(expect.arrayContaining(['not-an-export', 'export-shard-missing']));
  }, 60_000);
});

describe('a zip whose download stopped', () => {
  async function cutZip(dir: string, keep: (size: number) => number): Promise<string> {
    const whole = join(dir, 'export.zip');
    // Words from a fixed pseudo-random sequence: text that deflate cannot shrink much.
    let seed = 42;
    const word = (): string => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed.toString(36);
    };
    const conversations = Array.from({ length: 60 }, (_, n) => ({
      id: `cut-${n}`,
      title: `Conversation ${n}`,
      create_time: 1_767_000_000 + n,
      mapping: {
        [`m-${n}`]: {
          id: `m-${n}`,
          parent: null,
          children: [],
          message: {
            id: `m-${n}`,
            author: { role: 'user' },
            create_time: 1_767_000_000 + n,
            content: {
              content_type: 'text',
              parts: [Array.from({ length: 1000 }, word).join(' ')],
            },
          },
        },
      },
    }));
    const writer = new ZipWriter(whole);
    await writer.add('conversations.json', [JSON.stringify(conversations)]);
    await writer.close();
    const bytes = readFileSync(whole);
    const cut = join(dir, 'cut.zip');
    writeFileSync(cut, bytes.subarray(0, keep(bytes.length)));
    return cut;
  }

  it('names the file and says the download looks incomplete, keeping what came before', async () => {
    const dir = tempDir();
    const zip = await cutZip(dir, (size) => Math.floor(size * 0.6));
    const report = await importExports(new Folder(join(dir, 'data')), [zip]);
    const corrupt = report.problems.find((p) => p.code === 'corrupt-file')?.examples[0];
    expect(corrupt?.file).toBe('cut.zip!conversations.json');
    expect(corrupt?.message).toMatch(/the download looks incomplete, download the export again/);
    expect(report.totals.conversations).toBeGreaterThan(0);
  }, 60_000);

  it('cut before its first conversation, is said so in a report (exit 2), not a bare zlib error', async () => {
    const dir = tempDir();
    const zip = await cutZip(dir, () => 3000);
    const { code, stdout, stderr } = await cli([
      'import',
      zip,
      '--data-dir',
      join(dir, 'data'),
      '--json',
    ]);
    expect(stderr).not.toMatch(/^chatgraph: unexpected end of file/m);
    expect(code).toBe(2);
    const corrupt = reportShape
      .parse(JSON.parse(stdout))
      .problems.find((p) => p.code === 'corrupt-file');
    expect(corrupt?.examples[0]?.message).toMatch(/the download looks incomplete/);
  }, 60_000);
});
