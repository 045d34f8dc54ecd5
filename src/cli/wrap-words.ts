/**
 * `text` cut into lines of at most `columns` characters at its spaces, the lines after the first
 * starting with `indent`. A word longer than a line (a path, a wheel's file name) is cut after a
 * `/`, `_` or `-` where it can, else where the line ends: nothing is ever wider than `width`.
 */
export function wrapWords(text: string, columns: number, indent = ''): string[] {
  // A line always has room for a piece of a word after its indent.
  const width = Math.max(columns, indent.length + 8);
  const lines: string[] = [];
  // The text's own indent stays on its first line.
  let line = /^ */.exec(text)?.[0] ?? '';
  const room = (): number => width - line.length - (line.trim() === '' ? 0 : 1);
  for (const word of text.split(/ +/).filter((w) => w !== '')) {
    let rest = word;
    while (rest.length > room()) {
      const fits = room();
      // A long word starts a line of its own; one that fits a fresh line moves to it.
      if (line.trim() !== '' && (rest.length <= width - indent.length || fits < 8)) {
        lines.push(line);
        line = indent;
        continue;
      }
      const head = rest.slice(0, fits);
      const at = Math.max(head.lastIndexOf('/'), head.lastIndexOf('_'), head.lastIndexOf('-'));
      const cut = at > fits / 2 ? at + 1 : fits;
      lines.push(`${line}${line.trim() === '' ? '' : ' '}${rest.slice(0, cut)}`);
      line = indent;
      rest = rest.slice(cut);
    }
    line = line.trim() === '' ? `${line}${rest}` : `${line} ${rest}`;
  }
  if (line.trim() !== '' || lines.length === 0) lines.push(line);
  return lines;
}
