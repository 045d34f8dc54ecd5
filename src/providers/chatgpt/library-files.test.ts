import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversionContext, LibraryFile } from '../provider.js';
import { libraryAttachments, toLibraryFile } from './library-files.js';

describe('toLibraryFile', () => {
  it('reads an entry linked to a message, null fields as null', () => {
    expect(
      toLibraryFile({
        id: { id: 'libfile_1' },
        file_id: 'file_1',
        file_name: 'Plan.md',
        mime_type: null,
        file_size_bytes: 12,
        library_artifact_type: 'report',
        origination_message_id: 'm1',
        origination_thread_id: 't1',
      }),
    ).toEqual({
      fileId: 'file_1',
      messageId: 'm1',
      name: 'Plan.md',
      mimeType: null,
      sizeBytes: 12,
      artifactType: 'report',
      threadId: 't1',
      createdAt: null,
    });
  });

  it('gives nothing for a file of no message, or for what is not an entry', () => {
    expect(toLibraryFile({ file_id: 'file_1', origination_message_id: null })).toBeUndefined();
    expect(toLibraryFile(['file_1'])).toBeUndefined();
  });

  it('never throws, and what it reads always names a file and a message', () => {
    const entry = fc.record(
      {
        file_id: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
        origination_message_id: fc.oneof(fc.string(), fc.constant(null)),
        file_name: fc.oneof(fc.string(), fc.constant(null), fc.boolean()),
        mime_type: fc.oneof(fc.string(), fc.constant(null)),
        file_size_bytes: fc.oneof(fc.integer(), fc.double(), fc.constant(null)),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(entry, fc.jsonValue()), (raw) => {
        const file = toLibraryFile(raw);
        if (file === undefined) return;
        expect(file.fileId).not.toBe('');
        expect(file.messageId).not.toBe('');
        expect(file.sizeBytes === null || Number.isInteger(file.sizeBytes)).toBe(true);
      }),
    );
  });
});

describe('libraryAttachments', () => {
  const file = (fileId: string): LibraryFile => ({
    fileId,
    messageId: 'm1',
    name: `${fileId}.png`,
    mimeType: 'image/png',
    sizeBytes: null,
    artifactType: 'image',
  });
  const contextWith = (files: LibraryFile[], present: string[]): ConversionContext => ({
    report: () => undefined,
    resolveAsset: (id) => (present.includes(id) ? `attachments/${id}.png` : undefined),
    attachText: () => '',
    libraryFilesOf: (id) => (id === 'm1' ? files : []),
    fallbackTime: undefined,
    record: '#0',
    file: 'conversations.json',
  });

  it('leaves out a file the message already shows through a content pointer', () => {
    const existing = [
      {
        type: 'image' as const,
        name: null,
        mime_type: null,
        size_bytes: null,
        ref: null,
        provider_id: 'sediment://file_a',
      },
    ];
    const context = contextWith([file('file_a'), file('file_b')], ['file_b']);
    expect(libraryAttachments('m1', existing, context).map((a) => [a.provider_id, a.ref])).toEqual([
      ['file_b', 'attachments/file_b.png'],
    ]);
  });
});
