import type { JsonObject } from '../../model/pam.js';
import type { SqliteSessionRecord } from '../../read/sqlite-query.js';
import { rowsOf } from '../sqlite-session.js';
import { asObject, asString, asText, without } from '../untrusted.js';
import type { OpenCodeMessage, OpenCodeSession } from './to-conversation.js';

/** An OpenCode session from its rows in `opencode.db`. */
export function sessionFromSqlite(record: SqliteSessionRecord): OpenCodeSession {
  const row = record.session;
  const partsOf = new Map<string, OpenCodeMessage['parts']>();
  for (const part of rowsOf(record, 'parts')) {
    const messageId = asString(part.message_id) ?? '';
    const list = partsOf.get(messageId) ?? [];
    list.push({ id: asString(part.id) ?? '', data: asObject(part.data) ?? {} });
    partsOf.set(messageId, list);
  }
  const messages = rowsOf(record, 'messages').map((message): OpenCodeMessage => {
    const id = asString(message.id) ?? '';
    const info: JsonObject = asObject(message.data) ?? {};
    // The row's own time when the data has none.
    if (!asObject(info.time)) info.time = { created: message.time_created };
    return { id, info, parts: partsOf.get(id) ?? [] };
  });
  return {
    id: record.id,
    title: asText(row.title),
    directory: asText(row.directory),
    parentId: asText(row.parent_id),
    created: row.time_created,
    updated: row.time_updated,
    version: asText(row.version),
    project: rowsOf(record, 'project')[0],
    rest: without(row, [
      'id',
      'title',
      'directory',
      'parent_id',
      'time_created',
      'time_updated',
      'version',
    ]),
    messages,
  };
}
