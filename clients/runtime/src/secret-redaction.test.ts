import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SECRET_REDACTED,
  environmentRedactor,
  redactSecretShapes,
  redactStrings,
  secretRedactor,
} from './secret-redaction';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'farm-redaction-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('redaction by shape, whatever the process holds', () => {
  test('the user info of a URL is removed; the host and path stay', () => {
    expect(redactSecretShapes('cloning http://user:canary-t0ken@git.example/r.git failed')).toBe(
      `cloning http://${SECRET_REDACTED}@git.example/r.git failed`,
    );
    // a token given as the user name, percent-encoded characters included
    expect(redactSecretShapes('https://ghs%2Fcanary0123456789abcdef@github.com/o/r')).toBe(
      `https://${SECRET_REDACTED}@github.com/o/r`,
    );
  });

  test("an account's name is not a secret: ssh://git@host, postgres://postgres@db and a path's @ stay as written", () => {
    const text = 'ssh://git@github.com/o/r.git, postgres://postgres@db/farm and https://host/users/me@example.com';
    expect(redactSecretShapes(text)).toBe(text);
  });

  test('a URL in serialized JSON is redacted and the JSON stays valid, neighbouring strings untouched', () => {
    const line = JSON.stringify({ url: 'https://bot:canary-t0ken@h/r.git', next: 'https://h', mail: 'me@x.org' });
    const out = redactSecretShapes(line);
    expect(out).not.toContain('canary-t0ken');
    expect(JSON.parse(out)).toEqual({ url: `https://${SECRET_REDACTED}@h/r.git`, next: 'https://h', mail: 'me@x.org' });
  });

  test('Authorization headers and the well-known token formats are redacted', () => {
    const ghp = `ghp_${'a1B2'.repeat(9)}`;
    const out = redactSecretShapes(
      `Authorization: Basic dXNlcjpjYW5hcnk= and {"authorization":"Bearer abcdefgh12345678"} and ${ghp}`,
    );
    expect(out).toBe(
      `Authorization: Basic ${SECRET_REDACTED} and {"authorization":"Bearer ${SECRET_REDACTED}"} and ${SECRET_REDACTED}`,
    );
  });
});

describe('redaction by value', () => {
  test('every form of a secret is replaced: as written, JSON-escaped (once and twice), percent-encoded', () => {
    const secret = 'pa"ss\\w@rd/canary';
    const redact = secretRedactor([secret]);
    const nested = JSON.stringify({ args: JSON.stringify({ key: secret }) });
    for (const text of [
      `key=${secret}`,
      JSON.stringify({ out: `key=${secret}` }),
      nested,
      `q=${encodeURIComponent(secret)}`,
    ]) {
      expect(redact(text)).not.toContain('canary');
    }
    expect(JSON.parse(redact(nested))).toEqual({ args: `{"key":"${SECRET_REDACTED}"}` });
  });

  test('short or empty values are not secrets: ordinary text keeps them', () => {
    const redact = secretRedactor(['', undefined, 'none', 'abc1234']);
    expect(redact('none of abc1234')).toBe('none of abc1234');
  });

  test('the longest secret wins when one contains another', () => {
    expect(secretRedactor(['canary-token', 'canary-token-long'])('x canary-token-long y')).toBe(
      `x ${SECRET_REDACTED} y`,
    );
  });
});

describe('the secrets of an environment', () => {
  test('declared settings, variables named as credentials and passwords in URLs; not the names of Secrets', () => {
    const env = {
      FARM_FORGE_TOKEN: 'canary-forge-0001',
      FARM_FORGE_WEBHOOK_SECRET: 'canary-hook-0002',
      FARM_COMPONENT_TOKEN: 'canary-component-0003',
      OPENAI_API_KEY: 'canary-model-0004',
      GITHUB_TOKEN: 'canary-operator-0005',
      DATABASE_URL: 'postgres://farm:canary-db-0006@db:5432/farm',
      PGBOUNCER_URL: 'postgres://postgres@bouncer/farm',
      FARM_AGENT_SECRET: 'farm-agent-git',
      FARM_AGENT_MAX_TOKENS: '400000000',
      HOME: '/home/someone',
    };
    const redact = environmentRedactor(env);
    const text = Object.values(env).join(' | ');
    const out = redact(text);
    expect(out).not.toMatch(/canary/);
    expect(out).toContain('farm-agent-git');
    expect(out).toContain('postgres://postgres@bouncer/farm');
    expect(out).toContain('400000000');
    expect(out).toContain('/home/someone');
  });

  test("a credentials file's tokens are redacted wherever they appear, and lines added later too", () => {
    const file = path.join(dir, 'git-credentials');
    writeFileSync(file, '# intake\nhttps://bot:canary-file-0007@git.example/team/r\n');
    const env = { FARM_GIT_CREDENTIALS_FILE: `${path.join(dir, 'absent')}:${file}` };
    const basic = Buffer.from('bot:canary-file-0007').toString('base64');
    expect(environmentRedactor(env)(`token canary-file-0007 sent as ${basic}`)).toBe(
      `token ${SECRET_REDACTED} sent as ${SECRET_REDACTED}`,
    );
    // The intake appends the credentials of a new --repo URL while the farm runs (a longer file: read again).
    appendFileSync(file, 'http://canary-user-token-0008@other.example/r.git\n');
    expect(environmentRedactor(env)('a canary-user-token-0008 b')).toBe(`a ${SECRET_REDACTED} b`);
  });

  test('extra values are redacted with the environment', () => {
    expect(environmentRedactor({}, ['canary-extra-0009'])('canary-extra-0009')).toBe(SECRET_REDACTED);
  });
});

test('redactStrings redacts the strings of parsed JSON, keys included, and keeps bytes and numbers', () => {
  const bytes = new Uint8Array([1, 2, 3]);
  const value = { a: ['x canary-value-0010'], 'canary-value-0010': 1, bytes, n: 5 };
  const out = redactStrings(value, secretRedactor(['canary-value-0010']));
  expect(out).toEqual({ a: [`x ${SECRET_REDACTED}`], [SECRET_REDACTED]: 1, bytes, n: 5 });
  expect(out.bytes).toBe(bytes);
});
