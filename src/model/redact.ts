/** One secret shape: its kind, its pattern, and how much of the match stays. */
interface SecretShape {
  kind: string;
  pattern: RegExp;
  /** The match's first group is context that stays (`password = "`), the rest is masked. */
  keepPrefix?: boolean;
  /** A further test of the masked part, for shapes that ordinary words can take. */
  check?: (secret: string) => boolean;
}

// A PEM or PGP private key, through its END line; with no END line (a key pasted cut off),
// through the base64 and header lines that follow the BEGIN line.
const PRIVATE_KEY =
  /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?-----END \1-----|(?:[ \t]*\r?\n[A-Za-z0-9+/=:, \t-]*)*)/g;

/** Secrets `--redact` masks, by kind: each match becomes `[REDACTED:<kind>]`. */
const SHAPES: SecretShape[] = [
  { kind: 'private-key', pattern: PRIVATE_KEY },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'stripe-key',
    pattern: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})/g,
  },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    // aws_secret_access_key = …, and the JSON of `aws sts`/`aws iam`: "SecretAccessKey": "…".
    kind: 'aws-secret-key',
    pattern:
      /((?:aws_?)?secret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    keepPrefix: true,
  },
  {
    kind: 'github-token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'google-client-secret', pattern: /\bGOCSPX-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'slack-token',
    pattern: /\b(?:xox[abposr]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})/g,
  },
  {
    kind: 'slack-webhook',
    pattern:
      /(\bhttps?:\/\/hooks\.slack\.com\/)(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{8,}/g,
    keepPrefix: true,
  },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}(?![A-Za-z0-9_])/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  { kind: 'bearer-token', pattern: /(\bbearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi, keepPrefix: true },
  {
    // "Basic" is an ordinary word: only base64 that decodes to user:password is masked.
    kind: 'basic-auth',
    pattern: /(\bBasic\s+)[A-Za-z0-9+/]{4,}={0,2}(?![A-Za-z0-9+/=])/g,
    keepPrefix: true,
    check: isBasicCredentials,
  },
  {
    // scheme://user:password@host, and scheme://:password@host (Redis has no user).
    kind: 'url-password',
    pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+(?=@)/gi,
    keepPrefix: true,
  },
  {
    // password = "…", "password": "…", PASSWORD: '…' (the quotes stay).
    kind: 'password',
    pattern:
      /(\b[A-Za-z0-9_-]*(?:password|passwd|passphrase)["']?\s*[:=]\s*["'])[^"'\n]{1,200}(?=["'])/gi,
    keepPrefix: true,
  },
  {
    // password=… unquoted, as in a .env file or a query string.
    kind: 'password',
    pattern: /(\b[A-Za-z0-9_-]*(?:password|passwd|passphrase)=)[^\s"'&,;<>]{4,}/gi,
    keepPrefix: true,
  },
];

function isBasicCredentials(encoded: string): boolean {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded) && decoded.indexOf(':') > 0;
}

/** Counts of what was masked, by kind. */
export type RedactionCounts = Record<string, number>;

/** Masks secrets in one string. */
export function redactText(text: string, counts: RedactionCounts): string {
  let result = text;
  for (const { kind, pattern, keepPrefix, check } of SHAPES) {
    result = result.replace(pattern, (...match: unknown[]) => {
      const whole = String(match[0]);
      const prefix = keepPrefix === true ? String(match[1]) : '';
      if (check && !check(whole.slice(prefix.length))) return whole;
      counts[kind] = (counts[kind] ?? 0) + 1;
      return `${prefix}[REDACTED:${kind}]`;
    });
  }
  return result;
}

/** A copy of any JSON value with secrets masked in every string (keys left alone). */
export function redactValue<T>(value: T, counts: RedactionCounts): T {
  if (typeof value === 'string') return redactText(value, counts) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactValue(item, counts)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = redactValue(inner, counts);
    return out as T;
  }
  return value;
}
