/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/**
 * The candidate closest to what was typed, when it is close enough to be a typo (a third of its
 * length at most, or a prefix of it); undefined otherwise.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const d = distance(word, candidate.toLowerCase());
    if (best === undefined || d < best.distance) best = { candidate, distance: d };
  }
  if (best === undefined) return undefined;
  const bare = word.replace(/^-+/, '');
  if (best.distance <= Math.max(1, Math.floor(bare.length / 3))) return best.candidate;
  const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(word));
  return bare.length >= 2 && prefixed.length === 1 ? prefixed[0] : undefined;
}
