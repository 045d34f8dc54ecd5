import type { JsonObject } from '../../model/pam.js';
import type { LogLine } from '../log-lines.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asNumber, asObject } from '../untrusted.js';

/**
 * Replays a chat session's operation log (`chatSessions/<id>.jsonl`, VS Code 1.10x and later:
 * microsoft/vscode, src/vs/workbench/contrib/chat/common/model/objectMutationLog.ts) into the
 * session object it records: `kind` 0 the whole object (the first line, and again whenever
 * VS Code compacts the log), 1 a value set at the path `k`, 2 items `v` pushed onto the array
 * at `k` (everything from index `i` on dropped first, when given), 3 the value at `k` deleted.
 * An operation whose path is not there is reported by its line and skipped.
 */
export function replayOperations(
  lines: readonly LogLine[],
  context: Pick<ConversionContext, 'report'>,
): JsonObject | undefined {
  let state: JsonObject | undefined;
  for (const { line, entry } of lines) {
    if (!entry) continue;
    const kind = asNumber(entry.kind);
    const path = asArray(entry.k) ?? [];
    const skip = (why: string): void => {
      context.report({
        level: 'warning',
        code: 'bad-operation',
        message: `line ${line}: ${why}; the operation is skipped`,
        record: `line ${line}`,
      });
    };
    if (kind === 0) {
      state = asObject(entry.v) ?? {};
      continue;
    }
    if (!state) {
      skip('an operation before the log’s first full state');
      continue;
    }
    const parent = walk(state, path.slice(0, -1));
    const last = path.at(-1);
    if (kind === 1 || kind === 3) {
      if (
        !parent ||
        (typeof last !== 'string' && typeof last !== 'number') ||
        (typeof last === 'string' && UNSAFE_KEYS.has(last))
      ) {
        skip(`no value at ${pathText(path)}`);
        continue;
      }
      const value = kind === 1 ? entry.v : undefined;
      if (Array.isArray(parent) && typeof last === 'number') parent[last] = value;
      else if (!Array.isArray(parent) && typeof last === 'string') {
        if (value === undefined) Reflect.deleteProperty(parent, last);
        else parent[last] = value;
      } else skip(`${pathText(path)} does not fit its container`);
    } else if (kind === 2) {
      const target = walk(state, path);
      if (!Array.isArray(target)) {
        skip(`no array at ${pathText(path)}`);
        continue;
      }
      const from = asNumber(entry.i);
      if (from !== undefined) target.length = Math.max(0, Math.min(target.length, from));
      for (const item of asArray(entry.v) ?? []) target.push(item);
    } else skip(`operation kind ${String(entry.kind)} is not known`);
  }
  return state;
}

// The value at a path of keys and indexes, or undefined when the path leads nowhere. Only a
// value's own keys are followed: a path through `__proto__` or `constructor` (a damaged or
// hostile log) must not reach, and then change, an object's prototype.
function walk(root: JsonObject, path: readonly unknown[]): JsonObject | unknown[] | undefined {
  let at: unknown = root;
  for (const step of path) {
    const object = asObject(at);
    if (Array.isArray(at) && typeof step === 'number') at = at[step];
    else if (object && typeof step === 'string' && Object.hasOwn(object, step)) at = object[step];
    else return undefined;
  }
  return Array.isArray(at) ? at : asObject(at);
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function pathText(path: readonly unknown[]): string {
  return (
    path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${String(step)}`)).join('') ||
    '<root>'
  );
}
