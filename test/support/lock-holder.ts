import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnOwned } from './owned-process.js';
import { ROOT } from './shared.js';

// The compiled folder handle: a holder must be another process, so it cannot import the
// TypeScript source. The path is checked first, so a module that moved fails here by name, not
// as an exit 1.
export const COMPILED_FOLDER = join(ROOT, 'dist', 'folder', 'folder.js');

// A process that takes the data folder's write lock (as an import does), says so, and holds it
// until killed. Owned: it never outlives the test file.
export async function holdWriteLock(dataDir: string): Promise<ChildProcess> {
  if (!existsSync(COMPILED_FOLDER)) {
    throw new Error(`no compiled folder handle at ${COMPILED_FOLDER}: run npm run build`);
  }
  const child = spawnOwned(
    [
      '--input-type=module',
      '-e',
      `import { Folder } from ${JSON.stringify(COMPILED_FOLDER)};
       await new Folder(${JSON.stringify(dataDir)}).write(async () => {
         process.stdout.write('held\\n');
         await new Promise(() => setInterval(() => {}, 1000));
       });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve();
    });
    child.once('exit', (code) => {
      reject(new Error(`the lock holder exited (${String(code)})`));
    });
  });
  return child;
}
