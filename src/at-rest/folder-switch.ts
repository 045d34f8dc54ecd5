import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../bundle/atomic-write.js';

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

/** Where a switch happens: the folder, its two staging folders, and the plan's name in one. */
export interface SwitchPlaces {
  dir: string;
  staging: { encrypt: string; decrypt: string };
  stagingPlan: string;
}

/** A path the plan names: inside the folder (the plan is read from disk, so checked). */
function inside(base: string, relative: string): string {
  const clean = normalize(relative);
  if (isAbsolute(clean) || clean.startsWith('..') || clean === '.')
    throw new Error(`the encryption plan names ${relative}, outside ${base}`);
  return join(base, clean);
}

/** Writes the plan: from here on the switch is decided, and the next open finishes it. */
export async function commitPlan(
  places: SwitchPlaces,
  stage: string,
  steps: Step[],
): Promise<void> {
  await writeFileAtomic(join(stage, places.stagingPlan), JSON.stringify({ steps }));
}

/** Runs a committed plan's steps, then drops the staging folder. */
export function runPlan(places: SwitchPlaces, stage: string): void {
  const dataDir = places.dir;
  const plan = Plan.parse(JSON.parse(readFileSync(join(stage, places.stagingPlan), 'utf8')));
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
export function recoverLocked(places: SwitchPlaces): void {
  for (const stage of [places.staging.encrypt, places.staging.decrypt]) {
    if (!existsSync(stage)) continue;
    if (existsSync(join(stage, places.stagingPlan))) runPlan(places, stage);
    else rmSync(stage, { recursive: true, force: true });
  }
}
