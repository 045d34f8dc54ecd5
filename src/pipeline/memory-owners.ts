import type { BundleWriter } from '../bundle/bundle-writer.js';
import { stableId } from '../model/ids.js';
import type { Memory, Relation } from '../model/pam.js';

/**
 * Where a memory of another owner's store keeps that owner (`metadata`, which PAM leaves open):
 * a memory without it is the bundle owner's.
 */
export const OWNER_KEY = 'pam_owner_id';

/** Whose a memory of the bundle is: the store owner it came from, or the bundle's owner. */
export function ownerOf(memory: Memory, bundleOwner: string | undefined): string | undefined {
  const named = memory.metadata?.[OWNER_KEY];
  return typeof named === 'string' ? named : bundleOwner;
}

// How many other ids are tried for one memory (each a UUID v5: a collision is deliberate).
const TRIES = 16;

/**
 * A memory store's memories and relations as they go into the bundle: those of the bundle's
 * owner as they are (merged by id, PAM 16.3); those of another owner marked with it, and each
 * one whose id a memory of someone else holds given an id of its own (a UUID v5 of the owner
 * and its id, the same on every import), so another owner's memories are added beside the
 * bundle's, never over them. Its relations and `superseded_by` follow the new ids; a relation
 * whose id another relation holds gets its own too. `apart`: how many were given new ids.
 */
export function besideOthers(
  writer: BundleWriter,
  content: { memories: readonly Memory[]; relations: readonly Relation[] },
  owners: { store: string; bundle: string | undefined },
): { memories: Memory[]; relations: Relation[]; apart: number } {
  const { store, bundle } = owners;
  if (bundle === undefined || store === bundle)
    return { memories: [...content.memories], relations: [...content.relations], apart: 0 };
  const ids = new Map<string, string>();
  for (const memory of content.memories) {
    let id = memory.id;
    for (let n = 0; n < TRIES; n++) {
      const there = writer.memory(id);
      if (!there || ownerOf(there, bundle) === store) break;
      id = stableId('memory-kept-apart', store, id);
    }
    if (id !== memory.id) ids.set(memory.id, id);
  }
  const to = (id: string): string => ids.get(id) ?? id;
  const memories = content.memories.map((memory): Memory => {
    const { superseded_by: superseded, ...temporal } = memory.temporal;
    return {
      ...memory,
      id: to(memory.id),
      temporal: {
        ...temporal,
        ...(superseded !== undefined ? { superseded_by: to(superseded) } : {}),
      },
      metadata: { ...memory.metadata, [OWNER_KEY]: store },
    };
  });
  const relations = content.relations.map((relation): Relation => {
    const moved = { ...relation, from: to(relation.from), to: to(relation.to) };
    const there = writer.relation(relation.id);
    const same =
      !there || (there.from === moved.from && there.to === moved.to && there.type === moved.type);
    return same ? moved : { ...moved, id: stableId('relation-kept-apart', store, relation.id) };
  });
  return { memories, relations, apart: ids.size };
}
