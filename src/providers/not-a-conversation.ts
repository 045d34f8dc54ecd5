import type { ConversionContext } from './provider.js';

/** Reports a record that is not a conversation of this provider (the caller skips it). */
export function notAConversation(context: ConversionContext, reason: string): void {
  context.report({
    level: 'error',
    code: 'not-a-conversation',
    message: `${reason}; skipped`,
    record: context.record,
  });
}
