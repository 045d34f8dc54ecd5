import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZipWriter } from '../../src/sample/zip-writer.js';
import { tempDir } from './convert-to-temp.js';

type Json = Record<string, unknown>;

/** A one-message ChatGPT conversation (with extra fields merged in). */
export function chatgptConversation(id: string, text: string, extra: Json = {}): Json {
  return {
    id,
    conversation_id: id,
    title: id,
    create_time: 1_700_000_000,
    update_time: 1_700_000_100,
    current_node: 'u',
    mapping: {
      root: { id: 'root', parent: null, children: ['u'], message: null },
      u: {
        id: 'u',
        parent: 'root',
        children: [],
        message: {
          id: 'u',
          author: { role: 'user', metadata: {} },
          create_time: 1_700_000_001,
          content: { content_type: 'text', parts: [text] },
          metadata: {},
          recipient: 'all',
        },
      },
    },
    ...extra,
  };
}

/** JSON text nesting `depth` arrays: what a hostile record puts in its metadata. */
export function nestedBrackets(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/**
 * The text of a ChatGPT `conversations.json` whose first conversation holds metadata nested
 * `depth` levels deep (written as text: `JSON.stringify` could not write it), then `after`.
 */
export function deepConversationsJson(depth: number, after: Json[]): string {
  const deep = JSON.stringify(chatgptConversation('deep', 'deep one', { deep_marker: 0 }));
  return `[${deep.replace('"deep_marker":0', `"deep_marker":${nestedBrackets(depth)}`)},${after.map((c) => JSON.stringify(c)).join(',')}]`;
}

/** A ChatGPT conversation whose user message shows an image (by `file-service` pointer). */
export function withImage(id: string, fileId: string): Json {
  const conversation = chatgptConversation(id, 'see the picture');
  const mapping = conversation.mapping as Record<string, Json>;
  const message = mapping.u?.message as Json;
  message.content = {
    content_type: 'multimodal_text',
    parts: [
      { content_type: 'image_asset_pointer', asset_pointer: `file-service://${fileId}` },
      'see the picture',
    ],
  };
  return conversation;
}

/**
 * Writes hostile and damaged exports into a new temporary folder and returns their paths: a
 * ChatGPT zip with a conversation nested 100,000 levels deep, one whose update time is before
 * its creation time, an attachment that inflates more than 200 times (a zip bomb) and good
 * conversations around them; and a Gemini activity file with an entity that names no character.
 */
export async function writeHostileCorpus(): Promise<string[]> {
  const dir = tempDir('chatgraph-hostile-');
  const zipPath = join(dir, 'chatgpt-hostile.zip');
  const zip = new ZipWriter(zipPath);
  const conversations = deepConversationsJson(100_000, [
    chatgptConversation('good-after-deep', 'the good one after the deep one'),
    chatgptConversation('backwards', 'updated before created', {
      create_time: 1_700_000_500,
      update_time: 1_700_000_100,
    }),
    withImage('bomb-image', 'file-Bomb'),
    withImage('fine-image', 'file-Fine'),
  ]);
  await zip.add('conversations.json', conversations);
  // 70 MB of zeros: past the ratio check's floor, about 1000 times its compressed size.
  await zip.add(
    'file-Bomb-picture.png',
    (function* () {
      const chunk = Buffer.alloc(1 << 20);
      for (let i = 0; i < 70; i++) yield chunk;
    })(),
  );
  await zip.add('file-Fine-picture.png', Buffer.from('not really a png'));
  await zip.close();

  const gemini = join(dir, 'MyActivity.json');
  writeFileSync(
    gemini,
    JSON.stringify([
      {
        header: 'Gemini Apps',
        title: 'Prompted first question',
        time: '2025-04-02T18:01:00.000Z',
        safeHtmlItem: [{ html: '<p>a fine answer &amp; more</p>' }],
      },
      {
        header: 'Gemini Apps',
        title: 'Prompted hostile question',
        time: '2025-04-02T20:01:00.000Z',
        safeHtmlItem: [{ html: '<p>bad entity &#99999999; here</p>' }],
      },
      {
        header: 'Gemini Apps',
        title: 'Prompted last question',
        time: '2025-04-02T22:01:00.000Z',
        safeHtmlItem: [{ html: '<p>the last answer</p>' }],
      },
    ]),
  );
  return [zipPath, gemini];
}
