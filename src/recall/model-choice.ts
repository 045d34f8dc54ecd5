import { DEFAULT_MODEL, MULTILINGUAL_MODEL, isMultilingualModel } from '../embed/model-catalog.js';
import { describeShares, type HistoryLanguages } from './history-languages.js';

/** From this share of messages not in English on, a history is embedded with the multilingual model. */
export const MULTILINGUAL_FROM = 0.25;

/** The model `embed` takes for a history when none is named, and why. */
export interface ModelChoice {
  model: string;
  /** One sentence: the share of messages not in English and the main languages. */
  reason: string;
  multilingual: boolean;
}

function percent(share: number): string {
  return `${String(Math.round(share * 100))}%`;
}

/** Chooses the model by the history's languages: multilingual when a quarter or more is not English. */
export function chooseModel(languages: HistoryLanguages): ModelChoice {
  if (languages.detected === 0)
    return {
      model: DEFAULT_MODEL,
      reason: `no message had enough prose to tell its language (${String(languages.sampled)} looked at)`,
      multilingual: false,
    };
  const shares = describeShares(languages.shares);
  if (languages.notEnglish >= MULTILINGUAL_FROM)
    return {
      model: MULTILINGUAL_MODEL,
      reason: `${percent(languages.notEnglish)} of messages are not in English (${shares})`,
      multilingual: true,
    };
  return {
    model: DEFAULT_MODEL,
    reason: `${percent(1 - languages.notEnglish)} of messages are in English (${shares})`,
    multilingual: false,
  };
}

/** The one line `embed` stops with when the history calls for the multilingual model and it is missing. */
export function missingMultilingualMessage(choice: ModelChoice): string {
  return `${choice.reason}: the English model would find little in them; install the multilingual model with chatgraph model fetch --model ${choice.model}, or keep the English one with chatgraph embed --model ${DEFAULT_MODEL}`;
}

/** The note for a data folder embedded with the English model whose history is mostly not English. */
export function keptModelNote(kept: string, choice: ModelChoice): string | undefined {
  // Any multilingual model reads the history (use-multilingual-v3 too): no reason to re-embed.
  if (!choice.multilingual || isMultilingualModel(kept)) return undefined;
  return `keeping ${kept}, the model this data folder was embedded with, though ${choice.reason}; chatgraph embed --model ${choice.model} re-embeds everything with the multilingual model`;
}
