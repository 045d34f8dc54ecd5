import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { ROOT } from './shared.js';

/** An agent process holding its SQLite store open (see sqlite-writer.mjs). */
export interface StoreWriter {
  /** Runs SQL in the writer; resolves once it has run. */
  exec(sql: string): Promise<void>;
  /** Ends the writer without closing its store (as a killed agent leaves it). */
  kill(): Promise<void>;
}

/** Starts a writer on a store, in WAL mode (nothing checkpointed) or rollback-journal mode. */
export async function startStoreWriter(
  path: string,
  mode: 'wal' | 'rollback',
): Promise<StoreWriter> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [join(ROOT, 'test', 'support', 'sqlite-writer.mjs'), path, mode],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done === true) throw new Error('the store writer ended');
    return line.value;
  };
  const first = await next();
  if (first !== 'ready') throw new Error(`the store writer said ${first}`);
  return {
    async exec(sql) {
      child.stdin.write(`${JSON.stringify(sql)}\n`);
      const answer = await next();
      if (answer !== 'ok') throw new Error(`the store writer: ${answer}`);
    },
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => {
          resolve();
        });
        child.kill('SIGKILL');
      }),
  };
}
