import { spawnSync } from 'node:child_process';
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
