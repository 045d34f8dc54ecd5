import { Parser } from 'htmlparser2';
import { htmlToText } from './html-text.js';

/** One activity of a Takeout "My Activity" HTML page, as the JSON variant has it. */
export interface HtmlActivity {
  header: string;
  title: string;
  time: string | undefined;
  safeHtmlItem: { html: string }[];
}

const VOID = new Set(['br', 'img', 'hr', 'input', 'meta', 'link', 'wbr', 'area', 'col', 'source']);

interface Cell {
  header: string[] | undefined;
  /** The first content-cell's markup, cut at each `<br>`. */
  segments: string[][];
  /** Open `div`s inside the content-cell (0: it has ended or not begun). */
  depth: number;
  contentSeen: boolean;
}

const escapeText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const classesOf = (attributes: Record<string, string>): string[] =>
  (attributes.class ?? '').split(/\s+/);

/**
 * Reads the HTML variant of Takeout's activity page: each activity is an `outer-cell` whose first
 * `content-cell` holds "<verb> <prompt>", a `<br>`, the date, then the response's HTML. Localized
 * dates that `Date` cannot read leave the time unset (the import then infers it). htmlparser2
 * reads the page as a stream of tags (no recursion, entities decoded), so no nesting or entity
 * can stop it.
 */
export function parseActivityHtml(html: string): HtmlActivity[] {
  const cells: Cell[] = [];
  let cell: Cell | undefined;
  let inTitle = false;
  const emit = (markup: string): void => {
    if (cell && cell.depth > 0) cell.segments.at(-1)?.push(markup);
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const classes = classesOf(attributes);
        if (name === 'div' && classes.includes('outer-cell')) {
          cell = { header: undefined, segments: [], depth: 0, contentSeen: false };
          cells.push(cell);
          return;
        }
        if (!cell) return;
        if (name === 'p' && classes.includes('mdl-typography--title') && cell.depth === 0) {
          inTitle = true;
          cell.header = [];
          return;
        }
        if (name === 'div' && cell.depth > 0) cell.depth++;
        else if (name === 'div' && !cell.contentSeen && classes.includes('content-cell')) {
          cell.contentSeen = true;
          cell.depth = 1;
          cell.segments.push([]);
          return;
        }
        if (name === 'br' && cell.depth > 0) cell.segments.push([]);
        else emit(`<${name}>`);
      },
      onclosetag(name) {
        if (!cell) return;
        if (name === 'p' && inTitle) {
          inTitle = false;
          return;
        }
        if (name === 'div' && cell.depth > 0 && --cell.depth === 0) return;
        if (!VOID.has(name)) emit(`</${name}>`);
      },
      ontext(text) {
        if (inTitle) cell?.header?.push(text);
        else emit(escapeText(text));
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return cells.flatMap((c) => (c.contentSeen ? [toActivity(c)] : []));
}

function toActivity(cell: Cell): HtmlActivity {
  const [titlePart = '', datePart = '', ...rest] = cell.segments.map((s) => s.join(''));
  // "Apr 3, 2025, 10:15:00 AM UTC": UTC/GMT are read as such; other zone names are dropped
  // and the time read as the machine's local time (Date cannot resolve abbreviations).
  const date = htmlToText(datePart)
    .replace(/\u202f/g, ' ')
    .replace(/\s+(UTC|GMT)$/, ' GMT')
    .replace(/\s+(?!GMT$)[A-Z]{2,5}$/, '');
  const parsed = Date.parse(date);
  const header = cell.header ? cell.header.join('').trim() : 'Gemini Apps';
  return {
    header: header.replace(/\u00a0/g, ' '),
    title: htmlToText(titlePart),
    time: Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString(),
    safeHtmlItem: rest.length > 0 ? [{ html: rest.join('<br>') }] : [],
  };
}
