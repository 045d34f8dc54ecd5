import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../bundle/atomic-write.js';
import { STAGING } from '../bundle/encryption-markers.js';

/**
 * How `encrypt` and `decrypt` change a folder so that a kill -9 at any moment loses nothing:
 * the new form is written whole into a staging folder beside the old; then a plan (its last
 * file, written atomically) lists the steps that swap it in; then the steps run. A staging
 * folder without a plan is an unfinished new form, dropped; one with a plan is finished on the
 * next open, every step safe to run twice (a move whose file has moved already is skipped).
 */

/** Moves a staged file into place (replacing what is there), or removes a file of the old form. */
const Step = z.union([
  z.object({ move: z.string(), to: z.string() }),
  z.object({ remove: z.string() }),
]);
export type Step = z.infer<typeof Step>;

const Plan = z.object({ steps: z.array(Step) });

const PLAN_FILE = 'plan.json';

/** A path the plan names: inside the folder (the plan is read from disk, so checked). */
function inside(base: string, relative: string): string {
  const clean = normalize(relative);
  if (isAbsolute(clean) || clean.startsWith('..') || clean === '.')
    throw new Error(`the encryption plan names ${relative}, outside ${base}`);
  return join(base, clean);
}

/** Writes the plan: from here on the switch is decided, and the next open finishes it. */
export async function commitPlan(stage: string, steps: Step[]): Promise<void> {
  await writeFileAtomic(join(stage, PLAN_FILE), JSON.stringify({ steps }));
}

/** Runs a committed plan's steps, then drops the staging folder. */
export function runPlan(dataDir: string, stage: string): void {
  const plan = Plan.parse(JSON.parse(readFileSync(join(stage, PLAN_FILE), 'utf8')));
  for (const step of plan.steps) {
    if ('move' in step) {
      const from = inside(stage, step.move);
      if (!existsSync(from)) continue;
      const to = inside(dataDir, step.to);
      mkdirSync(dirname(to), { recursive: true });
      renameSync(from, to);
    } else rmSync(inside(dataDir, step.remove), { force: true });
  }
  rmSync(stage, { recursive: true, force: true });
}

/** Finishes (plan written) or drops (no plan yet) what a killed `encrypt` or `decrypt` left. Holds the write lock. */
export function recoverLocked(dataDir: string): void {
  for (const name of Object.values(STAGING)) {
    const stage = join(dataDir, name);
    if (!existsSync(stage)) continue;
    if (existsSync(join(stage, PLAN_FILE))) runPlan(dataDir, stage);
    else rmSync(stage, { recursive: true, force: true });
  }
}
