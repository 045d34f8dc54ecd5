import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import { stableId } from '../../model/ids.js';
import type { Conversation } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { baseName } from '../../read/entry.js';
import type { ConversionContext, Detection, Provider } from '../provider.js';
import { parseCsv } from './csv.js';

/** Rows of one name further apart than this start a new conversation (the CSVs carry no ids). */
const GAP_MS = 6 * 60 * 60 * 1000;

interface Row {
  name: string;
  time: string | undefined;
  role: 'user' | 'assistant';
  text: string;
  extra: Record<string, string>;
  line: number;
}

function detect(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (!name.endsWith('.csv')) return undefined;
  const header =
    head
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0]
      ?.toLowerCase() ?? '';
  if (/\bconversation\b.*\btime\b.*\bauthor\b.*\bmessage\b/.test(header))
    return { role: 'conversations', format: { kind: 'text-file' }, variant: 'activity-history' };
  if (/\bcreatedat\b.*\bmessagecontent\b.*\bauthor\b/.test(header))
    return { role: 'conversations', format: { kind: 'text-file' }, variant: 'chat-activity' };
  if (/\btimestamp\b.*\bclientapp\b.*\bprompt\b/.test(header))
    return { role: 'conversations', format: { kind: 'text-file' }, variant: 'windows-apps' };
  return undefined;
}

// "2/17/2026 2:36:11 PM +01:00" or "2/17/2026 14:36:11 +01:00" (chat-activity); ISO elsewhere.
function toTime(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const us =
    /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?\s*([+-]\d{2}:?\d{2})?$/i.exec(
      value.trim(),
    );
  if (!us) return toTimestamp(value);
  const [, month, day, year, hour = '0', minute, second = '0', half, zone] = us;
  let h = Number(hour) % 12;
  if (!half) h = Number(hour);
  else if (half.toUpperCase() === 'PM') h += 12;
  const iso = `${year}-${month?.padStart(2, '0')}-${day?.padStart(2, '0')}T${String(h).padStart(2, '0')}:${minute}:${second.padStart(2, '0')}${zone ?? 'Z'}`;
  return toTimestamp(iso);
}

function rowsOf(text: string, variant: string): Row[] {
  const [header = [], ...body] = parseCsv(text);
  const columns = header.map((h) => h.trim().toLowerCase());
  const at = (row: string[], name: string): string | undefined => {
    const i = columns.indexOf(name);
    return i === -1 ? undefined : row[i];
  };
  return body.map((row, n) => {
    const extra: Record<string, string> = {};
    columns.forEach((column, i) => {
      if (
        ![
          'conversation',
          'time',
          'author',
          'message',
          'createdat',
          'messagecontent',
          'chatname',
          'timestamp',
          'prompt',
        ].includes(column)
      )
        extra[column] = row[i] ?? '';
    });
    if (variant === 'windows-apps') {
      return {
        name: `${at(row, 'clientapp') ?? 'Windows'} prompt ${n + 1}`,
        time: toTime(at(row, 'timestamp')),
        role: 'user' as const,
        text: at(row, 'prompt') ?? '',
        extra,
        line: n + 2,
      };
    }
    const author = (at(row, 'author') ?? '').trim().toLowerCase();
    return {
      name: (variant === 'chat-activity' ? at(row, 'chatname') : at(row, 'conversation')) ?? '',
      time: toTime(variant === 'chat-activity' ? at(row, 'createdat') : at(row, 'time')),
      // user/human are the user; AI or the assistant's name is the assistant.
      role: author === 'user' || author === 'human' ? ('user' as const) : ('assistant' as const),
      text: (variant === 'chat-activity' ? at(row, 'messagecontent') : at(row, 'message')) ?? '',
      extra,
      line: n + 2,
    };
  });
}

/** One Copilot privacy-dashboard CSV: conversations grouped by name and time. */
function toConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const rows = rowsOf(raw, variant);
  // By name, then by time (user before assistant at the same time), split at long gaps.
  const byName = new Map<string, Row[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  const conversations: Conversation[] = [];
  for (const [name, group] of byName) {
    for (const session of sessionsOf(group, variant)) {
      conversations.push(sessionConversation(name, session, variant, context));
    }
  }
  if (conversations.length === 0) {
    // Microsoft's privacy dashboard delivers each activity's CSV, with its header alone when
    // there was no such activity: valid, and empty.
    context.report({
      level: 'info',
      code: 'empty-file',
      message: 'the CSV has its header and no rows: there was no such activity to import',
      record: context.record,
    });
    return [];
  }
  return conversations;
}

/**
 * One name's rows in time order (user before assistant at the same time), cut where more than
 * GAP_MS pass between two rows; the Windows apps' export has one row per conversation.
 */
function sessionsOf(group: Row[], variant: string): Row[][] {
  group.sort(
    (a, b) =>
      (a.time ?? '').localeCompare(b.time ?? '') ||
      (a.role === b.role ? a.line - b.line : a.role === 'user' ? -1 : 1),
  );
  const sessions: Row[][] = [];
  let current: Row[] = [];
  for (const row of group) {
    const last = current.at(-1);
    const gap = last?.time && row.time ? Date.parse(row.time) - Date.parse(last.time) : 0;
    if ((variant === 'windows-apps' || gap > GAP_MS) && current.length > 0) {
      sessions.push(current);
      current = [];
    }
    current.push(row);
  }
  if (current.length > 0) sessions.push(current);
  return sessions;
}

/** One session's rows as a conversation, each row replying to the one before. */
function sessionConversation(
  name: string,
  rows: Row[],
  variant: string,
  context: ConversionContext,
): Conversation {
  const first = rows[0] as Row;
  const id = stableId('copilot', context.file, name, first.time ?? String(first.line));
  return buildConversation(
    {
      provider: {
        name: 'copilot',
        conversation_id: id,
        account_id: null,
        export_format_version: `copilot/${variant}`,
      },
      title: name.trim() === '' ? null : name,
      createdAt: first.time,
      updatedAt: rows.at(-1)?.time,
      messages: rowDrafts(rows),
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: { grouped_by: 'name and time' },
      assistantName: 'Copilot',
    },
    {
      report: context.report,
      record: `${context.record} (${name})`,
      fallbackTime: context.fallbackTime,
    },
  );
}

function rowDrafts(rows: Row[]): DraftMessage[] {
  let previous: string | null = null;
  return rows.map((row) => {
    const key = `line-${row.line}`;
    const draft: DraftMessage = {
      key,
      parentKey: previous,
      provider_message_id: null,
      role: row.role,
      content: { type: 'text', text: row.text },
      createdAt: row.time,
      model: null,
      is_thought: false,
      attachments: [],
      citations: [],
      tool_calls: [],
      raw_metadata: {
        csv_line: row.line,
        ...(Object.keys(row.extra).length > 0 ? { columns: row.extra } : {}),
      },
    };
    previous = key;
    return draft;
  });
}

/** Microsoft Copilot (privacy dashboard CSV files). */
export const copilot: Provider = {
  name: 'copilot',
  source: 'copilot',
  label: 'Copilot',
  product: 'Copilot',
  howToExport:
    'the Microsoft privacy dashboard; give its CSV files (copilot-activity-history.csv, copilot-chat-activity.csv, windows-apps-…csv)',
  detect,
  toConversation,
};
