const segmenter = new Intl.Segmenter();

/** A text's characters as a person counts them (an emoji with its modifiers is one). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (part) => part.segment);
}
