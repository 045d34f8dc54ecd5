import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './run-cli.js';

/** Starts the built CLI's `serve` on a free port over a data folder; resolves with its address. */
export async function startServe(
  data: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ server: ChildProcess; base: string }> {
  const server = spawn('node', [CLI, 'serve', '--data-dir', data, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /web app at (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1].replace(/\/$/, ''));
    });
    server.once('exit', (code) => {
      reject(new Error(`chatgraph serve exited with ${String(code)}`));
    });
  });
  return { server, base };
}
