import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { conversationsQuery, cypherBody } from './api-requests.js';
import { parseBody, parseQuery } from './parse-request.js';

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('it was not refused');
}

describe('parsing a request by its schema', () => {
  it("takes a parameter's first value, as URLSearchParams.get does", () => {
    const query = parseQuery(conversationsQuery, new URLSearchParams('limit=5&limit=9&sort='));
    expect([query.limit, query.offset, query.sort]).toEqual([5, 0, 'updated']);
  });

  it('keeps a parameter named __proto__ a plain field, and names the bad parameter', () => {
    const error = refusal(() =>
      parseQuery(conversationsQuery, new URLSearchParams('__proto__=x&limit=ten')),
    );
    expect([error.status, error.message]).toEqual([400, 'limit must be a whole number, 1 or more']);
  });

  it("prefixes zod's own message with the parameter, and refuses a body that is no object", () => {
    expect(refusal(() => parseBody(cypherBody, { query: 'RETURN 1', params: 'x' })).message).toBe(
      'params must be a JSON object',
    );
    expect(refusal(() => parseBody(cypherBody, { query: 7 })).message).toMatch(/^query: /);
    expect(refusal(() => parseBody(cypherBody, null)).message).toBe(
      'the request body must be a JSON object',
    );
  });
});
