/** One secret shape: its kind, its pattern, and how much of the match stays. */
interface SecretShape {
  kind: string;
  pattern: RegExp;
  /** The match's first group is context that stays (`password = "`), the rest is masked. */
  keepPrefix?: boolean;
  /** A further test of the masked part, for shapes that ordinary words can take. */
  check?: (secret: string) => boolean;
  /** The values to mask wherever else they stand bare (the masked part, unless given). */
  values?: (secret: string) => string[];
  /** What every match holds: a text without it is not searched for the shape (a quick scan). */
  hint: RegExp;
}

// A base64 run that is not a word: it has a digit, `+`, `/` or `=`, or is 16 characters long.
const KEY_RUN = String.raw`(?:(?=[A-Za-z0-9+/=]*[0-9+/=]|[A-Za-z0-9+/=]{16})[A-Za-z0-9+/=]+(?![A-Za-z0-9+/=]))`;
const KEY_HEADER = String.raw`(?:(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset): [^\r\n]*)`;
// A line break, or one written as an escape (`\n`, `\\n`): a key pasted inside a JSON string.
const KEY_SEP = String.raw`(?:\s|\\+[rn])`;
// A short last line of base64 (letters only), alone on its line.
const KEY_LINE = String.raw`(?:(?<=\n|\\[rn])[A-Za-z0-9+/=]{4,}(?=[ \t]*(?:\r?\n|\\+[rn]|$)))`;
const KEY_PART = `(?:${KEY_RUN}|${KEY_HEADER}|${KEY_LINE})`;

// A PEM or PGP private key, through its END line; with no END line (a key pasted cut off),
// through the header lines and base64 runs that follow the BEGIN line, on lines or not.
const PRIVATE_KEY = new RegExp(
  String.raw`-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?-----END \1-----|${KEY_SEP}*${KEY_PART}(?:${KEY_SEP}+${KEY_PART})*)`,
  'g',
);

/** Secrets `--redact` masks, by kind: each match becomes `[REDACTED:<kind>]`. */
const SHAPES: SecretShape[] = [
  { kind: 'private-key', pattern: PRIVATE_KEY, hint: /-----BEGIN /, values: keyBody },
  { kind: 'anthropic-key', hint: /sk-ant-/, pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'openai-key',
    hint: /sk-/,
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: 'stripe-key',
    hint: /_(?:live|test)_|whsec_/,
    pattern: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})/g,
  },
  { kind: 'aws-access-key', hint: /AKIA|ASIA/, pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    // aws_secret_access_key = …, and the JSON of `aws sts`/`aws iam`: "SecretAccessKey": "…".
    kind: 'aws-secret-key',
    hint: /access_?key/i,
    pattern:
      /((?:aws_?)?secret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    keepPrefix: true,
  },
  {
    kind: 'github-token',
    hint: /gh[pousr]_|github_pat_/,
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  { kind: 'google-api-key', hint: /AIza/, pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'google-client-secret', hint: /GOCSPX-/, pattern: /\bGOCSPX-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'slack-token',
    hint: /xox[abposr]-|xapp-/,
    pattern: /\b(?:xox[abposr]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})/g,
  },
  {
    kind: 'slack-webhook',
    hint: /hooks\.slack\.com/,
    pattern:
      /(\bhttps?:\/\/hooks\.slack\.com\/)(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{8,}/g,
    keepPrefix: true,
  },
  { kind: 'npm-token', hint: /npm_/, pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { kind: 'huggingface-token', hint: /hf_/, pattern: /\bhf_[A-Za-z0-9]{30,}(?![A-Za-z0-9_])/g },
  {
    kind: 'jwt',
    hint: /eyJ/,
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  },
  {
    kind: 'bearer-token',
    hint: /bearer/i,
    pattern: /(\bbearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi,
    keepPrefix: true,
  },
  {
    // "Basic" is an ordinary word: only base64 that decodes to user:password is masked.
    kind: 'basic-auth',
    hint: /basic/i,
    pattern: /(\bBasic\s+)[A-Za-z0-9+/]{4,}={0,2}(?![A-Za-z0-9+/=])/gi,
    keepPrefix: true,
    check: isBasicCredentials,
    values: (encoded) => [encoded, basicPassword(encoded)],
  },
  {
    // Authorization: <scheme> <credentials>, any scheme (Basic credentials that are not UTF-8,
    // Digest, a bare token), as a header or a JSON member; a value of code (`undefined`) is not
    // one: it has a digit or a symbol of base64, or is 16 characters long.
    kind: 'authorization',
    hint: /authorization/i,
    pattern:
      /(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:[A-Za-z][A-Za-z0-9_-]*[ \t]+)?)[A-Za-z0-9._~+/-]{8,}=*/gi,
    keepPrefix: true,
    check: (value) => /[0-9+/=]/.test(value) || value.length >= 16,
  },
  {
    // scheme://user:password@host, and scheme://:password@host (Redis has no user).
    kind: 'url-password',
    hint: /:\/\//,
    pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+(?=@)/gi,
    keepPrefix: true,
  },
  {
    // password = "…", "password": "…", PASSWORD: '…' (the quotes stay).
    kind: 'password',
    hint: /pass/i,
    pattern:
      /(\b[A-Za-z0-9_-]*(?:password|passwd|passphrase)["']?\s*[:=]\s*["'])[^"'\n]{1,200}(?=["'])/gi,
    keepPrefix: true,
  },
  {
    // password=… unquoted, as in a .env file or a query string.
    kind: 'password',
    hint: /pass/i,
    pattern: /(\b[A-Za-z0-9_-]*(?:password|passwd|passphrase)=)[^\s"'&,;<>]{4,}/gi,
    keepPrefix: true,
  },
];

function decodeBasic(encoded: string): string {
  return Buffer.from(encoded, 'base64').toString('utf8');
}

// user:password, printable (any script), the user not empty.
function isBasicCredentials(encoded: string): boolean {
  const decoded = decodeBasic(encoded);
  return decoded.indexOf(':') > 0 && !/[\p{Cc}\uFFFD]/u.test(decoded);
}

function basicPassword(encoded: string): string {
  const decoded = decodeBasic(encoded);
  return decoded.slice(decoded.indexOf(':') + 1);
}

// A key's body, run by run: a run repeated without its BEGIN line is masked too.
function keyBody(key: string): string[] {
  return key
    .replace(/-----(?:BEGIN|END) [A-Z0-9 ]+-----/g, ' ')
    .split(/(?:\s|\\+[rn])+/)
    .filter((run) => run.length >= 16 && /^[A-Za-z0-9+/=]+$/.test(run));
}

/**
 * Whether a found value is masked wherever it stands bare: one with a digit or a symbol, or
 * of 12 characters or more. Letters (and spaces) only and shorter are words a conversation
 * uses anyway: `password = "Password"` must not mask every "Password" in the code and prose.
 */
function isDistinctive(value: string): boolean {
  if (value.length < 6 || value.startsWith('[REDACTED:')) return false;
  return value.length >= 12 || /[^\p{L}\p{M}\s]/u.test(value);
}

// The names of a credentials header, as a JSON member's key (`{"Authorization": "Basic …"}`).
const HEADER_KEY = /^(?:proxy-)?authorization$/i;

/** Counts of what was masked, by kind. */
export type RedactionCounts = Record<string, number>;

// Characters that draw nothing: a key split by them must still be found.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
const NOT_ASCII = /[^ -~\t\n\r]/;

/** A text as secrets are looked for in it (NFKC, invisible characters gone), and where each of its code units came from. */
interface Normalised {
  text: string;
  /** The original index of each code unit of `text` (and the original length, last); none when `text` is the original. */
  origin: Int32Array | undefined;
}

const nfkcCache = new Map<string, string>();

function nfkc(char: string): string {
  let normal = nfkcCache.get(char);
  if (normal === undefined) {
    normal = INVISIBLE.test(char) ? '' : char.normalize('NFKC');
    if (nfkcCache.size < 65_536) nfkcCache.set(char, normal);
  }
  return normal;
}

// Character by character, so every normalised position leads back to the original (a
// whole-text NFKC would compose across characters, which no secret shape needs).
function normalise(text: string): Normalised {
  if (!NOT_ASCII.test(text) || (!INVISIBLE.test(text) && text.normalize('NFKC') === text))
    return { text, origin: undefined };
  const parts: string[] = [];
  const origin: number[] = [];
  let changed = false;
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    if (code < 0x80) {
      parts.push(text[i] ?? '');
      origin.push(i);
    } else {
      const char = text.slice(i, i + width);
      const normal = nfkc(char);
      if (normal !== char) changed = true;
      parts.push(normal);
      for (let k = 0; k < normal.length; k++) origin.push(i);
    }
    i += width;
  }
  if (!changed) return { text, origin: undefined };
  origin.push(text.length);
  return { text: parts.join(''), origin: Int32Array.from(origin) };
}

/** A part of a text to mask, in normalised positions. */
interface Span {
  start: number;
  end: number;
  kind: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Masks secrets, and every other occurrence of each secret it has found: `learn` first over
 * everything that belongs together (a conversation, its attachments' texts, its tool calls),
 * then `mask` over the same, so a token found after `Bearer` is masked too where a tool echoed
 * it bare. Texts are matched NFKC-normalised with invisible characters removed (`ｓｋ-…`, a key
 * split by zero-width spaces); what is not masked is kept exactly as it was.
 */
export class Redactor {
  private readonly known = new Map<string, string>();
  private literals: RegExp | undefined;
  private found = false;

  /** Finds the secrets in a text, to mask them wherever they stand. */
  learnText(text: string): void {
    this.spans(normalise(text).text, undefined);
  }

  /** Finds the secrets in every string of a JSON value (keys left alone). */
  learn(value: unknown): void {
    if (typeof value === 'string') this.learnText(value);
    else if (Array.isArray(value)) for (const item of value) this.learn(item);
    else if (value !== null && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) {
        // A header object's value stands without its name: read as the header it is.
        if (typeof inner === 'string' && HEADER_KEY.test(key)) this.learnText(`${key}: ${inner}`);
        else this.learn(inner);
      }
  }

  /** Whether anything learnt held a secret (when not, `mask` changes nothing learnt). */
  get hasSecrets(): boolean {
    return this.found;
  }

  /** Masks the secrets of a text (its own, and those learnt), counting them by kind. */
  maskText(text: string, counts: RedactionCounts): string {
    const normal = normalise(text);
    const spans = this.spans(normal.text, this.literalPattern());
    if (spans.length === 0) return text;
    const { origin } = normal;
    const at = (i: number): number => (origin ? (origin[i] ?? text.length) : i);
    let out = '';
    let last = 0;
    for (const span of spans) {
      out += `${text.slice(last, at(span.start))}[REDACTED:${span.kind}]`;
      last = at(span.end);
      counts[span.kind] = (counts[span.kind] ?? 0) + 1;
    }
    return out + text.slice(last);
  }

  /** A copy of a JSON value with the secrets masked in every string (keys left alone). */
  mask<T>(value: T, counts: RedactionCounts): T {
    if (typeof value === 'string') return this.maskText(value, counts) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.mask(item, counts)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) out[key] = this.mask(inner, counts);
      return out as T;
    }
    return value;
  }

  private remember(kind: string, value: string): void {
    this.found = true;
    if (!isDistinctive(value) || this.known.has(value)) return;
    this.known.set(value, kind);
    this.literals = undefined;
  }

  private literalPattern(): RegExp | undefined {
    if (this.known.size === 0) return undefined;
    // Longest first, so a value that holds another is masked whole; bare means not inside a
    // longer word or token.
    this.literals ??= new RegExp(
      `(?<![A-Za-z0-9])(?:${[...this.known.keys()]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|')})(?![A-Za-z0-9])`,
      'g',
    );
    return this.literals;
  }

  // The parts of a normalised text to mask, in order and not overlapping; learns the values.
  private spans(text: string, literals: RegExp | undefined): Span[] {
    const found: (Span & { rank: number })[] = [];
    SHAPES.forEach(({ kind, pattern, keepPrefix, check, values, hint }, rank) => {
      if (!hint.test(text)) return;
      for (const match of text.matchAll(pattern)) {
        const prefix = keepPrefix === true ? (match[1] ?? '') : '';
        const secret = match[0].slice(prefix.length);
        if (secret === '' || (check && !check(secret))) continue;
        const start = match.index + prefix.length;
        found.push({ start, end: start + secret.length, kind, rank });
        for (const value of values ? values(secret) : [secret]) this.remember(kind, value);
      }
    });
    if (literals) {
      for (const match of text.matchAll(literals)) {
        const kind = this.known.get(match[0]) ?? 'secret';
        found.push({
          start: match.index,
          end: match.index + match[0].length,
          kind,
          rank: SHAPES.length,
        });
      }
    }
    if (found.length === 0) return [];
    found.sort((a, b) => a.start - b.start || a.rank - b.rank);
    const spans: Span[] = [];
    for (const { start, end, kind } of found) {
      const previous = spans[spans.length - 1];
      if (previous && start < previous.end) previous.end = Math.max(previous.end, end);
      else spans.push({ start, end, kind });
    }
    return spans;
  }
}

/** Masks secrets in one string (each found is masked wherever it stands in it). */
export function redactText(text: string, counts: RedactionCounts): string {
  const redactor = new Redactor();
  redactor.learnText(text);
  return redactor.maskText(text, counts);
}

/** A copy of any JSON value with secrets masked in every string (keys left alone), each found masked wherever it stands in the value. */
export function redactValue<T>(value: T, counts: RedactionCounts): T {
  const redactor = new Redactor();
  redactor.learn(value);
  return redactor.hasSecrets ? redactor.mask(value, counts) : value;
}
