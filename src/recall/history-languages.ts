import type { EmbeddingText, VectorIndex } from '../stores/vector-index.js';

/** The languages of a history, from a sample of its messages. */
export interface HistoryLanguages {
  /** Messages looked at, and those whose language was told (code, links and "ok" are not). */
  sampled: number;
  detected: number;
  /** Language (ISO 639-1) -> its share of the detected messages, largest first. */
  shares: Record<string, number>;
  /** The share of detected messages that are not in English (0 when none was detected). */
  notEnglish: number;
}

/** How many texts a sample reads at most: about 0.6 s of detection on one core. */
export const SAMPLE_TEXTS = 2000;

/** Texts read per conversation, so that a few long conversations do not fill the sample. */
const TEXTS_PER_CONVERSATION = 12;

/** Below this many letters a message says too little to tell its language ("ok", "merci"). */
const MIN_LETTERS = 12;

/** Parts of a chat message that are in no human language: code, links, paths, numbers. */
const NOT_PROSE = [
  /```[\s\S]*?(```|$)/g,
  /`[^`\n]*`/g,
  /\bhttps?:\/\/\S+/g,
  /\S*[/\\]\S*/g,
  /\S*\d\S*/g,
] as const;

/** The prose of a message: what is left once code, links, paths and numbers are taken out. */
export function proseOf(text: string): string {
  let prose = text.slice(0, 2000);
  for (const pattern of NOT_PROSE) prose = prose.replace(pattern, ' ');
  return prose.replace(/\s+/g, ' ').trim();
}

/** tinyld's detect: a language code, or '' when it cannot tell. */
type Detect = (text: string) => string;

let loaded: Detect | undefined;

/** tinyld, loaded when a history's languages are first asked for (0.25 s), not with chatgraph. */
async function detector(): Promise<Detect> {
  loaded ??= (await import('tinyld')).detect;
  return loaded;
}

/** The language of one message (ISO 639-1), or undefined when it has too little prose to tell. */
export async function detectLanguage(text: string): Promise<string | undefined> {
  return languageOf(await detector(), text);
}

function languageOf(detect: Detect, text: string): string | undefined {
  const prose = proseOf(text);
  if ((prose.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) return undefined;
  const language = detect(prose);
  return language === '' ? undefined : language;
}

/** The shares of the languages of these messages. */
export async function languagesOf(texts: readonly string[]): Promise<HistoryLanguages> {
  const detect = await detector();
  const counts = new Map<string, number>();
  let detected = 0;
  for (const text of texts) {
    const language = languageOf(detect, text);
    if (language === undefined) continue;
    detected++;
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const shares: Record<string, number> = {};
  for (const [language, count] of [...counts].sort((a, b) => b[1] - a[1]))
    shares[language] = count / detected;
  return {
    sampled: texts.length,
    detected,
    shares,
    notEnglish: detected === 0 ? 0 : 1 - (shares.en ?? 0),
  };
}

/** Picks `count` items spread evenly over `items` (all of them when there are fewer). */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)] as T);
}

/**
 * The languages of the messages still to embed, from a sample spread over the conversations and
 * over each conversation's messages (titles and attachments left out: they are not what people
 * wrote in the chat).
 */
export async function historyLanguages(
  vectors: Pick<VectorIndex, 'pending' | 'texts'>,
  sampleTexts = SAMPLE_TEXTS,
): Promise<HistoryLanguages> {
  const pending = await vectors.pending();
  const conversations = spread(pending, Math.ceil(sampleTexts / TEXTS_PER_CONVERSATION));
  const texts: string[] = [];
  for (const conversation of conversations) {
    const messages = (await vectors.texts(conversation.owner)).filter(
      (text: EmbeddingText) => text.kind === 'message',
    );
    for (const message of spread(messages, TEXTS_PER_CONVERSATION)) texts.push(message.text);
    if (texts.length >= sampleTexts) break;
  }
  return languagesOf(texts.slice(0, sampleTexts));
}

/** "fr 48%, de 9%, en 38%": the shares as a person reads them, the largest first. */
export function describeShares(shares: Record<string, number>, most = 4): string {
  const entries = Object.entries(shares);
  const shown = entries
    .slice(0, most)
    .map(([language, share]) => `${language} ${String(Math.round(share * 100))}%`);
  return entries.length > most ? `${shown.join(', ')}, …` : shown.join(', ');
}
