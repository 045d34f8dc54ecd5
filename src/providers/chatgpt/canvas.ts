import type { DraftMessage } from '../../model/draft.js';
import type { JsonObject } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';

/*
 * ChatGPT's canvas ("canmore"): the assistant writes a document beside the chat with tool calls
 * whose input is JSON in a `code` message. `canmore.create_textdoc` gives `{name, type, content}`
 * (`type` is `document` or `code/<language>`); `canmore.update_textdoc` gives `{updates:
 * [{pattern, multiple, replacement}]}`, Python regular expressions applied to the document as it
 * stood (`.*` rewrites it whole); `canmore.comment_textdoc` gives `{comments: [{pattern,
 * comment}]}` and changes nothing. Each version becomes a document attachment of the message
 * that made it, so every version is kept, searchable, and the last one on a thread is the
 * document as the person left it there. Each set of comments becomes one too, beside the
 * version it was made on (each comment under the passage its pattern picks out), so the
 * document keeps its whole history: create, each update, comments. Versions follow the reply
 * chain, so branches that edited the document differently each keep their own.
 */
const CREATE = 'canmore.create_textdoc';
const UPDATE = 'canmore.update_textdoc';
const COMMENT = 'canmore.comment_textdoc';

interface Version {
  name: string;
  type: string;
  text: string;
  number: number;
}

const MIME: Record<string, string> = {
  document: 'text/markdown',
  'code/python': 'text/x-python',
  'code/javascript': 'text/javascript',
  'code/typescript': 'text/x-typescript',
  'code/html': 'text/html',
  'code/css': 'text/css',
};

/** Python's replacement syntax (`\1`, `\g<name>`, `\n`) expanded against one match. */
function expand(replacement: string, groups: (string | undefined)[], named: JsonObject): string {
  return replacement.replace(/\\(?:g<([^>]+)>|(\d{1,2})|(.))/gs, (escape, name, digit, char) => {
    if (typeof name === 'string')
      return /^\d+$/.test(name) ? (groups[Number(name)] ?? '') : (asString(named[name]) ?? '');
    if (typeof digit === 'string') return groups[Number(digit)] ?? '';
    const chars: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };
    return chars[String(char)] ?? escape;
  });
}

/** A Python pattern as a JavaScript one: inline flags lifted, `.` across lines as canmore uses it. */
function toRegExp(pattern: string, multiple: boolean): RegExp {
  let source = pattern;
  let flags = 's';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline?.[1]) {
    if (inline[1].includes('i')) flags += 'i';
    if (inline[1].includes('m')) flags += 'm';
    source = source.slice(inline[0].length);
  }
  source = source.replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  return new RegExp(source, multiple ? `${flags}g` : flags);
}

/** The document after one update, or an error saying why it could not be applied. */
function applyUpdates(text: string, updates: unknown[]): { text: string } | { error: string } {
  let out = text;
  for (const item of updates) {
    const update = asObject(item);
    const pattern = asString(update?.pattern);
    const replacement = asString(update?.replacement) ?? '';
    if (pattern === undefined) return { error: 'an update has no pattern' };
    let regex: RegExp;
    try {
      regex = toRegExp(pattern, update?.multiple === true);
    } catch (error) {
      return {
        error: `the pattern ${JSON.stringify(pattern)} is not one we can read (${String(error)})`,
      };
    }
    if (!regex.test(out))
      return { error: `the pattern ${JSON.stringify(pattern)} matches nothing` };
    regex.lastIndex = 0;
    out = out.replace(regex, (...args: unknown[]) => {
      const last = args[args.length - 1];
      const named = typeof last === 'object' && last !== null ? (last as JsonObject) : {};
      const groups = args
        .slice(0, typeof last === 'object' ? -3 : -2)
        .map((g) => (typeof g === 'string' ? g : undefined));
      return expand(replacement, groups, named);
    });
  }
  return { text: out };
}

/** Comments on a version as text: each under the passage its pattern matches, when it matches. */
function commentsText(version: Version, comments: unknown[]): string {
  const blocks: string[] = [];
  for (const item of comments) {
    const entry = asObject(item);
    const comment = asText(entry?.comment);
    if (comment === undefined) continue;
    const pattern = asString(entry?.pattern);
    let passage: string | undefined;
    if (pattern !== undefined) {
      try {
        passage = toRegExp(pattern, false).exec(version.text)?.[0];
      } catch {
        // A pattern we cannot read leaves the comment without its passage, not lost.
        passage = undefined;
      }
    }
    const quoted = passage?.trim()
      ? `${passage
          .trim()
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n')}\n\n`
      : '';
    blocks.push(`${quoted}${comment}`);
  }
  return blocks.join('\n\n');
}

/** Gives each message that wrote a canvas version that version as a document attachment. */
export function attachCanvases(
  drafts: DraftMessage[],
  conversationId: string,
  context: ConversionContext,
): void {
  const byKey = new Map(drafts.map((d) => [d.key, d]));
  const versions = new Map<string, Version | null>();

  const versionBefore = (draft: DraftMessage): Version | undefined => {
    const seen = new Set<string>();
    let at = draft.parentKey === null ? undefined : byKey.get(draft.parentKey);
    while (at && !seen.has(at.key)) {
      seen.add(at.key);
      const version = versionOf(at);
      if (version) return version;
      at = at.parentKey === null ? undefined : byKey.get(at.parentKey);
    }
    return undefined;
  };

  const versionOf = (draft: DraftMessage): Version | undefined => {
    if (versions.has(draft.key)) return versions.get(draft.key) ?? undefined;
    versions.set(draft.key, null);
    const call = draft.tool_calls[0];
    const input = typeof call?.input === 'object' ? call.input : null;
    let version: Version | undefined;
    if (call?.name === CREATE && input) {
      version = {
        name: asText(input.name) ?? 'Untitled canvas',
        type: asText(input.type) ?? 'document',
        text: asString(input.content) ?? '',
        number: 1,
      };
    } else if (call?.name === UPDATE && input) {
      const before = versionBefore(draft);
      const applied = before && applyUpdates(before.text, asArray(input.updates) ?? []);
      if (before && applied && 'text' in applied)
        version = { ...before, text: applied.text, number: before.number + 1 };
      else
        context.report({
          level: 'warning',
          code: 'canvas-update-not-applied',
          message: `message ${draft.key}: a canvas update could not be applied (${
            applied && 'error' in applied ? applied.error : 'no canvas before it on its thread'
          }); the update stays in its tool call`,
          record: context.record,
        });
    }
    versions.set(draft.key, version ?? null);
    return version;
  };

  for (const draft of drafts) {
    attachComments(draft, versionBefore, conversationId, context);
    const version = versionOf(draft);
    if (!version) continue;
    const name =
      version.number === 1 ? version.name : `${version.name} (version ${version.number})`;
    draft.attachments.push({
      type: 'document',
      name,
      mime_type: MIME[version.type] ?? 'text/plain',
      size_bytes: Buffer.byteLength(version.text, 'utf8'),
      ref: context.attachText(conversationId, version.name, version.text),
      provider_id: null,
    });
    draft.raw_metadata.canvas = {
      name: version.name,
      type: version.type,
      version: version.number,
    };
  }
}

/** Gives a message that commented on a canvas its comments, named after the version they are on. */
function attachComments(
  draft: DraftMessage,
  versionBefore: (draft: DraftMessage) => Version | undefined,
  conversationId: string,
  context: ConversionContext,
): void {
  const call = draft.tool_calls[0];
  const input = typeof call?.input === 'object' ? call.input : null;
  if (call?.name !== COMMENT || !input) return;
  const version = versionBefore(draft);
  const text = version ? commentsText(version, asArray(input.comments) ?? []) : '';
  if (!version || text === '') {
    context.report({
      level: 'warning',
      code: 'canvas-comment-not-placed',
      message: `message ${draft.key}: canvas comments ${
        version ? 'with no comment text' : 'with no canvas before them on their thread'
      }; they stay in their tool call`,
      record: context.record,
    });
    return;
  }
  const name = `${version.name} (comments on version ${version.number})`;
  draft.attachments.push({
    type: 'document',
    name,
    mime_type: 'text/markdown',
    size_bytes: Buffer.byteLength(text, 'utf8'),
    ref: context.attachText(conversationId, name, text),
    provider_id: null,
  });
  draft.raw_metadata.canvas = {
    name: version.name,
    type: version.type,
    version: version.number,
    comments: (asArray(input.comments) ?? []).length,
  };
}
