import type {
  TokenSlot,
  TokenTotals,
  UncountedMessage,
  UncountedSource,
  UsageFilter,
  UsageReader,
} from '../stores/usage-reader.js';
import { slotOf } from '../stores/usage-reader.js';

// No tokenizer of the models chat exports name ships with chatgraph: the embedder's tokenizers
// (WordPiece, SentencePiece) are downloaded with its models and split text unlike OpenAI's or
// Anthropic's BPE. An estimate therefore counts characters by script, at the rules of thumb the
// providers publish: about 4 characters a token of English (OpenAI, "What are tokens and how to
// count them"), about one token a character of Chinese, Japanese or Korean, and about 2
// characters a token of the other non-Latin scripts (Cyrillic, Greek, Arabic, Hebrew, Indic,
// Thai), whose letters BPE vocabularies hold fewer of. An estimate is marked as one wherever it
// is shown.

/** Characters per token of each script class, as the note above gives them. */
export const CHARACTERS_PER_TOKEN = { latin: 4, cjk: 1, other: 2 } as const;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const OTHER =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Thai}\p{Script=Armenian}\p{Script=Georgian}]/u;

/** The tokens a text is estimated at: its characters by script over their ratio, rounded up. */
export function estimatedTokens(text: string): number {
  let latin = 0;
  let cjk = 0;
  let other = 0;
  for (const char of text) {
    if (char.charCodeAt(0) < 0x250) latin++;
    else if (CJK.test(char)) cjk++;
    else if (OTHER.test(char)) other++;
    else latin++;
  }
  return Math.ceil(
    latin / CHARACTERS_PER_TOKEN.latin +
      cjk / CHARACTERS_PER_TOKEN.cjk +
      other / CHARACTERS_PER_TOKEN.other,
  );
}

/**
 * Estimated token slots of a conversation export's messages: a user message's text as input,
 * an assistant message's as output, each summed by conversation, model and quarter hour. A
 * prompt is put on the model of the reply that follows it in its conversation (the export names
 * the model on replies only); a prompt with no reply after it on no model.
 */
export async function estimatedSlots(
  messages: AsyncIterable<UncountedMessage>,
): Promise<TokenSlot[]> {
  const slots = new Map<string, TokenSlot>();
  const waiting = new Map<string, { slot: string; tokens: number }[]>();
  const add = (
    conversationId: string,
    slot: string,
    model: string,
    input: number,
    output: number,
  ) => {
    const key = `${conversationId}\u0000${slot}\u0000${model}`;
    let sum = slots.get(key);
    if (sum === undefined) {
      sum = {
        slot,
        conversationId,
        model,
        long: false,
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheCreation: 0,
        reasoning: 0,
      };
      slots.set(key, sum);
    }
    sum.input += input;
    sum.output += output;
  };
  for await (const message of messages) {
    const tokens = estimatedTokens(message.content);
    if (tokens === 0) continue;
    const slot = slotOf(message.createdAt);
    if (message.role === 'user') {
      const list = waiting.get(message.conversationId);
      if (list) list.push({ slot, tokens });
      else waiting.set(message.conversationId, [{ slot, tokens }]);
      continue;
    }
    const model = message.model ?? '';
    for (const prompt of waiting.get(message.conversationId) ?? [])
      add(message.conversationId, prompt.slot, model, prompt.tokens, 0);
    waiting.delete(message.conversationId);
    add(message.conversationId, slot, model, 0, tokens);
  }
  for (const [conversationId, prompts] of waiting)
    for (const prompt of prompts) add(conversationId, prompt.slot, '', prompt.tokens, 0);
  return [...slots.values()];
}

/** The way `estimatedTokens` counts, as a report says it. */
export const ESTIMATE_METHOD =
  'estimated from text length, not counted: about 4 characters a token (1 a character of Chinese, Japanese or Korean, 2 of other non-Latin scripts); input is the user’s text and output the assistant’s, priced at the model’s price (the earlier turns a model re-reads as context are not in it, so real input is higher)';

/** Token slots estimated from the text of the uncounted sources' conversations. */
export async function estimatesOf(
  reader: UsageReader,
  filter: UsageFilter,
  uncounted: readonly UncountedSource[],
): Promise<TokenTotals> {
  const slots: TokenSlot[] = [];
  const conversations: TokenTotals['conversations'] = [];
  for (const { source } of uncounted) {
    const own = await estimatedSlots(reader.uncountedMessages(filter, [source]));
    slots.push(...own);
    for (const id of new Set(own.map((s) => s.conversationId)))
      conversations.push({ id, source, title: '', project: null });
  }
  return { slots, conversations };
}
