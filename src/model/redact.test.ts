import { describe, expect, it } from 'vitest';
import { redactText, redactValue, type RedactionCounts } from './redact.js';

describe('redactText', () => {
  it('masks keys, tokens, bearer headers, URL passwords and private keys, and counts them', () => {
    const counts: RedactionCounts = {};
    const text = [
      'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123',
      'anthropic: sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
      'aws AKIAIOSFODNN7EXAMPLE and aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'gh: ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'curl -H "Authorization: Bearer abcdef0123456789abcdef"',
      'postgres://admin:hunter2@db.example.com/prod',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----',
    ].join('\n');
    const masked = redactText(text, counts);
    expect(masked).not.toMatch(
      /sk-proj-abc|sk-ant-api03|AKIAIOSFODNN7|wJalrXUtn|ghp_abc|abcdef0123456789abcdef|hunter2|b3BlbnNzaC1/,
    );
    expect(masked).toContain('postgres://admin:[REDACTED:url-password]@db.example.com/prod');
    expect(masked).toContain('Bearer [REDACTED:bearer-token]');
    expect(counts).toEqual({
      'private-key': 1,
      'anthropic-key': 1,
      'openai-key': 1,
      'aws-access-key': 1,
      'aws-secret-key': 1,
      'github-token': 1,
      'bearer-token': 1,
      'url-password': 1,
    });
  });

  it('leaves ordinary text alone', () => {
    const counts: RedactionCounts = {};
    const text =
      'The task-runner uses sk-learn style names; see https://example.com/a:b and Bearer of news.';
    expect(redactText(text, counts)).toBe(text);
    expect(counts).toEqual({});
  });

  it('masks strings anywhere in a value', () => {
    const counts: RedactionCounts = {};
    expect(redactValue({ a: ['ghp_abcdefghijklmnopqrstuvwxyz0123456789'], n: 1 }, counts)).toEqual({
      a: ['[REDACTED:github-token]'],
      n: 1,
    });
  });
});
