/*
 * A title is one line of plain text: the list and search tables show it in one row. Titles
 * come from exports and from people's first questions, which hold newlines, tabs, and in
 * coding agents' sessions the terminal's ANSI escape codes (colours, cursor moves).
 */

// CSI sequences (`ESC [ … final`), OSC sequences (`ESC ] … BEL|ST`) and two-character escapes.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)|[@-Z\\-_])/g;
// Other control characters (C0 and C1, DEL) and the line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/** The text as one line: escape codes out, every run of spaces and line breaks one space. */
export function oneLine(text: string): string {
  return text.replace(ANSI, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * A title from a text: one line, cut at a word boundary with "…" when longer than `max`
 * characters (the result is at most `max` long); null when nothing is left.
 */
export function oneLineTitle(text: string, max = 100): string | null {
  const line = oneLine(text);
  if (line === '') return null;
  if (line.length <= max) return line;
  const room = line.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  // A first word longer than the room is cut where the room ends.
  const cut = space > max / 3 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:.-]+$/, '')}…`;
}
