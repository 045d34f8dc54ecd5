/**
 * File names an export writes: valid on Windows, macOS and Linux, and the same on every run for
 * the same conversation (its title and the start of its id), so a second export finds its files.
 */

// Windows refuses these names with any extension (CON.md is CON), whatever the case.
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

// Characters Windows refuses, path separators, and control characters (NUL-31, DEL).
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;

/** The longest stem, in UTF-8 bytes: room for " (id).md" and a ".files" folder under 255. */
const MAX_STEM_BYTES = 150;

function cutToBytes(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/**
 * A name part made safe: forbidden characters become spaces, runs of spaces one, no leading or
 * trailing dots and spaces (Windows drops trailing ones, a leading dot hides the file), cut to
 * a length every file system takes, a reserved device name suffixed, `fallback` when nothing is
 * left.
 */
export function safeName(text: string, fallback: string, maxBytes = MAX_STEM_BYTES): string {
  const flat = text.normalize('NFC').replace(FORBIDDEN, ' ').replace(/\s+/g, ' ');
  let name = cutToBytes(flat.replace(/^[\s.]+/, ''), maxBytes).replace(/[\s.]+$/, '');
  if (name === '') name = fallback;
  // Windows reads a name up to its first dot, trailing spaces dropped (`nul.txt`, `aux .txt`
  // are NUL and AUX): the mark goes right after the device's name, before any dot.
  const head = (name.split('.')[0] ?? name).trimEnd();
  if (RESERVED.test(head)) name = `${head}_${name.slice(head.length)}`;
  return name;
}

/** The stem of a conversation's files: its title and the first 8 characters of its id. */
export function conversationStem(title: string, id: string, idLength = 8): string {
  const short = safeName(id.slice(0, idLength), 'conversation', 40);
  // [ ] # ^ break an Obsidian wikilink to the note; they go too, in every format, for one name.
  return `${safeName(title.replace(/[[\]#^]/g, ' '), 'Untitled')} (${short})`;
}

/**
 * Whether a path stays inside the folder it is relative to: every part a name, none `.` or
 * `..`, no separator of another system. What a manifest's paths are checked for: a name this
 * version would not write (one an older version wrote, say) is still a file of the folder.
 */
export function isInsidePath(path: string): boolean {
  return (
    !path.includes('\\') &&
    !path.includes('\0') &&
    path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

/** Whether a path's every part is a name all three systems accept (what the tests check). */
export function isPortablePath(path: string): boolean {
  return path.split('/').every((part) => {
    if (part === '' || part === '.' || part === '..') return false;
    if (new RegExp(FORBIDDEN.source).test(part)) return false;
    if (/[\s.]$/.test(part)) return false;
    if (RESERVED.test((part.split('.')[0] ?? part).replace(/[\s.]+$/, ''))) return false;
    return Buffer.byteLength(part, 'utf8') <= 255;
  });
}

/**
 * The path of each conversation's files (without extension), by id: `place` of its stem, and
 * when two would meet (the same title and id start, or names that differ only in case, one file
 * on Windows and macOS) the later ones take more of their id, so none overwrites another.
 */
export function uniquePaths(
  conversations: readonly { id: string; title: string }[],
  place: (stem: string, index: number) => string,
): Map<string, string> {
  const taken = new Set<string>();
  const paths = new Map<string, string>();
  for (const [index, c] of conversations.entries()) {
    let length = 8;
    let path = place(conversationStem(c.title, c.id, length), index);
    while (taken.has(path.toLowerCase()) && length < c.id.length) {
      length += 4;
      path = place(conversationStem(c.title, c.id, length), index);
    }
    taken.add(path.toLowerCase());
    paths.set(c.id, path);
  }
  return paths;
}
