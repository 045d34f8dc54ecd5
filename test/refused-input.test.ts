import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { NotAnExportError } from '../src/pipeline/not-an-export-error.js';
import { ZipWriter } from '../src/sample/zip-writer.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { Folder } from '../src/folder/folder.js';

/** A ChatGPT export whose one message is `mib` MiB of one letter: it deflates about 1000:1. */
async function bombZip(path: string, mib: number): Promise<void> {
  const text = JSON.stringify([branchedConversation('bomb')]);
  const at = text.indexOf('hello');
  const chunk = 'a'.repeat(1 << 20);
  function* parts(): Generator<string> {
    yield text.slice(0, at);
    for (let i = 0; i < mib; i++) yield chunk;
    yield text.slice(at);
  }
  const writer = new ZipWriter(path);
  await writer.add('conversations.json', parts());
  await writer.close();
}

describe('inputs refused before they are read', () => {
  it('says why a zip bomb is refused as not a chat export: the ratio and the sizes', async () => {
    const dir = tempDir();
    const zip = join(dir, 'bomb.zip');
    const writer = new ZipWriter(zip);
    const zeros = Buffer.alloc(1 << 20);
    await writer.add(
      'conversations.json',
      Array.from({ length: 300 }, () => zeros),
    );
    await writer.close();
    const error = await importExports(new Folder(join(dir, 'data')), [zip]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotAnExportError);
    expect(String(error)).toMatch(
      /"bomb\.zip!conversations\.json" was refused as a zip bomb: it would inflate to 314572800 bytes from \d+ \(\d+:1\), past the limit of 200:1 for entries over 67108864 bytes/,
    );
  }, 60_000);

  it('says with the numbers why a claimed export stopped as a zip bomb', async () => {
    const dir = tempDir();
    const zip = join(dir, 'bomb.zip');
    await bombZip(zip, 300);
    const report = await importExports(new Folder(join(dir, 'data')), [zip]);
    const messages = report.problems.flatMap((p) => p.examples.map((e) => e.message));
    expect(messages.join('\n')).toMatch(
      /inflates more than 200 times its compressed size \(\d+ bytes from \d+, past the 67108864 bytes below which the ratio is not checked; refused as a zip bomb\)/,
    );
  }, 60_000);

  it('refuses a FIFO given as an export in one line, without waiting for a writer', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'conversations.json');
    execFileSync('mkfifo', [fifo]);
    const error = await importExports(new Folder(join(dir, 'data')), [fifo]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotAnExportError);
    expect(String(error)).toMatch(/conversations\.json" is a FIFO \(named pipe\), not a file/);
  }, 10_000);

  it('refuses a character device given as an export', async () => {
    const dir = tempDir();
    const error = await importExports(new Folder(join(dir, 'data')), ['/dev/zero']).catch(
      (e: unknown) => e,
    );
    expect(String(error)).toMatch(/"\/dev\/zero" is a character device, not a file/);
  }, 10_000);
});
