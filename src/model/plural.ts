/** A count with its noun, singular for one: `1 conversation`, `2 conversations`, `3 text chunks`. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;
}
