import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { encryptFolder } from '../src/folder/encrypt-folder.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { startServe } from './support/serve-cli.js';
import { Folder } from '../src/folder/folder.js';

// Issue 41, point 9: a server over an encrypted folder runs searches and Cypher queries in
// child processes; neither the passphrase nor the key derived from it is in their
// environment (read from /proc/<pid>/environ, as anyone with the same uid could): the key
// comes over a pipe.

const PASSPHRASE = 'children passphrase 9f3e';

/** The processes whose parent is `pid`, and theirs, by reading /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The parent's pid is the fourth field, after the command in parentheses.
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(name), Number(after[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const walk = (parent: number): void => {
    for (const [child, of] of parentOf)
      if (of === parent) {
        found.push(child);
        walk(child);
      }
  };
  walk(pid);
  return found;
}

function environ(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return [];
  }
}

describe('search and query children of an encrypted folder (issue 41, point 9)', () => {
  it('inherit neither the passphrase nor the derived key', async () => {
    const dir = tempDir();
    const input = join(dir, 'conversations.json');
    writeFileSync(input, JSON.stringify([branchedConversation('c-1', 'Quokka plans')]));
    const data = join(dir, 'data');
    await importExports(new Folder(data), [input]);
    await encryptFolder(new Folder(data), { passphrase: PASSPHRASE });
    const { server, base } = await startServe(data, {
      ...process.env,
      CHATGRAPH_PASSPHRASE: PASSPHRASE,
    });
    try {
      const search = await fetch(`${base}/api/search?mode=keyword&q=hello`);
      expect(search.status).toBe(200);
      const query = await fetch(`${base}/api/cypher`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'MATCH (c:Conversation) RETURN c.title AS title' }),
      });
      expect(query.status, await query.clone().text()).toBe(200);
      expect(await query.text()).toContain('Quokka plans');
      // The children stay warm for the next request: each is alive to be read now.
      const children = descendants(server.pid ?? 0);
      const environments = children.map(environ).filter((e) => e.length > 1);
      expect(environments.length).toBeGreaterThanOrEqual(2);
      for (const env of environments) {
        expect(env.filter((v) => v.includes(PASSPHRASE))).toEqual([]);
        expect(env.filter((v) => /^CHATGRAPH_(PASSPHRASE|CHILD_SQLITE_KEY)=/.test(v))).toEqual([]);
        expect(env.filter((v) => /=[0-9a-f]{64}$/.test(v))).toEqual([]);
      }
    } finally {
      server.kill('SIGKILL');
    }
  }, 180_000);
});
