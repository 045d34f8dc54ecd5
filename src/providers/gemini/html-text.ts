import { Parser } from 'htmlparser2';

/** Elements whose end is a line break in the text. */
const BLOCKS = new Set([
  'p',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'ul',
  'ol',
  'pre',
  'tr',
  'table',
  'blockquote',
]);
const HIDDEN = new Set(['script', 'style']);

/**
 * Plain text from the small HTML Gemini responses carry (`safeHtmlItem`): blocks become lines.
 * htmlparser2 tokenizes without recursion and decodes entities; one that names no character
 * (`&#99999999;`) becomes U+FFFD instead of throwing, so a hostile response costs nothing else.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++;
        else if (name === 'br') out.push('\n');
        else if (name === 'li') out.push('\n- ');
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCKS.has(name)) out.push('\n');
      },
      ontext(text) {
        if (hidden === 0) out.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return out
    .join('')
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
