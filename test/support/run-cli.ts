import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './shared.js';

const run = promisify(execFile);

/** The built CLI. */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/** Runs the built CLI; its exit code and output, whether it succeeded or not. */
export function chatgraph(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return chatgraphWith({}, ...args);
}

/** Runs the built CLI with these variables added to the environment. */
export async function chatgraphWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
