// Issue 42, point 11: Grok's Imagine posts are kept, and its inline cards and artifacts become
// citations and documents instead of raw tags in the text.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertToTemp } from './support/convert-to-temp.js';
import { pamValidate } from './support/pam-sdk.js';
import { ROOT } from './support/shared.js';

const EXPORT = join(ROOT, 'test', 'fixtures', 'grok', 'imagine-cards-2026');

describe('a 2026 Grok export', () => {
  it('makes render cards [n] citations and artifacts documents, with no tag left in the text', async () => {
    const { conversations, dir } = await convertToTemp([EXPORT]);
    const tides = conversations.find((c) => c.title === 'Tides in Brest');
    const texts = tides?.messages.map((m) => m.content?.text ?? '') ?? [];
    expect(texts.join('\n')).not.toMatch(/<grok:render|<xaiArtifact|<argument/);
    const answer = tides?.messages[1];
    expect(answer?.content?.text).toContain('reach about 7 m [1], so the harbour nearly empties');
    expect(answer?.citations.map((c) => c.url)).toEqual([
      'https://www.metoffice.example.org/coast/brest',
      'https://photos.example.com/brest-low-tide',
    ]);
    const documents = tides?.messages.flatMap((m) => m.attachments.map((a) => a.name));
    expect(documents).toEqual(['Tide walk plan.md', 'Tide walk plan.md (version 2)']);
    expect(pamValidate(dir).status).toBe(0);
  });

  it('keeps each Imagine post (prompt, medium, time, link on grok.com only)', async () => {
    const { conversations } = await convertToTemp([EXPORT]);
    const posts = conversations.filter((c) => c.raw_metadata.imagine_post === true);
    expect(posts.map((p) => [p.title, p.raw_metadata.platform_url]).sort()).toEqual([
      [
        'Imagine: A watercolour of Brest harbour at low tide, boats resting on the mud',
        'https://grok.com/imagine/post/7f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
      ],
      // A link to another host is not the platform's: the post's page is made from its id.
      ['Imagine: a video', 'https://grok.com/imagine/post/0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d'],
    ]);
    const video = posts.find((p) => p.title === 'Imagine: a video');
    expect(video?.messages[1]?.attachments[0]?.type).toBe('video');
    expect(video?.temporal.created_at).toBe('2026-09-03T19:05:00.000000Z');
  });
});
