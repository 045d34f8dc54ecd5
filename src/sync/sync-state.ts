import { z } from 'zod';

/*
 * What a data folder's syncs sent and took in (`layout.syncState`, sealed like the folder's
 * other files). Written once per sync, after every import of it committed: a sync killed
 * before repeats its work (an export sent again merges as the same; one imported again is
 * skipped by its export id), never skips any.
 */

const Digests = z.record(z.string(), z.string());

const SyncStateSchema = z.object({
  chatgraph_sync: z.literal(1),
  /** The machine this folder syncs as, and the last export it wrote (0: none). */
  machine: z.string(),
  /** The shared folder (resolved): a folder synced through another DIR starts over there. */
  dir: z.string(),
  seq: z.number().int().min(0),
  /** The full export this machine's increments extend (PAM 16), once one is written. */
  full: z.string().nullable(),
  /** What the folder held at the end of its last sync: a change since is what it sends. */
  known: z.object({
    conversations: Digests,
    memories: Digests,
    relations: Digests,
    deletions: z.array(z.string()),
  }),
  /** The exports of other machines taken in, by machine id: their sequence numbers. */
  seen: z.record(z.string(), z.array(z.number().int())),
});

export type SyncState = z.infer<typeof SyncStateSchema>;

export function emptyState(machine: string, dir: string): SyncState {
  return {
    chatgraph_sync: 1,
    machine,
    dir,
    seq: 0,
    full: null,
    known: { conversations: {}, memories: {}, relations: {}, deletions: [] },
    seen: {},
  };
}

/**
 * The state as read (or a new one for `machine`). A damaged file is an error, not a new state:
 * a new state sends everything again, which is safe but should not pass unnoticed.
 */
export function parseState(
  text: string | undefined,
  file: string,
  at: { machine: string; dir: string },
): SyncState {
  const { machine, dir } = at;
  if (text === undefined) return emptyState(machine, dir);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = SyncStateSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `${file} is not chatgraph's sync state: remove it to send and take in everything again`,
    );
  // Another machine's state (a data folder copied between machines), or another shared folder's:
  // start over (everything sent again, which merges as the same).
  if (parsed.data.machine !== machine || parsed.data.dir !== dir) return emptyState(machine, dir);
  return parsed.data;
}

export function serializeState(state: SyncState): string {
  return `${JSON.stringify(state)}\n`;
}
