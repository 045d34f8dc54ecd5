import { stringify } from 'yaml';

/**
 * A note's YAML frontmatter, written by a YAML library so that any title, tag or URL (quotes,
 * colons, `#`, newlines) comes back as it was when a parser reads it.
 */
export function frontmatter(fields: Record<string, unknown>): string {
  const kept = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return `---\n${stringify(kept, { lineWidth: 0 })}---\n`;
}

/** A tag Obsidian accepts: letters, digits, `_`, `-` and `/`, not only digits. */
export function obsidianTag(tag: string): string | undefined {
  const cleaned = tag
    .normalize('NFC')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^\p{L}\p{N}_\-/]/gu, '');
  if (cleaned === '' || /^[0-9/]+$/.test(cleaned)) return undefined;
  return cleaned;
}
