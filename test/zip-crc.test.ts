import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

/** Flips a bit of the CRC-32 the central directory records for `name`. */
function damageCrc(zip: string, name: string): void {
  const bytes = readFileSync(zip);
  const record = bytes.indexOf('PK\x01\x02', 0, 'latin1');
  for (let at = record; at !== -1; at = bytes.indexOf('PK\x01\x02', at + 4, 'latin1')) {
    const nameLength = bytes.readUInt16LE(at + 28);
    if (bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8') !== name) continue;
    bytes.writeUInt32LE((bytes.readUInt32LE(at + 16) ^ 1) >>> 0, at + 16);
    writeFileSync(zip, bytes);
    return;
  }
  throw new Error(`${zip} has no entry ${name}`);
}

describe('a zip entry whose bytes do not match its CRC-32', () => {
  const sample = join(ROOT, 'samples', 'chatgpt-export.zip');

  it('is reported by name, and every other entry and conversation goes on', async () => {
    const clean = await convertToTemp([sample]);
    const zip = join(tempDir(), 'chatgpt-export.zip');
    copyFileSync(sample, zip);
    damageCrc(zip, 'conversations.json');
    damageCrc(zip, 'file-nPa7i2LqMcxEirEcZwxKcj-starter-jar.png');
    const { report } = await convertToTemp([zip]);
    const byCode = new Map(report.problems.map((p) => [p.code, p]));
    const crc = byCode.get('zip-crc-mismatch')?.examples ?? [];
    expect(crc.map((d) => [d.level, d.file])).toEqual([
      ['error', 'chatgpt-export.zip!conversations.json'],
    ]);
    expect(crc[0]?.message).toMatch(/"conversations.json" is damaged: its bytes have CRC-32/);
    // The attachment is refused (not copied with damaged bytes); its conversation is kept.
    const unreadable = byCode.get('attachment-unreadable')?.examples ?? [];
    expect(unreadable.map((d) => d.file)).toEqual([
      'chatgpt-export.zip!file-nPa7i2LqMcxEirEcZwxKcj-starter-jar.png',
    ]);
    expect(unreadable[0]?.message).toMatch(/is damaged: its bytes have CRC-32/);
    expect(report.totals.conversations).toBe(clean.report.totals.conversations);
    expect(report.totals.attachmentsCopied).toBe(clean.report.totals.attachmentsCopied - 1);
  });
});
