import { htmlToText } from './html-text.js';

/** One activity of a Takeout "My Activity" HTML page, as the JSON variant has it. */
export interface HtmlActivity {
  header: string;
  title: string;
  time: string | undefined;
  safeHtmlItem: { html: string }[];
}

/**
 * Reads the HTML variant of Takeout's activity page: each activity is an `outer-cell` whose first
 * `content-cell` holds "<verb> <prompt>", a `<br>`, the date, then the response's HTML. Localized
 * dates that `Date` cannot read leave the time unset (the import then infers it).
 */
export function parseActivityHtml(html: string): HtmlActivity[] {
  const cells = html.split(/<div class="outer-cell[^"]*"[^>]*>/i).slice(1);
  return cells.flatMap((cell) => {
    const header = htmlToText(
      /<p class="mdl-typography--title"[^>]*>([\s\S]*?)<\/p>/i.exec(cell)?.[1] ?? 'Gemini Apps',
    );
    const content = /<div class="content-cell[^"]*"[^>]*>([\s\S]*?)<\/div>/i.exec(cell)?.[1];
    if (content === undefined) return [];
    const [titlePart = '', datePart = '', ...rest] = content.split(/<br\s*\/?>/i);
    // "Apr 3, 2025, 10:15:00 AM UTC": UTC/GMT are read as such; other zone names are dropped
    // and the time read as the machine's local time (Date cannot resolve abbreviations).
    const date = htmlToText(datePart)
      .replace(/\u202f/g, ' ')
      .replace(/\s+(UTC|GMT)$/, ' GMT')
      .replace(/\s+(?!GMT$)[A-Z]{2,5}$/, '');
    const parsed = Date.parse(date);
    return [
      {
        header,
        title: htmlToText(titlePart),
        time: Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString(),
        safeHtmlItem: rest.length > 0 ? [{ html: rest.join('<br>') }] : [],
      },
    ];
  });
}
