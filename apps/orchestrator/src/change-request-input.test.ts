import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE, OpenApiConformance } from '../testing/openapi-conformance';
import { ApiError } from './api-error';
import {
  parseCancelInput,
  parseChangeRequestInput,
  parseLimit,
  parseResumeAfter,
  submissionDigest,
} from './change-request-input';

const valid = { title: 'Add retry', repo: { url: 'https://git.example.com/app.git' } };

function refusal(fn: () => unknown): { status: number; field?: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, field: err.field, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('a submitted change request', () => {
  test('the smallest valid one gets its defaults: base ref main, empty texts, no id (the server picks one)', () => {
    expect(parseChangeRequestInput(valid)).toEqual({
      title: 'Add retry',
      description: '',
      requestedBy: '',
      checkCommand: '',
      repo: { url: 'https://git.example.com/app.git', baseRef: 'main', baseCommit: '' },
    });
  });

  test('a multi-line title keeps its first line; the rest leads the description, nothing is lost', () => {
    const input = parseChangeRequestInput({
      ...valid,
      title: '  Add retry to fetchJson\r\nwith exponential backoff,\nat most 3 tries \n',
      description: 'See issue 12.',
    });
    expect([input.title, input.description]).toEqual([
      'Add retry to fetchJson',
      'with exponential backoff,\nat most 3 tries\n\nSee issue 12.',
    ]);
    expect(parseChangeRequestInput({ ...valid, title: 'One\nTwo' }).description).toBe('Two');
  });

  test('proto field names and null (the default) are accepted as proto3 JSON allows', () => {
    const input = parseChangeRequestInput({
      change_request_id: 'cr-1',
      title: 'Add retry',
      description: null,
      created_at_ms: '1700000000000',
      repo: { url: 'http://127.0.0.1:8080/app.git', base_ref: 'release/1.2' },
    });
    expect(input).toMatchObject({ changeRequestId: 'cr-1', createdAtMs: 1700000000000, description: '' });
    expect(input.repo.baseRef).toBe('release/1.2');
  });

  test.each([
    ['a missing title', { repo: valid.repo }, 'title'],
    ['a blank title', { ...valid, title: '   ' }, 'title'],
    ['a title that is not a string', { ...valid, title: 7 }, 'title'],
    ['a missing repo', { title: 'x' }, 'repo'],
    ['a repo that is not an object', { title: 'x', repo: 'https://a/b.git' }, 'repo'],
    ['a missing repo.url', { title: 'x', repo: {} }, 'repo.url'],
    ['a repo.url that is no URL', { title: 'x', repo: { url: 'not a url' } }, 'repo.url'],
    ['an ssh repo.url', { title: 'x', repo: { url: 'ssh://git@host/app.git' } }, 'repo.url'],
    ['a file repo.url', { title: 'x', repo: { url: 'file:///srv/app.git' } }, 'repo.url'],
    ['an unknown field', { ...valid, priority: 1 }, 'priority'],
    ['an unknown repo field', { ...valid, repo: { ...valid.repo, branch: 'x' } }, 'repo.branch'],
    ['a field given under both names', { ...valid, checkCommand: 'a', check_command: 'b' }, 'check_command'],
    ['an id with a slash', { ...valid, changeRequestId: 'a/b' }, 'changeRequestId'],
    ['an id with two dots', { ...valid, changeRequestId: 'a..b' }, 'changeRequestId'],
    ['a base ref with a space', { ...valid, repo: { ...valid.repo, baseRef: 'my branch' } }, 'repo.baseRef'],
    ['a base ref that is an option', { ...valid, repo: { ...valid.repo, baseRef: '--upload-pack=x' } }, 'repo.baseRef'],
    ['a base commit that is not hex', { ...valid, repo: { ...valid.repo, baseCommit: 'HEAD' } }, 'repo.baseCommit'],
    ['a negative createdAtMs', { ...valid, createdAtMs: -1 }, 'createdAtMs'],
    ['a createdAtMs of 16 digits', { ...valid, createdAtMs: '1000000000000000' }, 'createdAtMs'],
    ['an empty repo.url', { title: 'x', repo: { url: '' } }, 'repo.url'],
    ['a requestedBy of 201 characters', { ...valid, requestedBy: 'x'.repeat(201) }, 'requestedBy'],
    ['a NUL in the description', { ...valid, description: 'a\u0000b' }, 'description'],
    ['a field given under both names, one null', { ...valid, requestedBy: null, requested_by: 'a' }, 'requested_by'],
    ['an id ending in .lock', { ...valid, changeRequestId: 'a.lock' }, 'changeRequestId'],
    ['a repo.url whose port is out of range', { ...valid, repo: { url: 'http://h:65536/a.git' } }, 'repo.url'],
    ['a repo.url whose host is no IPv4 address', { ...valid, repo: { url: 'http://1.2.3.999/a.git' } }, 'repo.url'],
  ])('%s is a 400 naming the field', (_name, body, field) => {
    expect(refusal(() => parseChangeRequestInput(body))).toMatchObject({ status: 400, field });
  });

  test('null and empty strings are the defaults (proto3), and lengths count characters, not UTF-16 units', () => {
    const input = parseChangeRequestInput({
      ...valid,
      changeRequestId: '',
      requestedBy: null,
      repo: { ...valid.repo, baseRef: null, baseCommit: '' },
      title: '🚀'.repeat(500),
      description: '\t spaces and\ncontrol characters \u0001 are fine',
    });
    expect(input).toMatchObject({ requestedBy: '', repo: { baseRef: 'main', baseCommit: '' } });
    expect(input.changeRequestId).toBeUndefined();
    expect(input.title).toHaveLength(1000);
    expect(parseChangeRequestInput({ ...valid, title: ' \tAdd retry\n' }).title).toBe('Add retry');
  });

  test.each([
    ['an array', []],
    ['a string', 'x'],
    ['null', null],
  ])('%s as the body is a 400', (_n, body) => {
    expect(refusal(() => parseChangeRequestInput(body))).toMatchObject({ status: 400, field: undefined });
  });

  test("a follow-up names one of the farm's own branches to push to; any other branch is refused by name", () => {
    expect(parseChangeRequestInput({ ...valid, integrationBranch: 'farm/cr-1' }).integrationBranch).toBe('farm/cr-1');
    expect(parseChangeRequestInput({ ...valid, integration_branch: 'farm/x/y' }).integrationBranch).toBe('farm/x/y');
    expect(parseChangeRequestInput({ ...valid, integrationBranch: '' }).integrationBranch).toBeUndefined();
    for (const bad of ['main', 'release/1', 'farm/', 'farm/a..b', 'farm/x.lock', 'refs/heads/farm/x', 'farm/a b']) {
      const r = refusal(() => parseChangeRequestInput({ ...valid, integrationBranch: bad }));
      expect(r.field).toBe('integrationBranch');
      expect(r.message).toMatch(/farm's own branches/);
    }
    const a = { ...valid, changeRequestId: 'x', description: '', requestedBy: '', checkCommand: '' };
    const base = submissionDigest({ ...parseChangeRequestInput(a), changeRequestId: 'x' });
    const onBranch = submissionDigest({
      ...parseChangeRequestInput({ ...a, integrationBranch: 'farm/p' }),
      changeRequestId: 'x',
    });
    expect(onBranch).not.toBe(base);
  });

  test('the digest ignores createdAtMs and tells different content apart', () => {
    const a = { ...parseChangeRequestInput(valid), changeRequestId: 'x' };
    expect(submissionDigest({ ...a, createdAtMs: 1 })).toBe(submissionDigest(a));
    expect(submissionDigest({ ...a, title: 'Add retries' })).not.toBe(submissionDigest(a));
    expect(submissionDigest({ ...a, repo: { ...a.repo, baseRef: 'dev' } })).not.toBe(submissionDigest(a));
  });
});

describe('the other inputs', () => {
  test('cancel: no body is fine, a reason is kept, anything else is refused by name', () => {
    expect(parseCancelInput(undefined)).toEqual({ reason: '', requestedBy: '' });
    expect(parseCancelInput({ reason: 'changed my mind' }).reason).toBe('changed my mind');
    expect(refusal(() => parseCancelInput({ force: true }))).toMatchObject({ status: 400, field: 'force' });
  });

  test('limit: 50 by default, 1..500 else a 400 on limit, also when given empty', () => {
    expect(parseLimit(null)).toBe(50);
    expect(parseLimit('5')).toBe(5);
    for (const bad of ['', '0', '501', '-1', '2.5', 'ten', '9'.repeat(400)]) {
      expect(refusal(() => parseLimit(bad)).field).toBe('limit');
    }
  });

  test('resume point: Last-Event-ID wins over ?after, 0 from the first, garbage is a 400 naming its source', () => {
    expect(parseResumeAfter(undefined, null)).toBe(0);
    expect(parseResumeAfter('7', '3')).toBe(7);
    expect(parseResumeAfter(undefined, '3')).toBe(3);
    expect(refusal(() => parseResumeAfter('x', null)).field).toBe('Last-Event-ID');
    expect(refusal(() => parseResumeAfter(undefined, '-2')).field).toBe('after');
  });

  test('resume point: any number of digits is a sequence number; both sources are checked; empty ?after is not', () => {
    expect(parseResumeAfter('1234567890123456', null)).toBe(1234567890123456);
    expect(parseResumeAfter('9'.repeat(40), null)).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseResumeAfter('', '4')).toBe(4); // an empty header is none
    expect(refusal(() => parseResumeAfter('0', '-1')).field).toBe('after');
    expect(refusal(() => parseResumeAfter(undefined, '')).field).toBe('after');
    expect(refusal(() => parseResumeAfter(' 7', null)).field).toBe('Last-Event-ID');
  });
});

describe('openapi.yaml and the validator', () => {
  const doc = parse(readFileSync(OPENAPI_FILE, 'utf8'));
  const schemas = doc.components.schemas;
  const conformance = new OpenApiConformance();

  test("enforce the document's length limits, counted in characters, naming the field", () => {
    const input = schemas.ChangeRequestInput.properties;
    const repo = schemas.RepoRefInput.properties;
    const texts: [string, number, (v: string) => Record<string, unknown>][] = [
      ['changeRequestId', input.changeRequestId.maxLength, (v) => ({ ...valid, changeRequestId: v })],
      ['title', input.title.maxLength, (v) => ({ ...valid, title: v })],
      ['description', input.description.maxLength, (v) => ({ ...valid, description: v })],
      ['requestedBy', input.requestedBy.maxLength, (v) => ({ ...valid, requestedBy: v })],
      ['checkCommand', input.checkCommand.maxLength, (v) => ({ ...valid, checkCommand: v })],
      ['repo.baseRef', repo.baseRef.maxLength, (v) => ({ ...valid, repo: { ...valid.repo, baseRef: v } })],
    ];
    for (const [field, max, body] of texts) {
      expect([field, max]).toEqual([field, expect.any(Number)]);
      expect(() => parseChangeRequestInput(body('a'.repeat(max)))).not.toThrow();
      expect(refusal(() => parseChangeRequestInput(body('a'.repeat(max + 1))))).toMatchObject({
        status: 400,
        field,
        message: expect.stringContaining(field),
      });
    }
    const url = `https://git.example.com/${'a'.repeat(repo.url.maxLength)}`;
    expect(refusal(() => parseChangeRequestInput({ ...valid, repo: { url } })).field).toBe('repo.url');
    const reason = schemas.CancelInput.properties.reason.maxLength;
    expect(parseCancelInput({ reason: '😀'.repeat(reason) }).reason).toHaveLength(2 * reason);
    expect(refusal(() => parseCancelInput({ reason: 'x'.repeat(reason + 1) })).field).toBe('reason');
  });

  const withRepo = (repo: Record<string, unknown>) => ({ ...valid, repo: { ...valid.repo, ...repo } });
  // What fuzzers found where the two disagreed, and the edges of every rule.
  test.each([
    ['the smallest request', valid, true],
    ['an empty repo.url', withRepo({ url: '' }), false],
    ['a requestedBy of 200 characters outside the BMP', { ...valid, requestedBy: '😀'.repeat(200) }, true],
    ['a requestedBy of 201 characters', { ...valid, requestedBy: 'x'.repeat(201) }, false],
    ['a null requestedBy', { ...valid, requestedBy: null }, true],
    ['a null title', { ...valid, title: null }, false],
    ['a blank title', { ...valid, title: ' \t\r\n' }, false],
    ['a title of a no-break space', { ...valid, title: '\u00a0' }, true],
    ['a NUL in the title', { ...valid, title: 'a\u0000' }, false],
    ['a NUL in checkCommand', { ...valid, checkCommand: '\u0000' }, false],
    ['an empty baseCommit', withRepo({ baseCommit: '' }), true],
    ['an upper-case baseCommit', withRepo({ baseCommit: 'ABCDEF0' }), false],
    ['an empty baseRef', withRepo({ baseRef: '' }), true],
    ['a baseRef with a no-break space', withRepo({ baseRef: 'a\u00a0b' }), true],
    ['a baseRef with a line separator before ..', withRepo({ baseRef: '\u2028..' }), false],
    ['a baseRef ending in .lock', withRepo({ baseRef: 'main.lock' }), false],
    ['a baseRef starting with a dash', withRepo({ baseRef: '-x' }), false],
    ['a nested baseRef', withRepo({ baseRef: 'release/1.2' }), true],
    ['a repo.url with port, query and fragment', withRepo({ url: 'https://git.example.com:8443/a.git?x#y' }), true],
    // Credentials are the farm's configuration; only farm up's intake takes them off a URL (urlCredentials).
    ['a repo.url with user info', withRepo({ url: 'https://u:p@git.example.com/a.git' }), false],
    ['a repo.url with an IPv4 host', withRepo({ url: 'http://127.0.0.1:8080/app.git' }), true],
    ['a repo.url with an upper-case scheme', withRepo({ url: 'HTTP://git.example.com/a.git' }), false],
    ['a repo.url with a numeric last label', withRepo({ url: 'http://a.0x1/a.git' }), false],
    ['a repo.url with a punycode label', withRepo({ url: 'http://xn--/a.git' }), false],
    ['a repo.url with a space in the path', withRepo({ url: 'http://h/a b.git' }), false],
    ['a repo.url with non-ASCII in the path', withRepo({ url: 'http://h/ä.git' }), true],
    ['a repo.url of 2049 characters', withRepo({ url: `http://h/${'a'.repeat(2040)}` }), false],
    ['an empty changeRequestId', { ...valid, changeRequestId: '' }, true],
    ['a changeRequestId of 129 characters', { ...valid, changeRequestId: 'a'.repeat(129) }, false],
    ['a changeRequestId with a trailing line feed', { ...valid, changeRequestId: 'a\n' }, false],
    ['a createdAtMs of 15 digits, as a string', { ...valid, createdAtMs: '999999999999999' }, true],
    ['a createdAtMs of 16 digits, as a number', { ...valid, createdAtMs: 1_000_000_000_000_000 }, false],
    ['a createdAtMs with a fraction', { ...valid, createdAtMs: 1.5 }, false],
    ['a huge createdAtMs', { ...valid, createdAtMs: 1e300 }, false],
    ['both names of one field', { ...valid, checkCommand: 'a', check_command: 'b' }, false],
    ['both names of one repo field', withRepo({ baseRef: 'a', base_ref: 'b' }), false],
    ['a proto field name', { ...valid, created_at_ms: '5' }, true],
    ['an unknown field', { ...valid, priority: 1 }, false],
  ])('agree on %s', (_name, body, accepted) => {
    const specErrors = conformance.requestBodyErrors('/v1/change-requests', 'post', body);
    expect(verdicts(specErrors, () => parseChangeRequestInput(body))).toEqual({ spec: accepted, server: accepted });
  });

  test.each([
    ['no reason', {}],
    ['a null reason', { reason: null }],
    ['a reason of 2001 characters', { reason: 'x'.repeat(2001) }],
    ['a NUL in the reason', { reason: '\u0000' }],
    ['both names of requestedBy', { requestedBy: 'a', requested_by: 'b' }],
  ])('agree on a cancel with %s', (_name, body) => {
    const specErrors = conformance.requestBodyErrors('/v1/change-requests/{id}/cancel', 'post', body);
    const { spec, server } = verdicts(specErrors, () => parseCancelInput(body));
    expect(server).toBe(spec);
  });
});

/** Whether the document and the validator accept an input, the reasons shown when they differ. */
function verdicts(specErrors: string | undefined, validate: () => unknown) {
  let serverError: string | undefined;
  try {
    validate();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    serverError = err.message;
  }
  const result = { spec: specErrors === undefined, server: serverError === undefined };
  if (result.spec !== result.server)
    console.log(`spec: ${specErrors ?? 'accepted'}; server: ${serverError ?? 'accepted'}`);
  return result;
}

test('a server that splits credentials off at intake accepts a repo.url with user info', () => {
  const body = { title: 't', repo: { url: 'https://u:p@git.example.com:8443/a.git' } };
  expect(parseChangeRequestInput(body, { urlCredentials: true }).repo.url).toBe(body.repo.url);
  expect(() => parseChangeRequestInput(body)).toThrow(/repo.url must be an http\(s\) git remote/);
});

test('a server that serves repositories of its own machine accepts an absolute path for repo.url, and says so', () => {
  for (const url of ['/srv/git/app', 'file:///srv/git/app']) {
    expect(parseChangeRequestInput({ title: 't', repo: { url } }, { localRepos: true }).repo.url).toBe(url);
    expect(refusal(() => parseChangeRequestInput({ title: 't', repo: { url } })).field).toBe('repo.url');
  }
  const refused = refusal(() =>
    parseChangeRequestInput({ title: 't', repo: { url: 'srv/app' } }, { localRepos: true }),
  );
  expect(refused).toMatchObject({ field: 'repo.url', message: expect.stringMatching(/absolute path/) });
  const nul = refusal(() =>
    parseChangeRequestInput({ title: 't', repo: { url: '/srv/a\u0000' } }, { localRepos: true }),
  );
  expect(nul.field).toBe('repo.url');
});
