import { asArray, asObject } from './untrusted.js';

/** The text of a `tool_result`'s content: text items as they are, any other item as JSON text. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  const items = asArray(content);
  if (!items) return JSON.stringify(content ?? null);
  return items
    .map((item) => {
      const part = asObject(item);
      return part?.type === 'text' && typeof part.text === 'string'
        ? part.text
        : JSON.stringify(item);
    })
    .join('\n');
}
