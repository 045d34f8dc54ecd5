import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { provisioned } from './provisioned.js';

// The official Python SDK's validator (`pip install 'portable-ai-memory[cli]==1.0.0'`), in the
// venv `npm run provision` makes. It re-serialises memories with Pydantic before checking the
// integrity checksum and checks every index entry's times, which our Ajv check does not.
const PAM = provisioned('.venv-pam', 'bin', 'pam');

/** Runs `pam validate` on a bundle folder or file: its exit status and everything it printed. */
export function pamValidate(path: string): { status: number | null; output: string } {
  const run = spawnSync(PAM, ['validate', path], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', COLUMNS: '200' },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// The same `pam validate` command (the SDK's Typer app, as its `pam` script runs it) called
// once per path read on stdin, in one Python process: its answer is a JSON line of the exit
// status and everything the command printed. Starting Python and importing the SDK (Pydantic,
// Typer, Rich) costs ~0.4 s of CPU and ~1 s of wall time per `pam` run on this machine.
const VALIDATE_LINES = `
import contextlib, io, json, sys, traceback
from portable_ai_memory.cli.main import app
for line in sys.stdin:
    output = io.StringIO()
    status = 0
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            app(['validate', line.rstrip('\\n')], prog_name='pam')
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
        except Exception:
            traceback.print_exc()
            status = 1
    sys.stdout.write(json.dumps({'status': status, 'output': output.getvalue()}) + '\\n')
    sys.stdout.flush()
`;

const ANSWER = z.object({ status: z.number().nullable(), output: z.string() });

/** `pam validate` for many bundles, one at a time, from one Python process. */
export interface PamValidator {
  validate(path: string): Promise<{ status: number | null; output: string }>;
  close(): void;
}

/** Starts a {@link PamValidator}; for a file that validates many bundles. */
export function startPamValidator(): PamValidator {
  const python = provisioned('.venv-pam', 'bin', 'python');
  const child = spawn(python, ['-c', VALIDATE_LINES], {
    env: { ...process.env, NO_COLOR: '1', COLUMNS: '200' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  let gone: string | undefined;
  child.once('exit', (code) => {
    gone = `the pam validator's Python exited (${String(code)})`;
    for (const answer of waiting.splice(0)) answer(JSON.stringify({ status: null, output: gone }));
  });
  return {
    validate(path) {
      if (path.includes('\n')) throw new Error(`a path with a line break: ${path}`);
      if (gone !== undefined) return Promise.resolve({ status: null, output: gone });
      return new Promise((resolve) => {
        waiting.push((line) => {
          resolve(ANSWER.parse(JSON.parse(line)));
        });
        child.stdin.write(`${path}\n`);
      });
    },
    close() {
      child.stdin.end();
    },
  };
}

/** Runs the official `pam convert` on a provider export, writing a PAM bundle into `out`. */
export function pamConvert(source: string, out: string): void {
  const run = spawnSync(PAM, ['convert', source, '--output', out], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', COLUMNS: '200' },
  });
  if (run.status !== 0)
    throw new Error(
      `pam convert ${source} failed (${String(run.status)}): ${run.stdout}${run.stderr}`,
    );
}
