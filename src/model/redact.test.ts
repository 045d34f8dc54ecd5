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

describe('redactText: the shapes issue 23 found unmasked', () => {
  const basic = (credentials: string): string => Buffer.from(credentials).toString('base64');

  it.each([
    ['a lower-case basic header', `authorization: basic ${basic('alice:s3cret-pass')}`, 'YWxpY2U6'],
    ['a basic header with a non-ASCII password', `Basic ${basic('jörg:pässwort1')}`, 'asO2cmc6'],
    [
      'a key with no END line on one line',
      '-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLez',
      'MIIEowIB',
    ],
    [
      'a key with no END line, its body straight after the marker',
      '-----BEGIN PRIVATE KEY-----MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLez',
      'MIIEowIB',
    ],
    [
      'a full-width key',
      'ｓｋ－ｐｒｏｊ－ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ０１２３',
      'ａｂｃ',
    ],
    [
      'a key split by zero-width spaces',
      'sk-proj-abcdefgh\u200bijklmnop\u200bqrstuvwxyz0123',
      'abcdefgh',
    ],
  ])('masks %s', (_, text, part) => {
    const masked = redactText(`see: ${text} (done)`, {});
    expect(masked).toContain('[REDACTED:');
    expect(masked).not.toContain(part);
    expect(masked).toMatch(/^see: .*\(done\)$/);
  });

  it('masks a secret wherever it stands in a value once it is found next to its marker', () => {
    const counts: RedactionCounts = {};
    const token = 'tok_9f8e7d6c5b4a3f2e1d0c';
    const password = 'Tr0ub4dor&3';
    const body = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw';
    const masked = redactValue(
      {
        title: `Why does ${token} fail?`,
        text: `curl -H "Authorization: Bearer ${token}" and redis://:${password}@cache:6379`,
        thinking: `The user's password ${password} is weak.`,
        tool: { input: { command: `echo ${token}` }, output: `${token}\n` },
        key: `-----BEGIN EC PRIVATE KEY-----\n${body}\n-----END EC PRIVATE KEY-----`,
        pasted: `line 2 of the key: ${body}`,
      },
      counts,
    );
    const text = JSON.stringify(masked);
    expect(text).not.toContain(token);
    expect(text).not.toContain(password);
    expect(text).not.toContain(body);
    expect(masked.title).toBe('Why does [REDACTED:bearer-token] fail?');
    expect(masked.tool.output).toBe('[REDACTED:bearer-token]\n');
  });

  it('keeps the text around a disguised secret exactly as it was', () => {
    const text =
      'ｆｕｌｌ－ｗｉｄｔｈ　ｐｒｏｓｅ, ﬁle, x² — key ｓｋ－ａｎｔ－ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔ１ end';
    expect(redactText(text, {})).toBe(
      'ｆｕｌｌ－ｗｉｄｔｈ　ｐｒｏｓｅ, ﬁle, x² — key [REDACTED:anthropic-key] end',
    );
  });
});

describe('redactText leaves ordinary prose and code alone', () => {
  it.each([
    'Basic usage: run it with basic settings. Basic Auth is described in RFC 7617.',
    'The header is "-----BEGIN PRIVATE KEY-----" and then the base64 body follows, see the docs.',
    'function login(user, password) { return check(password); } // password must be 8+ characters',
    'ｆｕｌｌ－ｗｉｄｔｈ　ｔｅｘｔ、日本語の文章。ﬁne ligatures, x², ① and soft\u00adhyphens stay.',
    'const url = "https://example.com:8443/path?q=1"; git clone git@github.com:org/repo.git',
    'Bearer of bad news; the bearer token goes in a header. skip-ant-farm and sk-learn.',
    'password = "" and PASSWORD: set it later; passwords are hashed with argon2id.',
  ])('%s', (text) => {
    const counts: RedactionCounts = {};
    expect(redactText(text, counts)).toBe(text);
    expect(counts).toEqual({});
  });

  it('does not mask a plain word found as a password everywhere else', () => {
    const masked = redactText('password = "letmein" and then: letmein is a bad password', {});
    expect(masked).toBe('password = "[REDACTED:password]" and then: letmein is a bad password');
  });

  it.each(['Password', 'Secret', 'Welcome', 'changeme', 'PassWord'])(
    'masks the word password = "%s" only next to its marker',
    (word) => {
      const text = `const password = "${word}"; if (input === ${word}) {} // ${word} is the title`;
      expect(redactText(text, {})).toBe(
        `const password = "[REDACTED:password]"; if (input === ${word}) {} // ${word} is the title`,
      );
    },
  );

  it('masks a short value with a digit or a symbol wherever it stands', () => {
    const masked = redactText(
      'password = "hunter2" and later hunter2; password="Pa$$word" Pa$$word',
      {},
    );
    expect(masked).toBe(
      'password = "[REDACTED:password]" and later [REDACTED:password]; password="[REDACTED:password]" [REDACTED:password]',
    );
  });
});

describe('redactText: the shapes issue 41 (point 8) found unmasked', () => {
  const latin1 = (credentials: string): string =>
    Buffer.from(credentials, 'latin1').toString('base64');
  const body = [
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
    'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
    'NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ',
  ];
  it.each([
    [
      'an Authorization header whose credentials are not UTF-8',
      `Authorization: Basic ${latin1('jörg:pässwort1')}`,
      latin1('jörg:pässwort1').slice(0, 8),
    ],
    [
      'an Authorization header of another scheme',
      'Proxy-Authorization: Digest 6629fae49393a05397450978507c4ef1',
      '6629fae4',
    ],
    [
      'a JSON header object, the value alone in its string',
      `{"headers": {"Authorization": "Basic ${latin1('svc:pa\xdfword')}"}}`,
      latin1('svc:pa\xdfword').slice(0, 8),
    ],
    [
      'a private key inside a JSON string, its lines joined by \\n',
      `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${body.join('\\n')}\\n-----END PRIVATE KEY-----\\n"}`,
      'MIIEvQIB',
    ],
    [
      'a private key cut off inside a JSON string',
      `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${body.join('\\n')}\\n`,
      'MzEfYyji',
    ],
    [
      'a private key in a JSON string escaped twice',
      `"{\\"key\\": \\"-----BEGIN RSA PRIVATE KEY-----\\\\n${body.join('\\\\n')}\\\\n"`,
      'NMoSfm76',
    ],
  ])('masks %s', (_, text, part) => {
    const masked = redactText(`see: ${text} (done)`, {});
    expect(masked).toContain('[REDACTED:');
    expect(masked).not.toContain(part);
    expect(masked).toMatch(/^see: .*\(done\)$/);
  });

  it("masks a header object's credentials, the header's name a key of the object", () => {
    const encoded = latin1('jörg:pässwort1');
    const masked = redactValue({ input: { headers: { Authorization: `Basic ${encoded}` } } }, {});
    expect(JSON.stringify(masked)).not.toContain(encoded);
  });

  it('masks the body of a key from a JSON string where it stands again bare', () => {
    const line = 'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu';
    const masked = redactValue(
      {
        file: `{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n${line}\\n-----END PRIVATE KEY-----\\n"}`,
        echoed: `the second line was ${line}`,
      },
      {},
    );
    expect(JSON.stringify(masked)).not.toContain('MzEfYyji');
  });
});
