/** Decompressed-to-compressed ratio past which an entry is taken for a zip bomb. */
export const MAX_INFLATE_RATIO = 200;
/** Entries smaller than this never trip the ratio check (tiny files compress absurdly well). */
export const RATIO_FLOOR_BYTES = 64 * 1024 * 1024;
