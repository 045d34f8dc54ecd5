// Made at the first use: `new Intl.Segmenter()` loads ICU's break rules, 60 ms of every cold
// command (issue 46) when made at import, though only a table or a long line needs it.
let segmenter: Intl.Segmenter | undefined;

/** A text's characters as a person counts them (an emoji with its modifiers is one). */
export function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter();
  return Array.from(segmenter.segment(text), (part) => part.segment);
}
