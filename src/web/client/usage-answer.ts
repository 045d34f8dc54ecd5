import type { UsageView } from './api.js';
import {
  AnswerMisfit,
  array,
  nullable,
  number,
  object,
  optional,
  text,
  type Reader,
} from './read-json.js';

// The Usage page's reader of its answer, field for field the server's schema
// (src/web/api-overview-responses.ts), as the readers in answers.ts.

const usageSums = {
  input_tokens: number,
  output_tokens: number,
  cache_creation_tokens: number,
  cache_read_tokens: number,
  reasoning_tokens: number,
  total_tokens: number,
  cost_usd: nullable(number),
  unpriced_models: array(text),
};

/** An estimated row's mark: present and true, or absent. */
const isTrue: Reader<true> = (value, at) => {
  if (value === true) return value;
  throw new AnswerMisfit(at, 'true', value);
};

/** GET /api/usage */
export const usage: Reader<UsageView> = object({
  by: text,
  timeZone: text,
  rows: array(
    object({
      period: text,
      model: nullable(text),
      source: nullable(text),
      title: optional(text),
      ...usageSums,
      estimated: optional(isTrue),
    }),
  ),
  total: object(usageSums),
  uncounted: array(
    object({
      source: text,
      conversations: number,
      of: number,
      models: array(object({ model: text, messages: number })),
    }),
  ),
  estimated: optional(
    object({
      total: object(usageSums),
      sources: array(object({ source: text, conversations: number })),
      method: text,
    }),
  ),
  prices: object({ date: text, source: text, unpriced_models: array(text) }),
});
