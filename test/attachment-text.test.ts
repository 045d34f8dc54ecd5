import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../src/cli/format-report.js';
import { layoutOf } from '../src/folder/layout.js';
import { project } from '../src/graph/project.js';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import type { Conversation } from '../src/model/pam.js';
import { convertExports } from '../src/pipeline/convert-exports.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import {
  PASTED_NOTES,
  PASTED_UNNAMED,
  pastedClaudeConversation,
} from './support/attachment-fixtures.js';
import { FIXED_TIME, convertToTemp, tempDir } from './support/convert-to-temp.js';
import { conversationErrors } from './support/pam-validator.js';
import { ROOT } from './support/shared.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);

function exportFile(conversations: unknown[]): string {
  const path = join(tempDir(), 'conversations.json');
  writeFileSync(path, JSON.stringify(conversations));
  return path;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

describe('Claude.ai pasted and attached text', () => {
  it('becomes files of the bundle that the attachments point to, not raw_metadata', async () => {
    const { dir, conversations, report } = await convertToTemp([
      exportFile([pastedClaudeConversation()]),
    ]);
    const c = conversations[0]!;
    expect(conversationErrors(c)).toEqual([]);
    const attachments = c.messages.find((m) => m.provider_message_id === 'p1')!.attachments;
    const folder = `attachments/text/${c.id}`;
    expect(attachments).toEqual([
      {
        type: 'document',
        name: 'notes.txt',
        mime_type: 'text/plain',
        size_bytes: Buffer.byteLength(PASTED_NOTES),
        ref: `${folder}/1-notes.txt`,
        provider_id: null,
      },
      {
        type: 'document',
        name: null,
        mime_type: 'text/plain',
        size_bytes: Buffer.byteLength(PASTED_UNNAMED),
        ref: `${folder}/2.txt`,
        provider_id: null,
      },
      {
        type: 'document',
        name: 'scan.pdf',
        mime_type: 'application/pdf',
        size_bytes: 12345,
        ref: null,
        provider_id: null,
      },
      expect.objectContaining({ type: 'image', name: 'photo.png', ref: null }),
    ]);
    expect(readFileSync(join(dir, folder, '1-notes.txt'), 'utf8')).toBe(PASTED_NOTES);
    expect(readFileSync(join(dir, folder, '2.txt'), 'utf8')).toBe(PASTED_UNNAMED);
    expect(filesUnder(join(dir, 'attachments'))).toEqual([
      `text/${c.id}/1-notes.txt`,
      `text/${c.id}/2.txt`,
    ]);
    // The text is kept once: the conversation file names the files, it does not repeat them.
    const file = readFileSync(join(dir, 'conversations', `${c.id}.json`), 'utf8');
    expect(file).not.toContain('quokka');
    expect(file).not.toContain('zanzibar');
    expect(c.messages[0]?.raw_metadata.attachment_details).toEqual([
      {
        file_name: 'notes.txt',
        file_size: 999,
        file_type: 'txt',
        text_ref: `${folder}/1-notes.txt`,
      },
      { file_name: '', file_size: 58, file_type: 'txt', text_ref: `${folder}/2.txt` },
      { file_name: 'scan.pdf', file_size: 12345, file_type: 'application/pdf' },
    ]);
    // Written, and not "referenced but not in the export" (only the pdf and the photo are).
    expect(report.totals).toMatchObject({
      attachments: 4,
      attachmentTexts: 2,
      attachmentsMissing: 2,
    });
    expect(formatReport(report)).toContain(
      '2 pasted or extracted texts written, 2 referenced but not in the export',
    );
  });

  it('keeps two conversations, and two texts of one conversation, in files of their own', async () => {
    const { dir, conversations } = await convertToTemp([
      exportFile([pastedClaudeConversation('one'), pastedClaudeConversation('two')]),
    ]);
    const refs = conversations.flatMap((c) =>
      c.messages.flatMap((m) => m.attachments.flatMap((a) => (a.ref === null ? [] : [a.ref]))),
    );
    expect(refs).toHaveLength(4);
    expect(new Set(refs).size).toBe(4);
    for (const ref of refs) expect(statSync(join(dir, ref)).isFile()).toBe(true);
  });

  it('masks secrets in pasted text with --redact, and sizes the file as written', async () => {
    const secret = 'sk-ant-' + 'a'.repeat(40);
    const raw = pastedClaudeConversation();
    const messages = raw.chat_messages as { attachments: { extracted_content?: string }[] }[];
    messages[0]!.attachments[0]!.extracted_content = `my key is ${secret} ok`;
    const dir = tempDir();
    const report = await convertExports([exportFile([raw])], {
      out: dir,
      importedAt: FIXED_TIME,
      redact: true,
    });
    expect(report.redactions['anthropic-key']).toBe(1);
    const c = JSON.parse(
      readFileSync(join(dir, 'conversations', readdirSync(join(dir, 'conversations'))[0]!), 'utf8'),
    ) as Conversation;
    const attachment = c.messages[0]!.attachments[0]!;
    const text = readFileSync(join(dir, attachment.ref!), 'utf8');
    expect(text).toBe('my key is [REDACTED:anthropic-key] ok');
    expect(attachment.size_bytes).toBe(Buffer.byteLength(text));
  });

  it('is an Attachment node with its text in the store, at import and after reindex', async () => {
    const data = join(tempDir(), 'data');
    await importExports(new Folder(data), [exportFile([pastedClaudeConversation()])], {
      importedAt: FIXED_TIME,
      workers: 0,
    });
    const read = async (): Promise<unknown> => {
      const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
      try {
        const rows = await store.cypher(
          `MATCH (m:Message)-[:HAS_ATTACHMENT]->(a:Attachment) RETURN a.name, a.content, a.position ORDER BY a.position`,
        );
        const thread = await store.thread('cl-paste');
        const { nodes, edges } = await store.counts();
        return {
          rows,
          attachments: thread[0]?.attachments.map((a) => [a.name, a.mimeType, a.text]),
          replyAttachments: thread[1]?.attachments,
          counts: [nodes.Attachment, edges.HAS_ATTACHMENT],
        };
      } finally {
        await store.close();
      }
    };
    const expected = {
      rows: [
        { 'a.name': 'notes.txt', 'a.content': PASTED_NOTES, 'a.position': 0 },
        { 'a.name': null, 'a.content': PASTED_UNNAMED, 'a.position': 1 },
        { 'a.name': 'scan.pdf', 'a.content': null, 'a.position': 2 },
        { 'a.name': 'photo.png', 'a.content': null, 'a.position': 3 },
      ],
      attachments: [
        ['notes.txt', 'text/plain', PASTED_NOTES],
        [null, 'text/plain', PASTED_UNNAMED],
        ['scan.pdf', 'application/pdf', null],
        ['photo.png', null, null],
      ],
      replyAttachments: [],
      counts: [4, 4],
    };
    expect(await read()).toEqual(expected);
    await reindex(new Folder(data));
    expect(await read()).toEqual(expected);
  });

  it('still reaches the graph from a bundle written before it became files', async () => {
    const { conversations } = await convertToTemp([exportFile([pastedClaudeConversation()])]);
    const old = structuredClone(conversations[0]!);
    const first = old.messages.find((m) => m.provider_message_id === 'p1')!;
    // As chatgraph wrote it before: no ref, the text in raw_metadata.attachment_extracts.
    for (const attachment of first.attachments) attachment.ref = null;
    first.raw_metadata = {
      attachment_extracts: [
        { file_name: 'notes.txt', extracted_content: PASTED_NOTES },
        { file_name: '', extracted_content: PASTED_UNNAMED },
      ],
    };
    const batch = project(old, { source: 'claude-ai', label: 'Claude AI', deep: false });
    const contents = batch.nodes
      .filter((n) => n.label === 'Attachment')
      .map((n) => [n.properties.name, n.properties.content]);
    expect(contents).toEqual([
      ['notes.txt', PASTED_NOTES],
      [null, PASTED_UNNAMED],
      ['scan.pdf', null],
      ['photo.png', null],
    ]);
  });

  it('is printed under its message by `chatgraph thread` (built CLI)', async () => {
    const data = join(tempDir(), 'data');
    const input = exportFile([pastedClaudeConversation()]);
    const imported = await run(process.execPath, [CLI, 'import', input, '--data-dir', data]);
    expect(imported.stdout).toContain('2 pasted or extracted texts written');
    const { stdout } = await run(process.execPath, [CLI, 'thread', 'cl-paste', '--data-dir', data]);
    const size = Buffer.byteLength(PASTED_NOTES).toLocaleString('en-US');
    expect(stdout).toContain(
      [
        'Summarise these',
        '',
        `[attachment: notes.txt (text/plain, ${size} bytes)]`,
        '    Meeting notes',
        '    The quokka budget is approved.',
        '    ```',
        '    fenced inside',
        '    ```',
        '[attachment: pasted text (text/plain,',
      ].join('\n'),
    );
    expect(stdout).toContain(`    ${PASTED_UNNAMED}`);
    expect(stdout).toContain('[attachment: photo.png (not in the export)]');
  });
});
