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
  ])('%s is a 400 naming the field', (_name, body, field) => {
    expect(refusal(() => parseChangeRequestInput(body))).toMatchObject({ status: 400, field });
  });

  test.each([
    ['an array', []],
    ['a string', 'x'],
    ['null', null],
  ])('%s as the body is a 400', (_n, body) => {
    expect(refusal(() => parseChangeRequestInput(body))).toMatchObject({ status: 400, field: undefined });
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

  test('limit: 50 by default, 1..500 else a 400 on limit', () => {
    expect(parseLimit(null)).toBe(50);
    expect(parseLimit('5')).toBe(5);
    for (const bad of ['0', '501', '-1', '2.5', 'ten']) expect(refusal(() => parseLimit(bad)).field).toBe('limit');
  });

  test('resume point: Last-Event-ID wins over ?after, 0 from the first, garbage is a 400 naming its source', () => {
    expect(parseResumeAfter(undefined, null)).toBe(0);
    expect(parseResumeAfter('7', '3')).toBe(7);
    expect(parseResumeAfter(undefined, '3')).toBe(3);
    expect(refusal(() => parseResumeAfter('x', null)).field).toBe('Last-Event-ID');
    expect(refusal(() => parseResumeAfter(undefined, '-2')).field).toBe('after');
  });
});
