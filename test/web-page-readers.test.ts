import { describe, expect, it } from 'vitest';
import { errorOf } from '../src/web/client/api.js';
import { conversationPage, importJob, memoryView, stats } from '../src/web/client/answers.js';
import {
  array,
  number,
  object,
  optional,
  readAnswer,
  readAnswerText,
  text,
} from '../src/web/client/read-json.js';

// The page's readers of the API's answers (src/web/client/answers.ts, read-json.ts): an answer
// that fits is given back whole, one that does not is an error naming the endpoint and the
// field. That each reads its route's real answer is checked in web-api-schema.test.ts.

const job = {
  id: 'j1',
  file: 'conversations.json',
  state: 'running',
  progress: { phase: 'convert', bytesDone: 10, bytesTotal: 20, conversations: 1 },
};

describe("the page's readers", () => {
  it('give back an answer that fits, without the fields the shape does not name', () => {
    expect(readAnswer('POST /api/import', job, importJob)).toEqual(job);
    const point = object({ x: number, label: optional(text) });
    expect(point({ x: 1, extra: true }, '')).toEqual({ x: 1 });
    expect(point({ x: 1, label: 'a' }, '')).toEqual({ x: 1, label: 'a' });
  });

  it('name the endpoint and the field of an answer that does not fit', () => {
    expect(() => readAnswer('POST /api/import', { ...job, state: 'paused' }, importJob)).toThrow(
      'POST /api/import answered what this page cannot read (state: expected running or done or failed, got string)',
    );
    const page = { conversation: {}, url: null, messages: [], offset: 0, total: 0 };
    expect(() => readAnswer('GET /api/conversations/c1', page, conversationPage)).toThrow(
      '(conversation.id: expected text, got undefined)',
    );
    const months = {
      conversations: 1,
      messages: 1,
      bySource: [],
      byMonth: [{ month: null, source: 'claude-ai', messages: '1', conversations: 1 }],
      byRole: [],
      byModel: [],
    };
    expect(() => readAnswer('GET /api/overview', months, stats)).toThrow(
      '(byMonth.0.messages: expected a number, got string)',
    );
    expect(() => readAnswer('GET /api/memories', [], memoryView)).toThrow(
      '(the answer: expected an object, got an array)',
    );
    expect(() => array(text)({ 0: 'a' }, 'tags')).toThrow('tags: expected a list, got an object');
  });

  it('name an answer that is not JSON', () => {
    expect(() => readAnswerText('GET /api/import/:id/events', '<html>', importJob)).toThrow(
      'GET /api/import/:id/events answered what this page cannot read (not JSON)',
    );
  });
});

describe("a refusal's sentence", () => {
  it('is the error field of its JSON body, or none', () => {
    expect(errorOf('{"error":"no such conversation"}')).toBe('no such conversation');
    expect(errorOf('{"error":3}')).toBeUndefined();
    expect(errorOf('Bad gateway')).toBeUndefined();
  });
});
