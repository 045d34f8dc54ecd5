/**
 * `text` cut into lines of at most `columns` characters at its spaces, the lines after the first
 * starting with `indent`. A word longer than a line (a path, a wheel's file name) is cut after a
 * `/`, `_` or `-` where it can, else where the line ends: nothing is ever wider than `width`.
 * The spaces between two words on one line are kept as they were (two between the fields of a
 * search hit stay two); those where a line breaks go.
 */
export function wrapWords(text: string, columns: number, indent = ''): string[] {
  // A line always has room for a piece of a word after its indent.
  const width = Math.max(columns, indent.length + 8);
  const lines: string[] = [];
  // The text's own indent stays on its first line.
  let line = /^ */.exec(text)?.[0] ?? '';
  const empty = (): boolean => line.trim() === '';
  for (const [, spaces = '', word = ''] of text.slice(line.length).matchAll(/( *)([^ ]+)/g)) {
    const gap = (): string => (empty() ? '' : spaces);
    let rest = word;
    while (rest.length > width - line.length - gap().length) {
      const fits = width - line.length - gap().length;
      // A long word starts a line of its own; one that fits a fresh line moves to it.
      if (!empty() && (rest.length <= width - indent.length || fits < 8)) {
        lines.push(line);
        line = indent;
        continue;
      }
      const head = rest.slice(0, fits);
      const at = Math.max(head.lastIndexOf('/'), head.lastIndexOf('_'), head.lastIndexOf('-'));
      const cut = at > fits / 2 ? at + 1 : fits;
      lines.push(`${line}${gap()}${rest.slice(0, cut)}`);
      line = indent;
      rest = rest.slice(cut);
    }
    line = `${line}${gap()}${rest}`;
  }
  if (!empty() || lines.length === 0) lines.push(line);
  return lines;
}
