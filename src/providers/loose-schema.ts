import { z } from 'zod';

/*
 * Pieces of zod schemas for coding agents' logs, which change with every release: a field of
 * the wrong type (a future version's, a damaged line's) reads as absent rather than failing the
 * whole record, and fields a schema does not name pass through, to be kept in `raw_metadata`.
 */

/** A string, or undefined when the field is absent or not a string. */
export const looseText = z.string().optional().catch(undefined);

/** A finite number, or undefined. */
export const looseNumber = z.number().finite().optional().catch(undefined);

/** A boolean, or undefined. */
export const looseFlag = z.boolean().optional().catch(undefined);

/** A JSON object (kept as it is), or undefined. */
export const looseObject = z.record(z.unknown()).optional().catch(undefined);

/** An array of anything, or undefined. */
export const looseList = z.array(z.unknown()).optional().catch(undefined);

/** An array whose items that do not parse as `item` are left out (counted by the caller). */
export function looseArray<T extends z.ZodTypeAny>(item: T) {
  return z
    .array(z.unknown())
    .optional()
    .catch(undefined)
    .transform((list) =>
      (list ?? []).flatMap((value) => {
        const parsed = item.safeParse(value);
        return parsed.success ? [parsed.data as z.infer<T>] : [];
      }),
    );
}

/** An object schema that lets every field it does not name through. */
export function looseRecord<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape).passthrough();
}
