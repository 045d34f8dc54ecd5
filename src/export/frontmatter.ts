import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let yaml: Yaml | undefined;

// The YAML library (83 files) is loaded on the first note written, not with every command that
// shows a conversation: `frontmatter` is synchronous, so it is required (yaml ships CommonJS).
function stringify(value: unknown): string {
  yaml ??= createRequire(import.meta.url)('yaml') as Yaml;
  return yaml.stringify(value, { lineWidth: 0 });
}

/**
 * A note's YAML frontmatter, written by a YAML library so that any title, tag or URL (quotes,
 * colons, `#`, newlines) comes back as it was when a parser reads it.
 */
export function frontmatter(fields: Record<string, unknown>): string {
  const kept = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return `---\n${stringify(kept)}---\n`;
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
