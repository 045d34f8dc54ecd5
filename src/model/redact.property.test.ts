import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactText, type RedactionCounts } from './redact.js';
import { ALNUM, BASE64, chars } from '../../test/support/secret-chars.js';

/** A secret shape: the text as it appears, and the part that must not survive. */
interface Secret {
  text: string;
  secret: string;
}

const base64Line = chars(BASE64, 64);
const shapes: Record<string, fc.Arbitrary<Secret>> = {
  'slack webhook': chars(ALNUM, 24).map((s) => ({
    text: `https://hooks.slack.com/services/T0${s.slice(0, 8)}/B0${s.slice(8, 16)}/${s}`,
    secret: s,
  })),
  'slack app token': chars(ALNUM, 40).map((s) => ({ text: `xapp-1-A0${s}`, secret: s })),
  'aws secret key in JSON': chars(BASE64, 40).map((s) => ({
    text: `{"AccessKeyId": "ASIAEXAMPLE", "SecretAccessKey": "${s}", "SessionToken": "x"}`,
    secret: s,
  })),
  'redis password': chars(ALNUM, 8, 30).map((s) => ({
    text: `redis://:${s}@cache.internal:6379/0`,
    secret: s,
  })),
  'pgp private key block': fc.array(base64Line, { minLength: 1, maxLength: 5 }).map((lines) => ({
    text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${lines.join('\n')}\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----`,
    secret: lines[0] ?? '',
  })),
  'private key with no END line': fc
    .array(base64Line, { minLength: 1, maxLength: 5 })
    .map((lines) => ({
      text: `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}`,
      secret: lines[lines.length - 1] ?? '',
    })),
  'google client secret': chars(ALNUM, 28).map((s) => ({ text: `GOCSPX-${s}`, secret: s })),
  'stripe webhook secret': chars(ALNUM, 32).map((s) => ({ text: `whsec_${s}`, secret: s })),
  'npm token': chars(ALNUM, 36).map((s) => ({ text: `npm_${s}`, secret: s })),
  'hugging face token': chars(ALNUM, 34).map((s) => ({ text: `hf_${s}`, secret: s })),
  'basic auth header': fc
    .tuple(chars(ALNUM, 3, 12), chars(ALNUM, 6, 20))
    .map(([user, password]) => {
      const encoded = Buffer.from(`${user}:${password}`).toString('base64');
      return { text: `Authorization: Basic ${encoded}`, secret: encoded };
    }),
  'password assignment': fc
    .tuple(chars(`${ALNUM}!#$%()*+,-./:;<>?@[]^_{|}~ `, 6, 30), fc.constantFrom('"', "'"))
    .filter(([s]) => s.trim().length >= 6)
    .map(([s, q]) => ({ text: `db_password = ${q}${s}${q}`, secret: s })),
};

// Prose: words with the punctuation of ordinary sentences, no secrets in it.
const prose = fc
  .array(
    fc.oneof(
      fc.lorem({ maxCount: 1 }),
      fc.constantFrom(
        'Basic',
        'Basic Configuration',
        'password',
        'the password is',
        'reset your password.',
        'keys',
        'https://example.com/a:b',
        'sk-learn',
        'Bearer of news',
        'hf_hub_download',
        'npm_config',
        'private key',
        'redis://localhost:6379',
        '2024-01-01',
        '—',
        '(see below)',
      ),
    ),
    { maxLength: 30 },
  )
  .map((words) => words.join(' '));

describe('redactText (properties)', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`masks a ${name} wherever it stands in prose`, () => {
      fc.assert(
        fc.property(prose, shape, prose, (before, { text, secret }, after) => {
          const counts: RedactionCounts = {};
          const masked = redactText(`${before}\n${text}\n${after}`, counts);
          expect(masked).not.toContain(secret);
          expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
        }),
        { numRuns: 200 },
      );
    });
  }

  it('leaves ordinary prose untouched', () => {
    fc.assert(
      fc.property(prose, (text) => {
        const counts: RedactionCounts = {};
        expect(redactText(text, counts)).toBe(text);
        expect(counts).toEqual({});
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent: masking masked text changes nothing', () => {
    fc.assert(
      fc.property(prose, fc.oneof(...Object.values(shapes)), (text, { text: secret }) => {
        const once = redactText(`${text} ${secret}`, {});
        expect(redactText(once, {})).toBe(once);
      }),
      { numRuns: 200 },
    );
  });
});
