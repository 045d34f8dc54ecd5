import fc from 'fast-check';

/** Letters and digits, the alphabet of most API keys and tokens. */
export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The base64 alphabet, for key bodies and basic-auth values. */
export const BASE64 = `${ALNUM}+/`;

/** Strings of `min` to `max` characters of the alphabet: the body of a generated secret. */
export function chars(alphabet: string, min: number, max = min): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom(...alphabet.split('')), { minLength: min, maxLength: max })
    .map((a) => a.join(''));
}
