import type { ChildProcess } from 'node:child_process';
import { spawnOwned } from './owned-process.js';
import { CLI } from './run-cli.js';

/**
 * Starts the built CLI's `serve` on a free port over a data folder; resolves with its address.
 * The process is the test file's own (see {@link spawnOwned}), and killed if it never says where.
 */
export async function startServe(
  data: string,
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly string[] = [],
): Promise<{ server: ChildProcess; base: string }> {
  const server = spawnOwned([CLI, 'serve', '--data-dir', data, '--port', '0', ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      server.kill('SIGKILL');
      reject(new Error(`chatgraph serve did not start within 60 s: ${out}`));
    }, 60_000);
    server.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /web app at (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ''));
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`chatgraph serve exited with ${String(code)}`));
    });
  });
  return { server, base };
}
