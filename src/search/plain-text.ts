/** A run of characters with no space longer than this (base64, a hash, minified code) is cut. */
export const RUN_MAX_CHARS = 48;

/** How much of a cut run is kept, before its `…`. */
const RUN_KEPT_CHARS = 32;

// Where a cut run ends: never in the middle of a surrogate pair.
function keptEnd(run: string): number {
  const code = run.charCodeAt(RUN_KEPT_CHARS - 1);
  return code >= 0xd800 && code <= 0xdbff ? RUN_KEPT_CHARS - 1 : RUN_KEPT_CHARS;
}

// One LaTeX formula's text as a person reads it: \frac{a}{b} → a/b, \alpha → alpha, braces,
// sub- and superscript signs dropped.
function mathText(formula: string): string {
  return formula
    .replace(/\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, '$1/$2')
    .replace(/\\(?:text|mathrm|mathbf|mathit|operatorname)\s*\{([^{}]*)\}/g, '$1')
    .replace(/\\([a-zA-Z]+)/g, '$1')
    .replace(/\\[,;:!]/g, ' ')
    .replace(/\\\\/g, ' ')
    .replace(/[{}^_]/g, ' ');
}

/**
 * Chat text as plain text to read in a snippet: Markdown (emphasis, headers, code fences and
 * spans, links and images as their text, quotes, table rules) and LaTeX (`$…$`, `$$…$$`, `\(…\)`,
 * `\[…\]`) markup taken out, runs of spaces made one, and unbroken runs longer than
 * {@link RUN_MAX_CHARS} cut with `…`.
 */
export function plainText(text: string): string {
  return (
    text
      // Display and inline math: `$` opens before a non-space and closes after one, not before a
      // digit, so "$5 and $10" stays money.
      .replace(/\$\$([^$]{1,2000})\$\$/g, (_, f: string) => ` ${mathText(f)} `)
      .replace(/\\\[([\s\S]{1,500}?)\\\]/g, (_, f: string) => ` ${mathText(f)} `)
      .replace(/\\\(([\s\S]{1,500}?)\\\)/g, (_, f: string) => mathText(f))
      .replace(/\$(?=\S)([^$\n]{1,500}?)(?<=\S)\$(?!\d)/g, (_, f: string) => mathText(f))
      // Code fences (the code kept), rules and table separator rows.
      .replace(/^[ \t]*(?:```|~~~)[^\n]*$/gm, ' ')
      .replace(/^[ \t]*(?:[-*_][ \t]*){3,}$/gm, ' ')
      .replace(/^[ \t]*\|?(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*(?::?-{2,}:?)?[ \t]*$/gm, ' ')
      // Images and links as their text; autolinks as their address.
      .replace(/!\[([^\]\n]{0,200})\]\([^)\n]{0,2000}\)/g, '$1')
      .replace(/\[([^\]\n]{0,200})\]\([^)\n]{0,2000}\)/g, '$1')
      .replace(/\[([^\]\n]{1,200})\]\[[^\]\n]{0,200}\]/g, '$1')
      .replace(/<((?:https?|mailto):[^>\s]{1,2000})>/g, '$1')
      // List bullets, table cell bars, then emphasis and code signs.
      .replace(/^[ \t]*[*+-][ \t]+/gm, '')
      .replace(/[ \t]*\|[ \t]*/g, ' ')
      .replace(/\*+|~~+|`+/g, '')
      .replace(/(^|[^\p{L}\p{N}_])_+(?=\S)|(?<=\S)_+(?![\p{L}\p{N}_])/gu, '$1')
      // Headers and quotes last: taking signs out can leave one at a line's start.
      .replace(/^(?:[ \t]*(?:#{1,6}[ \t]|>))+/gm, '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(
        new RegExp(`\\S{${String(RUN_MAX_CHARS + 1)},}`, 'g'),
        (run) => `${run.slice(0, keptEnd(run))}…`,
      )
  );
}
