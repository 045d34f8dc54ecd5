import { stableId } from '../model/ids.js';
import type { ConversionContext } from './provider.js';

/**
 * A stable id for a conversation record that has none, from its content (never its position,
 * which changes when the export's order does), reported as a warning.
 */
export function anonymousId(provider: string, raw: unknown, context: ConversionContext): string {
  const id = `anonymous-${stableId(`${provider}-anonymous`, JSON.stringify(raw))}`;
  context.report({
    level: 'warning',
    code: 'missing-conversation-id',
    message: `the conversation has no id; it is given the stable id ${id}, from its content`,
    record: context.record,
  });
  return id;
}
