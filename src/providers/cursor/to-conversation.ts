import { buildConversation } from '../../model/build-conversation.js';
import type { Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import type { SqliteSessionRecord } from '../../read/sqlite-query.js';
import type { ConversionContext } from '../provider.js';
import { rowsOf } from '../sqlite-session.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';
import { addBubble, type BubbleChain } from './bubbles.js';

/**
 * Converts a record of Cursor's `state.vscdb`: a composer (its bubbles in the order of
 * `fullConversationHeadersOnly`, or held inline in `conversation` before 0.45), or one of the
 * older workspace keys, which hold many chats each.
 */
export function toCursorConversations(
  record: SqliteSessionRecord,
  context: ConversionContext,
): Conversation[] {
  const value = asObject(record.session.value);
  if (!value) return [];
  if (record.source === 'composer') {
    const id = asText(record.session.composerId) ?? record.id.replace(/^composerData:/, '');
    const bubbles = new Map<string, JsonObject>();
    for (const row of rowsOf(record, 'bubbles')) {
      const bubbleId = (asString(row.key) ?? '').split(':').at(-1) ?? '';
      const bubble = asObject(row.value);
      if (bubble) bubbles.set(bubbleId, bubble);
    }
    const conversation = composerConversation(id, value, bubbles, 'composer', context);
    return conversation ? [conversation] : [];
  }
  if (record.id === 'composer.composerData') {
    // A workspace's list of its composers: before 0.45 each held its messages inline; later
    // ones keep them in the global store, where they are read.
    return (asArray(value.allComposers) ?? []).flatMap((item) => {
      const composer = asObject(item);
      const id = asText(composer?.composerId);
      if (!composer || !id || !asArray(composer.conversation)?.length) return [];
      const conversation = composerConversation(
        id,
        composer,
        new Map(),
        'workspace-composer',
        context,
      );
      return conversation ? [conversation] : [];
    });
  }
  return (asArray(value.tabs) ?? []).flatMap((item, n) => {
    const tab = asObject(item);
    if (!tab) return [];
    const conversation = chatTab(tab, n, context);
    return conversation ? [conversation] : [];
  });
}

function composerConversation(
  id: string,
  composer: JsonObject,
  bubbles: ReadonlyMap<string, JsonObject>,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const chain: BubbleChain = {
    drafts: [],
    previous: null,
    model: asText(asObject(composer.modelConfig)?.modelName) ?? null,
    cwd: undefined,
  };
  const headers = asArray(composer.fullConversationHeadersOnly);
  let missing = 0;
  if (headers) {
    for (const item of headers) {
      const header = asObject(item);
      const bubbleId = asText(header?.bubbleId);
      const bubble = bubbleId !== undefined ? bubbles.get(bubbleId) : undefined;
      if (!bubble || bubbleId === undefined) {
        missing++;
        continue;
      }
      addBubble(chain, { type: header?.type, ...bubble }, bubbleId);
    }
  } else {
    (asArray(composer.conversation) ?? []).forEach((item, n) => {
      const bubble = asObject(item);
      if (bubble) addBubble(chain, bubble, asText(bubble.bubbleId) ?? `${id}#${n}`);
    });
  }
  if (missing > 0)
    context.report({
      level: 'warning',
      code: 'missing-record',
      message: `composer ${id} lists ${missing} message${missing === 1 ? '' : 's'} whose bubble is not in the store; the others were read`,
      record: id,
    });
  return finish(id, composer, chain, variant, context);
}

function chatTab(tab: JsonObject, n: number, context: ConversionContext): Conversation | undefined {
  const id = asText(tab.tabId) ?? `tab-${n}`;
  const chain: BubbleChain = { drafts: [], previous: null, model: null, cwd: undefined };
  (asArray(tab.bubbles) ?? []).forEach((item, b) => {
    const bubble = asObject(item);
    if (bubble) addBubble(chain, bubble, asText(bubble.id) ?? `${id}#${b}`);
  });
  const composer: JsonObject = { ...tab, name: tab.chatTitle, lastUpdatedAt: tab.lastSendTime };
  return finish(id, composer, chain, 'aichat', context);
}

function finish(
  id: string,
  composer: JsonObject,
  chain: BubbleChain,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  if (chain.drafts.length === 0) {
    context.report({
      level: 'info',
      code: 'empty-session',
      message: `Cursor chat ${id} holds no messages; skipped`,
      record: id,
    });
    return undefined;
  }
  const raw: JsonObject = without(composer, [
    'fullConversationHeadersOnly',
    'conversation',
    'bubbles',
    'name',
    'chatTitle',
    'createdAt',
    'lastUpdatedAt',
    'lastSendTime',
    'composerId',
    'tabId',
    'richText',
    'text',
    'codeBlockData',
    'conversationState',
  ]);
  if (chain.cwd) raw.cwd = chain.cwd;
  return buildConversation(
    {
      provider: {
        name: 'cursor',
        conversation_id: id,
        account_id: null,
        export_format_version: `cursor/${variant}${typeof composer._v === 'number' ? `/v${composer._v}` : ''}`,
      },
      title: asText(composer.name) ?? null,
      createdAt: toTimestamp(composer.createdAt) ?? chain.drafts[0]?.createdAt,
      updatedAt: toTimestamp(composer.lastUpdatedAt),
      messages: chain.drafts,
      shownLeafKey: undefined,
      model: chain.model,
      system_instruction: null,
      is_archived: composer.isArchived === true,
      raw_metadata: raw,
      assistantName: 'Cursor',
    },
    context,
  );
}
