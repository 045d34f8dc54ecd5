/**
 * A whole number with commas between thousands, as `toLocaleString('en-US')` writes it, without
 * ICU: the first `toLocaleString` of a process loads its number formatting (20–28 ms here, a
 * tenth of a cold keyword search, issue 46). Other numbers go to `toLocaleString`.
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/** A count with its noun, singular for one: `1 conversation`, `2 conversations`, `3 text chunks`. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${thousands(count)} ${count === 1 ? noun : nouns}`;
}
