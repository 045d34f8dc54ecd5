/** Decompressed-to-compressed ratio past which an entry is taken for a zip bomb. */
export const MAX_INFLATE_RATIO = 200;
/** Entries smaller than this never trip the ratio check (tiny files compress absurdly well). */
export const RATIO_FLOOR_BYTES = 64 * 1024 * 1024;

/** Sizes a zip member declares in its directory. */
export interface DeclaredSizes {
  readonly size: number | undefined;
  readonly compressedSize?: number;
}

/**
 * Why a zip member's declared sizes already exceed the bomb limits (with the numbers), or
 * undefined when they do not or are not recorded.
 */
export function declaredBomb(entry: DeclaredSizes): string | undefined {
  const { size, compressedSize } = entry;
  if (size === undefined || compressedSize === undefined || size <= RATIO_FLOOR_BYTES)
    return undefined;
  if (size <= MAX_INFLATE_RATIO * Math.max(1, compressedSize)) return undefined;
  const ratio = Math.round(size / Math.max(1, compressedSize));
  return `it would inflate to ${size} bytes from ${compressedSize} (${ratio}:1), past the limit of ${MAX_INFLATE_RATIO}:1 for entries over ${RATIO_FLOOR_BYTES} bytes`;
}
