import { asArray, asObject, asString, asText } from '../untrusted.js';
import { emptyMessage, toolResult, type ZedMessage } from './thread-messages.js';

/**
 * The messages of an older Zed thread (`SerializedThread` 0.1/0.2, and the first form with
 * no version): a role, text/thinking segments (the first form: one `text`), tool uses and
 * tool results, the context loaded for the message, and whether it was hidden.
 */
export function legacyMessages(data: Record<string, unknown>): ZedMessage[] {
  return (asArray(data.messages) ?? []).map((item) => {
    const object = asObject(item) ?? {};
    const role = asString(object.role) === 'assistant' ? 'assistant' : 'user';
    const message = emptyMessage(role);
    if (asString(object.role) === 'system') message.raw.system = true;
    const segments =
      asArray(object.segments) ??
      (asText(object.text) ? [{ type: 'text', text: object.text }] : []);
    for (const item of segments) {
      const segment = asObject(item);
      const type = asString(segment?.type);
      if (type === 'text') message.texts.push(asString(segment?.text) ?? '');
      else if (type === 'thinking')
        message.thoughts.push({
          text: asString(segment?.text) ?? '',
          createdAt: undefined,
          raw: {},
        });
      else
        message.raw.redacted_thinking = [
          ...(asArray(message.raw.redacted_thinking) ?? []),
          segment ?? null,
        ];
    }
    for (const use of asArray(object.tool_uses) ?? []) {
      const tool = asObject(use);
      message.calls.push({
        id: asText(tool?.id) ?? null,
        name: asText(tool?.name) ?? 'unknown',
        input: asObject(tool?.input) ?? null,
        output: null,
      });
    }
    for (const result of asArray(object.tool_results) ?? []) toolResult(message, result);
    const context = asString(object.context);
    if (context) message.mentions.push({ name: 'context', text: context });
    if (object.is_hidden === true) message.raw.hidden = true;
    if (typeof object.id === 'number') message.raw.legacy_id = object.id;
    return message;
  });
}
