/** Secrets `--redact` masks, by kind: each match becomes `[REDACTED:<kind>]`. */
const PATTERNS: [kind: string, pattern: RegExp, keep?: number][] = [
  [
    'private-key',
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g,
  ],
  ['anthropic-key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai-key', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g],
  ['stripe-key', /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g],
  ['aws-access-key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['aws-secret-key', /(aws_secret_access_key\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}/gi, 1],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g],
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['slack-token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  ['jwt', /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g],
  ['bearer-token', /(\bbearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi, 1],
  ['url-password', /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi, 1],
];

/** Counts of what was masked, by kind. */
export type RedactionCounts = Record<string, number>;

/** Masks secrets in one string. */
export function redactText(text: string, counts: RedactionCounts): string {
  let result = text;
  for (const [kind, pattern, keep] of PATTERNS) {
    result = result.replace(pattern, (...match: unknown[]) => {
      counts[kind] = (counts[kind] ?? 0) + 1;
      const prefix = keep === 1 ? String(match[1]) : '';
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
