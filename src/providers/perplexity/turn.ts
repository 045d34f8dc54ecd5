import type { JsonObject } from '../../model/pam.js';

/** One question and its answer, as every shape gives them. */
export interface Turn {
  id: string | undefined;
  query: string;
  answer: string;
  model: string | undefined;
  mode: string | undefined;
  time: string | undefined;
  sources: unknown[];
  related: string[];
  raw: JsonObject;
}
