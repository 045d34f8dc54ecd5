import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertRecord, type RecordTask } from './convert-record.js';
import { ALNUM, BASE64, chars } from '../../test/support/secret-chars.js';

/** A secret as pasted next to its marker, the value that must not survive, and that value as repeated bare. */
interface Secret {
  marked: string;
  secret: string;
  bare: string;
}

const shapes: Record<string, fc.Arbitrary<Secret>> = {
  'bearer token': chars(ALNUM, 24, 40).map((s) => ({
    marked: `curl -H "Authorization: Bearer ${s}" https://api.example.com`,
    secret: s,
    bare: `echo ${s}`,
  })),
  'URL password': fc.tuple(chars(ALNUM, 8, 20), fc.integer({ min: 0, max: 9 })).map(([s, d]) => ({
    marked: `DATABASE_URL=postgres://app:${s}${d}@db.internal:5432/prod`,
    secret: `${s}${d}`,
    bare: `the password is ${s}${d} for now`,
  })),
  'basic auth header': fc.tuple(chars(ALNUM, 3, 10), chars(ALNUM, 10, 24)).map(([user, pw]) => {
    const encoded = Buffer.from(`${user}:${pw}`).toString('base64');
    return { marked: `authorization: basic ${encoded}`, secret: encoded, bare: `token=${encoded}` };
  }),
  'private key with no END line': fc
    .array(chars(BASE64, 64), { minLength: 1, maxLength: 4 })
    .map((lines) => ({
      marked: `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}`,
      secret: lines[0] ?? '',
      bare: `the first line was ${lines[0] ?? ''} I think`,
    })),
  'openai key': chars(ALNUM, 32).map((s) => ({
    marked: `OPENAI_API_KEY=sk-proj-${s}`,
    secret: s,
    bare: `export OPENAI_API_KEY=sk-proj-${s}`,
  })),
};

// The two disguises: zero-width characters inside, and the full-width form (ｓｋ-…).
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];

function fullWidth(text: string): string {
  return text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
}

const disguise = fc.oneof(
  fc.constant((text: string) => text),
  fc.constant(fullWidth),
  fc.tuple(fc.constantFrom(...ZERO_WIDTH), fc.integer({ min: 2, max: 7 })).map(
    ([zw, every]) =>
      (text: string) =>
        Array.from(text, (c, i) => (i % every === every - 1 ? `${c}${zw}` : c)).join(''),
  ),
);

// Where a text can stand in a Claude.ai conversation.
const PLACES = ['title', 'prompt', 'attachment', 'thinking', 'tool input', 'tool output', 'reply'];

function conversation(texts: Map<string, string>): unknown {
  const at = (place: string): string => texts.get(place) ?? `nothing secret in the ${place}`;
  return {
    uuid: '0b7c6c3e-1111-4222-8333-444455556666',
    name: at('title'),
    created_at: '2025-03-01T10:00:00Z',
    updated_at: '2025-03-01T10:05:00Z',
    chat_messages: [
      {
        uuid: 'a1',
        sender: 'human',
        created_at: '2025-03-01T10:00:00Z',
        text: at('prompt'),
        content: [{ type: 'text', text: at('prompt') }],
        attachments: [{ file_name: 'notes.txt', extracted_content: at('attachment') }],
      },
      {
        uuid: 'a2',
        sender: 'assistant',
        created_at: '2025-03-01T10:01:00Z',
        text: at('reply'),
        content: [
          { type: 'thinking', thinking: at('thinking') },
          { type: 'tool_use', id: 't1', name: 'bash', input: { command: at('tool input') } },
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [{ type: 'text', text: at('tool output') }],
          },
          { type: 'text', text: at('reply') },
        ],
      },
    ],
  };
}

function task(record: unknown): RecordTask {
  return {
    provider: 'claude',
    variant: 'array',
    record: {
      kind: 'record',
      path: '',
      index: 0,
      offset: 0,
      bytes: Buffer.from(JSON.stringify(record)),
    },
    file: 'conversations.json',
    entryPath: 'conversations.json',
    fallbackTime: undefined,
    assetsKey: '',
    importedAt: '2025-03-02T00:00:00Z',
    checksum: 'sha256:00',
    redact: true,
  };
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object')
    for (const v of Object.values(value)) strings(v, out);
  return out;
}

// What a reader would recognise: the text undisguised.
function plain(text: string): string {
  return text.normalize('NFKC').replace(/[\u200b-\u200d\u2060\ufeff]/g, '');
}

describe('--redact over a whole conversation (properties)', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`a ${name}, disguised or not, survives nowhere once found in any part`, () => {
      fc.assert(
        fc.property(
          shape,
          fc.constantFrom(...PLACES),
          fc.constantFrom(...PLACES),
          disguise,
          disguise,
          fc.lorem({ maxCount: 8 }),
          ({ marked, secret, bare }, markedAt, bareAt, hideMarked, hideBare, prose) => {
            const texts = new Map<string, string>();
            texts.set(bareAt, `${prose}\n${hideBare(bare)}\n${prose}`);
            texts.set(markedAt, `${prose}\n${hideMarked(marked)}\n${prose}`);
            const result = convertRecord(task(conversation(texts)), undefined);
            expect(result.skipped).toBe(false);
            const stored = result.conversations.flatMap((c) => [
              ...strings(JSON.parse(c.text)),
              ...c.inlineAssets.map((a) => a.text),
            ]);
            expect(stored.length).toBeGreaterThan(0);
            for (const text of stored) expect(plain(text)).not.toContain(secret);
            expect(stored.some((t) => t.includes('[REDACTED:'))).toBe(true);
          },
        ),
        { numRuns: 150 },
      );
    });
  }

  it('leaves a conversation with no secret exactly as it converts without --redact', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...PLACES), fc.string({ unit: 'grapheme' })), {
          maxLength: 7,
        }),
        fc.lorem({ maxCount: 20 }),
        (parts, prose) => {
          const texts = new Map(parts.map(([place, text]) => [place, `${prose} ${text}`]));
          const record = conversation(texts);
          const masked = convertRecord(task(record), undefined);
          const kept = convertRecord({ ...task(record), redact: false }, undefined);
          expect(masked.conversations.map((c) => c.text)).toEqual(
            kept.conversations.map((c) => c.text),
          );
          expect(masked.redactions).toEqual({});
        },
      ),
      { numRuns: 200 },
    );
  });
});
