import type { DraftMessage } from '../../model/draft.js';
import type { JsonObject } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';
import { applyUpdates, CanvasBudget, firstMatch } from './canvas-patterns.js';

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
  /** The platform's id of the document (`textdoc_id`), when its tool response names it. */
  doc: string | undefined;
}

/**
 * The documents as they stand at a message: the one written last (what an update names by
 * default), and each by its `textdoc_id`, so that a conversation with two canvases updates each.
 */
interface Canvases {
  last: Version | undefined;
  byDoc: ReadonlyMap<string, Version>;
}

const NONE: Canvases = { last: undefined, byDoc: new Map() };

const MIME: Record<string, string> = {
  document: 'text/markdown',
  'code/python': 'text/x-python',
  'code/javascript': 'text/javascript',
  'code/typescript': 'text/x-typescript',
  'code/html': 'text/html',
  'code/css': 'text/css',
};

/** Comments on a version as text: each under the passage its pattern matches, when it matches. */
function commentsText(version: Version, comments: unknown[], budget: CanvasBudget): string {
  const blocks: string[] = [];
  for (const item of comments) {
    const entry = asObject(item);
    const comment = asText(entry?.comment);
    if (comment === undefined) continue;
    const pattern = asString(entry?.pattern);
    const passage = pattern === undefined ? undefined : firstMatch(version.text, pattern, budget);
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
  const calls = drafts.filter((draft) => canvasCall(draft) !== undefined);
  if (calls.length === 0) return;
  const budget = new CanvasBudget(
    calls.reduce((sum, d) => sum + (d.content?.text?.length ?? 0), 0),
  );
  const byKey = new Map(drafts.map((d) => [d.key, d]));
  const parentOf = (draft: DraftMessage): DraftMessage | undefined =>
    draft.parentKey === null ? undefined : byKey.get(draft.parentKey);
  // The version in force at each message: its own, or the one before it on its thread. Worked
  // out parents first, without recursion, however the mapping orders its nodes.
  const inForce = new Map<string, Canvases>();
  const own = new Map<string, Version>();
  const beforeOf = new Map<string, Version | undefined>();
  const docOf = textdocIds(drafts);
  const resolve = (draft: DraftMessage): void => {
    const pending: DraftMessage[] = [];
    const seen = new Set<string>();
    for (
      let at = draft as DraftMessage | undefined;
      at && !inForce.has(at.key);
      at = parentOf(at)
    ) {
      if (seen.has(at.key)) break; // a cycle of parents: what is above it is not a thread
      seen.add(at.key);
      pending.push(at);
    }
    for (const at of pending.reverse()) {
      const parent = parentOf(at);
      const canvases = (parent && inForce.get(parent.key)) ?? NONE;
      const doc = docOf.get(at.key);
      const before = (doc !== undefined ? canvases.byDoc.get(doc) : undefined) ?? canvases.last;
      const version = versionAt(at, before, doc, budget, context);
      if (version) own.set(at.key, version);
      inForce.set(at.key, version ? withVersion(canvases, version) : canvases);
      beforeOf.set(at.key, before);
    }
  };
  for (const draft of drafts) resolve(draft);

  let leftOut = 0;
  for (const draft of drafts) {
    attachComments(draft, beforeOf.get(draft.key), conversationId, budget, context);
    const version = own.get(draft.key);
    if (!version) continue;
    draft.raw_metadata.canvas = { name: version.name, type: version.type, version: version.number };
    if (!budget.write(version.text.length)) {
      leftOut++;
      continue;
    }
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
  }
  if (leftOut > 0)
    context.report({
      level: 'warning',
      code: 'canvas-versions-left-out',
      message: `${leftOut} canvas version${leftOut === 1 ? ' was' : 's were'} not written: the conversation's versions together passed ${budget.maxWritten} characters, more than its canvas calls could make; the updates stay in their tool calls`,
      record: context.record,
    });
  // The call is shown as a call (its input kept whole in the tool call); its JSON is not the
  // message's text, which search would otherwise find before the document itself.
  for (const draft of calls)
    if (typeof draft.tool_calls[0]?.input === 'object' && draft.content)
      draft.content = { type: 'text', text: '' };
}

function withVersion(canvases: Canvases, version: Version): Canvases {
  if (version.doc === undefined) return { ...canvases, last: version };
  return { last: version, byDoc: new Map(canvases.byDoc).set(version.doc, version) };
}

/**
 * The document each canvas call wrote to, by the call's key: its tool response (the `tool`
 * message answering it) names it in `metadata.canvas.textdoc_id`.
 */
function textdocIds(drafts: readonly DraftMessage[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const draft of drafts) {
    if (draft.role !== 'tool' || draft.parentKey === null) continue;
    const canvas = asObject(asObject(draft.raw_metadata.metadata)?.canvas);
    const id = asText(canvas?.textdoc_id);
    if (id !== undefined && !ids.has(draft.parentKey)) ids.set(draft.parentKey, id);
  }
  return ids;
}

/** A canvas tool call of a message, with its input as JSON, or undefined. */
function canvasCall(draft: DraftMessage): { name: string; input: JsonObject } | undefined {
  const call = draft.tool_calls[0];
  if (!call || !call.name.startsWith('canmore.')) return undefined;
  const input = call.input !== null && typeof call.input === 'object' ? call.input : undefined;
  return input ? { name: call.name, input } : undefined;
}

/** The version a message writes (created, or updated from `before`), or undefined. */
function versionAt(
  draft: DraftMessage,
  before: Version | undefined,
  doc: string | undefined,
  budget: CanvasBudget,
  context: ConversionContext,
): Version | undefined {
  const call = canvasCall(draft);
  if (call?.name === CREATE) {
    const text = asString(call.input.content) ?? '';
    if (text.length > budget.maxDocument) {
      notApplied(draft, `the document is longer than ${budget.maxDocument} characters`, context);
      return undefined;
    }
    return {
      name: asText(call.input.name) ?? 'Untitled canvas',
      type: asText(call.input.type) ?? 'document',
      text,
      number: 1,
      doc,
    };
  }
  if (call?.name !== UPDATE) return undefined;
  if (!before) {
    notApplied(draft, 'no canvas before it on its thread', context);
    return undefined;
  }
  const applied = applyUpdates(before.text, asArray(call.input.updates) ?? [], budget);
  if ('error' in applied) {
    notApplied(draft, applied.error, context);
    return undefined;
  }
  return { ...before, text: applied.text, number: before.number + 1, doc: doc ?? before.doc };
}

function notApplied(draft: DraftMessage, why: string, context: ConversionContext): void {
  context.report({
    level: 'warning',
    code: 'canvas-update-not-applied',
    message: `message ${draft.key}: a canvas ${canvasCall(draft)?.name === CREATE ? 'document' : 'update'} could not be applied (${why}); it stays in its tool call`,
    record: context.record,
  });
}

/** Gives a message that commented on a canvas its comments, named after the version they are on. */
function attachComments(
  draft: DraftMessage,
  version: Version | undefined,
  conversationId: string,
  budget: CanvasBudget,
  context: ConversionContext,
): void {
  const call = canvasCall(draft);
  if (call?.name !== COMMENT) return;
  const input = call.input;
  const text = version ? commentsText(version, asArray(input.comments) ?? [], budget) : '';
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
