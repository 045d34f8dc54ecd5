import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/model/diagnostic.js';
import type { Conversation } from '../src/model/pam.js';
import { InlineTexts } from '../src/bundle/inline-text.js';
import type { ConversionContext } from '../src/providers/provider.js';
import { findProvider } from '../src/providers/registry.js';
import { parseRecord, type RawRecord } from '../src/read/record.js';
import { conversationErrors } from './support/pam-validator.js';
import { allAgentRecords, type AgentRecord } from './support/agent-samples.js';

const records = await allAgentRecords();

function context(diagnostics: Omit<Diagnostic, 'file'>[] = []): ConversionContext {
  return {
    record: '#0',
    file: 'tasks/1/api_conversation_history.json',
    fallbackTime: undefined,
    report: (d) => diagnostics.push(d),
    resolveAsset: () => undefined,
    attachText: new InlineTexts().attach,
  };
}

// The bytes cut, overwritten or spliced with others at a place: a log still being written, a
// file damaged on disk, a future version's lines.
function mangle(bytes: Uint8Array, at: number, cut: number, insert: string): Buffer {
  const text = Buffer.from(bytes).toString('utf8');
  const place = at % (text.length + 1);
  return Buffer.from(text.slice(0, place) + insert + text.slice(place + (cut % 200)), 'utf8');
}

function convert(
  sample: AgentRecord,
  record: RawRecord,
  diagnostics?: Omit<Diagnostic, 'file'>[],
): Conversation[] {
  const provider = findProvider(sample.provider);
  if (!provider) throw new Error(`no provider ${sample.provider}`);
  const parsed = parseRecord(record);
  if (!parsed.ok) return [];
  const result = provider.toConversation(parsed.value, sample.variant, context(diagnostics));
  return result === undefined ? [] : Array.isArray(result) ? result : [result];
}

describe('coding agents’ readers on mangled logs', () => {
  it('have a record of every agent to mangle', () => {
    const providers = new Set(records.map((r) => r.provider));
    for (const name of [
      'codex',
      'gemini-cli',
      'qwen-code',
      'cline',
      'roo-code',
      'kilo-code',
      'aider',
      'copilot-cli',
      'mistral-vibe',
      'pi',
      'vscode-copilot-chat',
      'amp',
      'continue',
    ])
      expect(providers).toContain(name);
  });

  it('never throw on a log cut, overwritten or spliced anywhere, and what they return validates', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...records),
        fc.nat(),
        fc.nat(),
        fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.constantFrom(
            '\n',
            '\n{"type":"future_kind","payload":{}}\n',
            '{',
            '"',
            '\u0000',
            '\n#### ',
            '\n> ',
          ),
        ),
        fc.boolean(),
        (sample, at, cut, insert, inSide) => {
          const { record } = sample;
          const side = record.side ?? [];
          const mangled: RawRecord =
            inSide && side.length > 0
              ? {
                  ...record,
                  side: side.map((s, i) =>
                    i === at % side.length ? { ...s, bytes: mangle(s.bytes, at, cut, insert) } : s,
                  ),
                }
              : { ...record, bytes: mangle(record.bytes, at, cut, insert) };
          const first = convert(sample, mangled);
          expect(convert(sample, { ...mangled })).toEqual(first);
          for (const conversation of first) expect(conversationErrors(conversation)).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('read every line before a last line cut short, and say the session is being written', () => {
    const logs = records.filter((r) => r.record.lines === true);
    expect(logs.length).toBeGreaterThan(5);
    for (const sample of logs) {
      const text = Buffer.from(sample.record.bytes).toString('utf8').trimEnd();
      const whole = convert(sample, sample.record);
      const diagnostics: Omit<Diagnostic, 'file'>[] = [];
      const bytes = Buffer.from(`${text}\n{"timestamp":"2026-01-01T00:00:00Z","type":"respo`);
      const cut = convert(sample, { ...sample.record, bytes }, diagnostics);
      expect(cut).toEqual(whole);
      expect(diagnostics.map((d) => d.code)).toContain('session-being-written');
    }
  });
});
