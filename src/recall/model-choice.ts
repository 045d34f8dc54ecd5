import {
  DEFAULT_MODEL,
  MULTILINGUAL_MODEL,
  isMultilingualModel,
  modelLanguages,
} from '../embed/model-catalog.js';
import { describeShares, type HistoryLanguages } from './history-languages.js';

/** From this share of messages not in English on, a history is embedded with the multilingual model. */
export const MULTILINGUAL_FROM = 0.25;

/**
 * The model `embed` takes first for such a history when its languages are among the 16 this one
 * was made for: it finds more of the questions written apart from their conversations (126 of
 * 140 against e5's 108, docs/search.md) and embeds about 9 times as fast.
 */
export const LISTED_LANGUAGES_MODEL = 'use-multilingual-v3';

/** Above this share of messages in languages a model was not made for (a language detector errs on a few), it is not chosen. */
const OUTSIDE_LANGUAGES_AT_MOST = 0.1;

/** The model `embed` takes for a history when none is named, and why. */
export interface ModelChoice {
  model: string;
  /** One sentence: the share of messages not in English and the main languages. */
  reason: string;
  multilingual: boolean;
  /** Models that read the history too, taken in this order when `model` is not installed. */
  fallbacks: readonly string[];
}

function percent(share: number): string {
  return `${String(Math.round(share * 100))}%`;
}

/** The history's languages `model` was not made for, with their shares (none for a model of every language). */
function outsideLanguages(model: string, shares: Record<string, number>): Record<string, number> {
  const made = modelLanguages(model);
  if (made === undefined) return {};
  return Object.fromEntries(
    Object.entries(shares).filter(([language]) => !made.includes(language)),
  );
}

const total = (shares: Record<string, number>): number =>
  Object.values(shares).reduce((sum, share) => sum + share, 0);

/**
 * Chooses the model by the history's languages: multilingual when a quarter or more is not
 * English; then use-multilingual-v3 when nearly every message is in one of its 16 languages
 * (e5 if it is not installed), else multilingual-e5-small, which reads about every language.
 */
export function chooseModel(languages: HistoryLanguages): ModelChoice {
  if (languages.detected === 0)
    return {
      model: DEFAULT_MODEL,
      reason: `no message had enough prose to tell its language (${String(languages.sampled)} looked at)`,
      multilingual: false,
      fallbacks: [],
    };
  const shares = describeShares(languages.shares);
  if (languages.notEnglish >= MULTILINGUAL_FROM) {
    const listed =
      total(outsideLanguages(LISTED_LANGUAGES_MODEL, languages.shares)) <=
      OUTSIDE_LANGUAGES_AT_MOST;
    return {
      model: listed ? LISTED_LANGUAGES_MODEL : MULTILINGUAL_MODEL,
      reason: `${percent(languages.notEnglish)} of messages are not in English (${shares})`,
      multilingual: true,
      fallbacks: listed ? [MULTILINGUAL_MODEL] : [],
    };
  }
  return {
    model: DEFAULT_MODEL,
    reason: `${percent(1 - languages.notEnglish)} of messages are in English (${shares})`,
    multilingual: false,
    fallbacks: [],
  };
}

/**
 * The one line `embed` stops with when the history calls for a multilingual model and none that
 * reads it is installed: the first choice's fetch (and the other's, when there is one).
 */
export function missingMultilingualMessage(choice: ModelChoice): string {
  const others = choice.fallbacks.map((model) => ` (or --model ${model})`).join('');
  return `${choice.reason}: the English model would find little in them; install a multilingual model with chatgraph model fetch --model ${choice.model}${others}, or keep the English one with chatgraph embed --model ${DEFAULT_MODEL}`;
}

/**
 * The note for a data folder kept on a model that reads too little of its history: the English
 * model where a quarter or more is not English, or a model of a list of languages
 * (use-multilingual-v3's 16) where a quarter or more is in the others. A model of about every
 * language is never a reason to re-embed.
 */
export function keptModelNote(kept: string, languages: HistoryLanguages): string | undefined {
  const choice = chooseModel(languages);
  if (!choice.multilingual) return undefined;
  if (!isMultilingualModel(kept))
    return `keeping ${kept}, the model this data folder was embedded with, though ${choice.reason}; chatgraph embed --model ${choice.model} re-embeds everything with a multilingual model`;
  const others = outsideLanguages(kept, languages.shares);
  const share = total(others);
  if (share < MULTILINGUAL_FROM) return undefined;
  return `keeping ${kept}, the model this data folder was embedded with, though ${percent(share)} of messages are in languages it was not made for (${describeShares(others)}); chatgraph embed --model ${MULTILINGUAL_MODEL} re-embeds everything with a model of about 100 languages`;
}
