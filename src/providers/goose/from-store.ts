import type { JsonObject } from '../../model/pam.js';
import type { LinesValue } from '../../read/record.js';
import { baseName } from '../../read/entry.js';
import type { SqliteSessionRecord } from '../../read/sqlite-query.js';
import type { ConversionContext } from '../provider.js';
import { rowsOf } from '../sqlite-session.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';
import type { GooseMessage, GooseSession } from './to-conversation.js';

/** A Goose session from its rows in `sessions.db`. */
export function sessionFromSqlite(record: SqliteSessionRecord): GooseSession {
  const row = record.session;
  const messages = rowsOf(record, 'messages').map((message): GooseMessage => ({
    key: asText(message.message_id) ?? `${record.id}:${String(message.id)}`,
    role: asString(message.role) ?? 'user',
    created: message.created_timestamp ?? message.timestamp,
    content: asArray(message.content_json) ?? [],
    metadata: asObject(message.metadata_json),
  }));
  return {
    id: record.id,
    title: asText(row.name) ?? asText(row.description),
    cwd: asText(row.working_dir),
    // SQLite's CURRENT_TIMESTAMP is UTC without a zone.
    created: utc(row.created_at),
    updated: utc(row.updated_at),
    raw: without(row, ['id', 'name', 'description', 'working_dir', 'created_at', 'updated_at']),
    messages,
    usage: rowsOf(record, 'usage'),
  };
}

/**
 * A Goose session from its older JSON Lines file (`sessions/<name>.jsonl`): a first line of
 * metadata (working folder, description, token totals), then one message a line.
 */
export function sessionFromLines(
  value: Partial<LinesValue>,
  context: ConversionContext,
): GooseSession {
  const entries = (asArray(value.entries) ?? []).map((e) => asObject(e));
  for (const bad of asArray(value.badLines) ?? []) {
    const line = asObject(bad);
    context.report({
      level: 'error',
      code: 'malformed-line',
      message: `line ${String(line?.line)} is not valid JSON (${asString(line?.message) ?? ''}); skipped`,
      record: `line ${String(line?.line)}`,
    });
  }
  if (value.cutLastLine === true)
    context.report({
      level: 'info',
      code: 'session-being-written',
      message:
        'the last line is incomplete (a session still being written); the lines before it were read',
      record: context.record,
    });
  const first = entries[0];
  const meta: JsonObject = first && first.role === undefined ? first : {};
  const lines = first === meta ? entries.slice(1) : entries;
  const id = baseName(context.file).replace(/\.jsonl$/i, '');
  const messages = lines.flatMap((entry, n): GooseMessage[] =>
    entry
      ? [
          {
            key: asText(entry.id) ?? `${id}:${String(n + 1)}`,
            role: asString(entry.role) ?? 'user',
            created: entry.created,
            content: asArray(entry.content) ?? [],
            metadata: asObject(entry.metadata),
          },
        ]
      : [],
  );
  return {
    id,
    title: asText(meta.description),
    cwd: asText(meta.working_dir),
    created: messages[0]?.created,
    updated: messages.at(-1)?.created,
    raw: without(meta, ['description', 'working_dir']),
    messages,
    usage: [],
  };
}

function utc(value: unknown): unknown {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value)
    ? `${value.replace(' ', 'T')}Z`
    : value;
}
