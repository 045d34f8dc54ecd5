/**
 * Texts that mean nothing, the same on every run: one to three "words" of three to nine letters
 * drawn at random (a fixed linear congruential sequence). A model's vectors of them give each
 * query its noise level (`search/meaning-cutoff.ts`): how close the query comes to nonsense.
 */
export function noiseTexts(count = 40): string[] {
  let seed = 7;
  const next = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = (): string =>
    Array.from(
      { length: 3 + Math.floor(next() * 7) },
      () => letters[Math.floor(next() * 26)] ?? 'a',
    ).join('');
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, word).join(' '),
  );
}
