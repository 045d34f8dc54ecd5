import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Conversation } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { oneLine, oneLineTitle } from '../../model/title.js';
import { addressOf } from '../platform-url.js';
import { notAConversation } from '../not-a-conversation.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';
import type { Turn } from './turn.js';

/*
 * Perplexity's official account export, described by the maintainer of another importer from a
 * real 493-conversation export: `conversations-<YYYYMMDD>_<HHMMSS>-<hash>.json` (the date and
 * hash tell it from ChatGPT's `conversations-000.json`), `{conversations: [...]}`, each
 * `{context_uuid, context_title, created_at, updated_at, mode, collection_uuid, entries}`, each
 * entry `{entry_uuid, query, answer, created_at, label, query_status, engine_mode}`. What it
 * lacks, and how each gap is met here:
 * - no title: `context_title` repeats the first question whole (492 of 493), often over 200
 *   characters or several lines, so the title is that question on one line, cut at a word;
 * - no sources, while answers cite `[1][2]`: the markers stay in the text as written;
 * - no thread URL: a thread lives at `/search/<uuid>` of its first entry;
 * - `updated_at` can be older than the last entry (25 of 493): the later of the two;
 * - no model (`engine_mode` is a kind of search, null on half the entries), and a `mode`
 *   (`CONCISE` | `COPILOT`) that follows nothing reliable: both kept in `raw_metadata` only.
 */

const OFFICIAL_NAME = /(^|\/)conversations-\d{8}_\d{6}-[0-9a-f]+\.json$/i;

/** Whether an entry is the official export's conversations file (by name, or by its shape). */
export function isOfficialExport(path: string, head: string): boolean {
  if (OFFICIAL_NAME.test(path)) return /"conversations"\s*:/.test(head);
  return (
    /^\s*\{\s*"conversations"\s*:\s*\[/.test(head.replace(/^\uFEFF/, '')) &&
    /"context_uuid"\s*:/.test(head) &&
    /"entry_uuid"\s*:/.test(head)
  );
}

function entryTurn(raw: unknown): Turn | undefined {
  const entry = asObject(raw);
  if (!entry) return undefined;
  return {
    id: asText(entry.entry_uuid),
    query: asString(entry.query) ?? '',
    answer: asString(entry.answer) ?? '',
    model: undefined,
    mode: undefined,
    time: asText(entry.created_at),
    sources: [],
    related: [],
    raw: without(entry, ['entry_uuid', 'query', 'answer', 'created_at']),
  };
}

/** One conversation of the official export, its turns made messages by `toDrafts`. */
export function officialConversation(
  raw: unknown,
  context: ConversionContext,
  toDrafts: (turns: readonly Turn[]) => DraftMessage[],
): Conversation | undefined {
  const record = asObject(raw);
  const id = asText(record?.context_uuid);
  const entries = asArray(record?.entries);
  if (!record || id === undefined || !entries) {
    notAConversation(
      context,
      'a conversation of Perplexity’s export has a `context_uuid` and `entries`; this one lacks one',
    );
    return undefined;
  }
  const turns = entries
    .map(entryTurn)
    .filter((turn): turn is Turn => turn !== undefined && (turn.query !== '' || turn.answer !== ''))
    .sort((a, b) => Date.parse(a.time ?? '') - Date.parse(b.time ?? '') || 0);
  const first = turns[0];
  const times = turns.map((t) => toTimestamp(t.time)).filter((t) => t !== undefined);
  const updated = [toTimestamp(record.updated_at), times.at(-1)]
    .filter((t) => t !== undefined)
    .sort()
    .at(-1);
  const url =
    first?.id !== undefined
      ? addressOf('https://www.perplexity.ai/search/', first.id, /^[0-9a-fA-F-]{16,64}$/)
      : undefined;
  // The title a person gave, if ever it is not the first question again.
  const given = asText(record.context_title);
  const question = first ? oneLine(first.query) : '';
  const title =
    given !== undefined && oneLine(given) !== question
      ? oneLineTitle(given, 100)
      : oneLineTitle(first?.query ?? given ?? '', 100);
  return buildConversation(
    {
      provider: {
        name: 'perplexity',
        conversation_id: id,
        account_id: null,
        export_format_version: 'perplexity/official',
      },
      title,
      createdAt: toTimestamp(record.created_at) ?? times[0],
      updatedAt: updated,
      messages: toDrafts(turns),
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: {
        ...without(record, [
          'context_uuid',
          'context_title',
          'created_at',
          'updated_at',
          'entries',
        ]),
        ...(url ? { platform_url: url } : {}),
      },
      assistantName: 'Perplexity',
    },
    context,
  );
}
