// PAM's memory types, declared once: the model's `MemoryType`, the bundle's and the web API's
// schemas and the page's choices come from this list. It imports nothing, so the page's own
// compilation reads it for its type (a wire shape: see .dependency-cruiser.cjs).

/** Every PAM memory type, in the spec's order (for enums in the shells). */
export const MEMORY_TYPES = [
  'fact',
  'preference',
  'skill',
  'context',
  'relationship',
  'goal',
  'instruction',
  'identity',
  'environment',
  'project',
  'custom',
] as const;

/** A PAM memory type. */
export type MemoryType = (typeof MEMORY_TYPES)[number];
