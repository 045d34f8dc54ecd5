import { runInNewContext } from 'node:vm';
import { RE2JS } from 're2js';
import type { JsonObject } from '../../model/pam.js';
import { asObject, asString } from '../untrusted.js';

/*
 * canmore's updates are Python regular expressions, "used with re.finditer" under DOTALL, and
 * replacement strings "used with re.Match.expand" (the tool's own instructions). They come from
 * an export, so from anyone: a pattern such as `(a+)+$` would backtrack for ever in JavaScript's
 * engine, and a replacement such as `\1\1` doubles the document at each update. So patterns run
 * on RE2 (re2js: linear time, no back-tracking); the few RE2 lacks (look-arounds, back-references)
 * run on V8's engine under a time limit; and every document, and all the versions a conversation
 * writes, are bounded by what the export itself gave (see {@link CanvasBudget}).
 */

/** One match: where it is, and its groups (numbered, and named). */
interface Match {
  start: number;
  end: number;
  groups: (string | undefined)[];
  named: Record<string, string | undefined>;
}

/** A compiled pattern: its matches in a text, from the first (all of them when `all`). */
type Matcher = (text: string, all: boolean) => Match[];

/** The V8 engine's time for one pattern RE2 cannot run (a look-around, a back-reference). */
const FALLBACK_MILLISECONDS = 1000;

/** A pattern longer than this is not an edit a model makes: it is refused, not run. */
const MAX_PATTERN = 8 * 1024;

/** The Python flags canmore's patterns may set inline at their start, `(?si)`. */
const INLINE_FLAGS = /^\(\?([aiLmsux]+)\)/;

/** The pattern as RE2 reads it (`(?P<name>` is RE2's own syntax), and its flags. */
function toRe2(pattern: string): { source: string; flags: number } {
  let source = pattern;
  let flags = RE2JS.DOTALL;
  const inline = INLINE_FLAGS.exec(source)?.[1];
  if (inline !== undefined) {
    if (inline.includes('x')) throw new Error('verbose patterns ((?x)) are not supported');
    if (inline.includes('i')) flags |= RE2JS.CASE_INSENSITIVE;
    if (inline.includes('m')) flags |= RE2JS.MULTILINE;
    source = source.slice(inline.length + 3);
  }
  // Python's \Z is the very end, RE2's \z.
  return { source: source.replace(/(?<!\\)((?:\\\\)*)\\Z/g, '$1\\z'), flags };
}

function re2Matcher(pattern: string): Matcher {
  const { source, flags } = toRe2(pattern);
  const compiled = RE2JS.compile(source, flags);
  const names = Object.entries(compiled.namedGroups());
  return (text, all) => {
    const matches: Match[] = [];
    const matcher = compiled.matcher(text);
    let from = 0;
    let lastEnd = -1;
    while (from <= text.length && matcher.find(from)) {
      const start = matcher.start();
      const end = matcher.end();
      // An empty match where the one before ended is not one more (`.*` is the whole text
      // once, not the text and then the empty string at its end).
      if (start === end && start === lastEnd) {
        from = end + 1;
        continue;
      }
      const groups: (string | undefined)[] = [];
      for (let g = 0; g <= matcher.groupCount(); g++) groups.push(matcher.group(g) ?? undefined);
      const named: Record<string, string | undefined> = {};
      for (const [name, index] of names) named[name] = groups[index];
      matches.push({ start, end, groups, named });
      if (!all) break;
      lastEnd = end;
      from = end === start ? end + 1 : end;
    }
    return matches;
  };
}

/** The pattern as V8 reads it: named groups and back-references renamed, flags lifted. */
function toV8(pattern: string): { source: string; flags: string } {
  let source = pattern;
  let flags = 'gs';
  const inline = INLINE_FLAGS.exec(source)?.[1];
  if (inline !== undefined) {
    if (inline.includes('x')) throw new Error('verbose patterns ((?x)) are not supported');
    if (inline.includes('i')) flags += 'i';
    if (inline.includes('m')) flags += 'm';
    source = source.slice(inline.length + 3);
  }
  source = source
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=(\w+)\)/g, '\\k<$1>')
    .replace(/(?<!\\)((?:\\\\)*)\\A/g, '$1(?<![\\s\\S])')
    .replace(/(?<!\\)((?:\\\\)*)\\Z/g, '$1(?![\\s\\S])');
  return { source, flags };
}

// Runs in a context of its own, so that the time limit can stop it mid-match.
const V8_SCRIPT = `(() => {
  const re = new RegExp(source, flags);
  const found = [];
  let lastEnd = -1;
  for (const m of text.matchAll(re)) {
    const start = m.index, end = start + m[0].length;
    if (start === end && start === lastEnd) continue;
    found.push({ start, end, groups: Array.from(m), named: m.groups ? { ...m.groups } : {} });
    if (!all) break;
    lastEnd = end;
  }
  return JSON.stringify(found);
})()`;

function v8Matcher(pattern: string): Matcher {
  const { source, flags } = toV8(pattern);
  new RegExp(source, flags); // a pattern V8 cannot read either fails here, with its reason
  return (text, all) => {
    let found: unknown;
    try {
      found = runInNewContext(
        V8_SCRIPT,
        { source, flags, text, all },
        { timeout: FALLBACK_MILLISECONDS },
      );
    } catch (error) {
      // Errors of the other context are not this realm's `Error`s: told apart by their code.
      const code = asObject(error)?.code;
      if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
        throw new Error(`it ran past ${FALLBACK_MILLISECONDS} ms and was stopped`, {
          cause: error,
        });
      throw new Error(messageOf(error), { cause: error });
    }
    return typeof found === 'string' ? parseMatches(found) : [];
  };
}

function parseMatches(json: string): Match[] {
  const raw: unknown = JSON.parse(json);
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown) => {
    const match = asObject(item);
    if (!match || typeof match.start !== 'number' || typeof match.end !== 'number') return [];
    const groups = (Array.isArray(match.groups) ? match.groups : []).map((g: unknown) =>
      typeof g === 'string' ? g : undefined,
    );
    const named: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(asObject(match.named) ?? {}))
      named[name] = asString(value);
    return [{ start: match.start, end: match.end, groups, named }];
  });
}

/** A Python pattern, compiled on RE2, or on V8 under a time limit when RE2 cannot read it. */
export function compilePattern(pattern: string): Matcher {
  if (pattern.length > MAX_PATTERN)
    throw new Error(`the pattern is ${pattern.length} characters long, past ${MAX_PATTERN}`);
  // `.` alone is `.*` with its star lost: some copies of canmore's instructions say "rewrite
  // with a single update with "." as the pattern" (Markdown ate the `*`); a one-character edit
  // by a whole document is never what was meant.
  const source = pattern === '.' ? '.*' : pattern;
  try {
    return re2Matcher(source);
  } catch (re2Error) {
    try {
      return v8Matcher(source);
    } catch {
      throw re2Error;
    }
  }
}

/** Python's replacement syntax (`\1`, `\g<name>`, `\n`) expanded against one match. */
function expand(replacement: string, match: Match): string {
  return replacement.replace(/\\(?:g<([^>]+)>|(\d{1,2})|(.))/gs, (escape, name, digit, char) => {
    if (typeof name === 'string')
      return /^\d+$/.test(name) ? (match.groups[Number(name)] ?? '') : (match.named[name] ?? '');
    if (typeof digit === 'string') return match.groups[Number(digit)] ?? '';
    const chars: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };
    return chars[String(char)] ?? escape;
  });
}

/**
 * How much canvas text one conversation may make, from how much the export gave for it (the
 * text of its canvas calls, in characters): no document may outgrow four times that (nor 256 Ki
 * characters when the calls were short), the versions written together stay within 128 times
 * it (1 Mi at least), and the patterns together read at most 1024 times it (64 Mi at least).
 * A real canvas is made of the text its calls carry; these bounds only stop one that multiplies
 * itself. Past one, an update is not applied (or a version not written), with a warning.
 */
export class CanvasBudget {
  readonly maxDocument: number;
  readonly maxWritten: number;
  private workLeft: number;
  private writtenLeft: number;

  constructor(inputCharacters: number) {
    this.maxDocument = Math.max(256 * 1024, 4 * inputCharacters);
    this.maxWritten = Math.max(1024 * 1024, 128 * inputCharacters);
    this.writtenLeft = this.maxWritten;
    this.workLeft = Math.max(64 * 1024 * 1024, 1024 * inputCharacters);
  }

  /** Takes the reading of `characters` from the budget, or says why it cannot be read. */
  read(characters: number): string | undefined {
    if (characters > this.workLeft)
      return `the conversation's canvas patterns have read ${Math.max(0, this.workLeft) === 0 ? 'all' : 'nearly all'} the text its calls allow`;
    this.workLeft -= characters;
    return undefined;
  }

  /** Whether a version of `characters` can still be written, and if so takes it. */
  write(characters: number): boolean {
    if (characters > this.writtenLeft) return false;
    this.writtenLeft -= characters;
    return true;
  }
}

/** The document after one update call, or an error saying why it could not be applied. */
export function applyUpdates(
  text: string,
  updates: unknown[],
  budget: CanvasBudget,
): { text: string } | { error: string } {
  let out = text;
  for (const item of updates) {
    const update: JsonObject = asObject(item) ?? {};
    const pattern = asString(update.pattern);
    const replacement = asString(update.replacement) ?? '';
    if (pattern === undefined) return { error: 'an update has no pattern' };
    const tooMuch = budget.read(out.length);
    if (tooMuch !== undefined) return { error: tooMuch };
    let matches: Match[];
    try {
      matches = compilePattern(pattern)(out, update.multiple === true);
    } catch (error) {
      return {
        error: `the pattern ${JSON.stringify(pattern.slice(0, 200))} could not be applied (${messageOf(error)})`,
      };
    }
    if (matches.length === 0)
      return { error: `the pattern ${JSON.stringify(pattern.slice(0, 200))} matches nothing` };
    const pieces: string[] = [];
    let length = 0;
    let at = 0;
    for (const match of matches) {
      const piece = out.slice(at, match.start) + expand(replacement, match);
      length += piece.length;
      // Checked as it grows, so that a multiplying update stops before it fills the memory.
      if (length > budget.maxDocument) return { error: grew(budget) };
      pieces.push(piece);
      at = match.end;
    }
    pieces.push(out.slice(at));
    length += out.length - at;
    if (length > budget.maxDocument) return { error: grew(budget) };
    out = pieces.join('');
  }
  return { text: out };
}

function messageOf(error: unknown): string {
  const message = asObject(error)?.message;
  return typeof message === 'string' ? message : String(error);
}

function grew(budget: CanvasBudget): string {
  return `it would make the document longer than ${budget.maxDocument} characters, more than the conversation's canvas calls could have written`;
}

/** The first passage a comment's pattern picks out, or undefined (none, or not readable). */
export function firstMatch(
  text: string,
  pattern: string,
  budget: CanvasBudget,
): string | undefined {
  if (budget.read(text.length) !== undefined) return undefined;
  try {
    const [match] = compilePattern(pattern)(text, false);
    return match ? text.slice(match.start, match.end) : undefined;
  } catch {
    // A pattern we cannot read leaves the comment without its passage, not lost.
    return undefined;
  }
}
