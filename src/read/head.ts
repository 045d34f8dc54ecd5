import type { Entry } from './entry.js';
import { utf8Chunks } from './utf8-chunks.js';

/** The first bytes of an entry as UTF-8 (fewer when it is shorter), for sniffing its format. */
export async function readHead(entry: Entry, length = 64 * 1024): Promise<Buffer> {
  const stream = await entry.open();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of utf8Chunks(stream as AsyncIterable<Buffer>)) {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= length) break;
    }
  } catch {
    // A file cut short (a zip whose download stopped) gives the bytes it has; the reading pass
    // reports the damage, naming the file and where it stopped.
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, length);
}
