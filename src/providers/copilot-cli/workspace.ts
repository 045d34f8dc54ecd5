import { parse } from 'yaml';
import type { JsonObject } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { asObject, asText } from '../untrusted.js';

/** What a session folder's `workspace.yaml` says of it. */
export interface WorkspaceFacts {
  id: string | undefined;
  title: string | undefined;
  /** `cwd`, `git_branch` and the rest, under the events' own (which win). */
  raw: JsonObject;
}

/**
 * Reads `workspace.yaml`, written beside `events.jsonl` (the session's id, working folder, git
 * state, and the name or summary the CLI gave it). A file that is not YAML is reported; the
 * session is read without it.
 */
export function workspaceFacts(
  text: string | undefined,
  context: Pick<ConversionContext, 'report' | 'record'>,
): WorkspaceFacts {
  const facts: WorkspaceFacts = { id: undefined, title: undefined, raw: {} };
  if (text === undefined) return facts;
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    context.report({
      level: 'warning',
      code: 'bad-side-file',
      message: `workspace.yaml beside it is not YAML (${error instanceof Error ? error.message : String(error)}); the session is read without it`,
      record: context.record,
    });
    return facts;
  }
  const yaml = asObject(value) ?? {};
  facts.id = asText(yaml.id);
  facts.title = asText(yaml.name) ?? asText(yaml.summary);
  const cwd = asText(yaml.cwd);
  if (cwd !== undefined) facts.raw.cwd = cwd;
  const branch = asText(yaml.branch);
  if (branch !== undefined) facts.raw.git_branch = branch;
  const kept: JsonObject = {};
  for (const [key, item] of Object.entries(yaml))
    if (item === null || ['string', 'number', 'boolean'].includes(typeof item)) kept[key] = item;
  if (Object.keys(kept).length > 0) facts.raw.workspace = kept;
  return facts;
}
