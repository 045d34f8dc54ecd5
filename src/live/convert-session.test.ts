import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationText } from '../bundle/conversation-text.js';
import { toIndexEntry } from '../bundle/memory-store.js';
import type { GraphBatch } from '../graph/graph-batch.js';
import { project } from '../graph/project.js';
import { claudeCode } from '../providers/claude-code/index.js';
import { IMPORTER } from '../model/version.js';
import { cuts, linearEntries, linearLog, log } from '../../test/support/claude-code-lines.js';
import { SESSION_SOURCE } from '../../test/support/patch-fixtures.js';
import { SessionConversion, type SessionSource } from './convert-session.js';

// The fixtures' log, converted in deep mode (tool calls as a DecisionTrace too).
const source: SessionSource = { ...SESSION_SOURCE, deep: true };

// What `import` makes of the lines read so far: the provider on all of them, one
// serialisation, one projection, nothing kept from before.
function imported(entries: readonly unknown[]) {
  const converted = claudeCode.toConversation(
    { entries: [...entries], badLines: [], cutLastLine: false },
    'session',
    {
      record: '#0',
      file: source.entryPath,
      fallbackTime: undefined,
      report: () => undefined,
      resolveAsset: () => undefined,
      attachText: () => {
        throw new Error('no attachments');
      },
    },
  );
  const all = converted === undefined ? [] : Array.isArray(converted) ? converted : [converted];
  return all.map((conversation) => {
    const { text, contentHash } = conversationText(
      conversation,
      {
        importer: IMPORTER,
        importer_version: `${claudeCode.name}-importer/session`,
        imported_at: source.importedAt,
        source_file: source.displayPath,
        source_checksum: source.checksum,
      },
      true,
    );
    return {
      id: conversation.id,
      index: toIndexEntry(conversation),
      messages: conversation.messages.length,
      text: Buffer.from(text),
      contentHash,
      batch: project(conversation, {
        source: claudeCode.source,
        label: claudeCode.label,
        fileTools: claudeCode.fileTools,
        deep: source.deep,
        importId: source.importId,
        attachmentText: () => undefined,
      }),
    };
  });
}

// A batch with its Document left out: an append keeps the Document of the last settle.
function withoutDocument(batch: GraphBatch): GraphBatch {
  return { ...batch, nodes: batch.nodes.filter((node) => node.label !== 'Document') };
}

describe('SessionConversion', () => {
  it('gives, after each append, the graph import gives for the lines so far, and once settled its bundle text, hash and Document', () => {
    fc.assert(
      fc.property(
        fc.oneof(log, linearLog.map(linearEntries)),
        cuts,
        fc.array(fc.boolean(), { minLength: 1 }),
        (entries, steps, settles) => {
          const conversion = new SessionConversion(source);
          let at = 0;
          for (let i = 0; at < entries.length; i++) {
            const next = Math.min(entries.length, at + (steps[i % steps.length] ?? 1));
            const live = conversion.convert(entries.slice(at, next), source, () => undefined);
            at = next;
            const expected = imported(entries.slice(0, at));
            expect(JSON.stringify(live.map((c) => withoutDocument(c.batch())))).toBe(
              JSON.stringify(expected.map((c) => withoutDocument(c.batch))),
            );
            // Settled at some steps, and at the last: then all of it is what import gives.
            if (settles[i % settles.length] !== true && at < entries.length) continue;
            const settled = live.map((c) => {
              const settle = c.settle();
              return {
                id: c.id,
                index: c.index,
                messages: c.messages,
                text: settle.text,
                contentHash: settle.contentHash,
                batch: settle.batch(),
              };
            });
            expect(JSON.stringify(settled)).toBe(JSON.stringify(expected));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
