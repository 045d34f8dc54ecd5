import type { JsonObject } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { asNumber, asObject, asText, without } from '../untrusted.js';
import type { OpenCodeMessage, OpenCodeSession } from './to-conversation.js';

/** The files OpenCode's JSON storage keeps beside a session's `session/<project>/<id>.json`. */
export const STORAGE_SIDES = [
  '../../message/{stem}/*.json',
  '../../part/{stems:0}/*.json',
  '../../project/{dir}.json',
];

/**
 * An OpenCode session from its JSON storage (before `opencode.db`): the session file, its
 * messages (`message/<session>/<message>.json`), their parts (`part/<message>/<part>.json`)
 * and its project (`project/<project>.json`). A file that is not JSON is reported by its name
 * and left out.
 */
export function sessionFromStorage(
  main: JsonObject,
  side: Readonly<Record<string, string>>,
  context: ConversionContext,
): OpenCodeSession {
  const messages = new Map<string, OpenCodeMessage>();
  const parts: { messageId: string; id: string; data: JsonObject }[] = [];
  let project: JsonObject | undefined;
  for (const [name, text] of Object.entries(side)) {
    const data = parsed(name, text, context);
    if (!data) continue;
    const [, kind, folder, file] =
      /^\.\.\/\.\.\/(message|part|project)\/(?:([^/]+)\/)?([^/]+)\.json$/.exec(name) ?? [];
    if (kind === 'project') project = data;
    else if (kind === 'message' && file !== undefined)
      messages.set(asText(data.id) ?? file, { id: asText(data.id) ?? file, info: data, parts: [] });
    else if (kind === 'part' && folder !== undefined && file !== undefined)
      parts.push({
        messageId: asText(data.messageID) ?? folder,
        id: asText(data.id) ?? file,
        data,
      });
  }
  for (const part of parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    messages.get(part.messageId)?.parts.push({ id: part.id, data: part.data });
  const ordered = [...messages.values()].sort((a, b) => {
    const at = (m: OpenCodeMessage): number => asNumber(asObject(m.info.time)?.created) ?? 0;
    return at(a) - at(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  const time = asObject(main.time);
  return {
    id: asText(main.id) ?? '',
    title: asText(main.title),
    directory: asText(main.directory),
    parentId: asText(main.parentID),
    created: time?.created,
    updated: time?.updated,
    version: asText(main.version),
    project,
    rest: without(main, ['id', 'title', 'directory', 'parentID', 'time', 'version']),
    messages: ordered,
  };
}

function parsed(name: string, text: string, context: ConversionContext): JsonObject | undefined {
  try {
    const value = asObject(JSON.parse(text) as unknown);
    if (value) return value;
  } catch (error) {
    context.report({
      level: 'error',
      code: 'malformed-record',
      message: `${name} is not JSON (${error instanceof Error ? error.message : String(error)}); left out`,
      record: name,
    });
    return undefined;
  }
  context.report({
    level: 'error',
    code: 'malformed-record',
    message: `${name} is not a JSON object; left out`,
    record: name,
  });
  return undefined;
}

/** True for the claimed file of a session in OpenCode's JSON storage. */
export function isStorageSession(path: string, head: string): boolean {
  return (
    /(^|\/)session\/[^/]+\/[^/]+\.json$/.test(path) &&
    /"id"\s*:\s*"ses_/.test(head) &&
    /"projectID"\s*:/.test(head)
  );
}
