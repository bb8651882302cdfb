/**
 * GitLabWebhooks against GitLab's documented webhook payloads (testing/gitlab/webhooks/*.json: the examples
 * of GitLab's "Webhook events" page, each file naming its section and what was changed). No GitLab can run
 * here to send real deliveries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { WebhookRejected } from './forge';
import { GitLabWebhooks } from './gitlab-webhooks';

const secret = 'gitlab-secret-token';
const reader = new GitLabWebhooks({ label: 'agent-farm' });

function fixture(name: string): { headers: Record<string, string>; raw: Buffer } {
  const f = JSON.parse(readFileSync(join(__dirname, '../testing/gitlab/webhooks', `${name}.json`), 'utf8')) as {
    headers: Record<string, string>;
    payload: unknown;
  };
  const headers = Object.fromEntries(Object.entries(f.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { headers: { ...headers, 'x-gitlab-token': secret }, raw: Buffer.from(JSON.stringify(f.payload)) };
}

/** Verifies and parses one delivery, as the farm's webhook route does. */
function deliver(name: string) {
  const { headers, raw } = fixture(name);
  return reader.parse(reader.verify(headers, raw, secret), JSON.parse(raw.toString()));
}

function refusal(headers: Record<string, string | undefined>, s = secret): string {
  try {
    reader.verify(headers, Buffer.from('{"secret":"SECRET-PAYLOAD-TEXT"}'), s);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookRejected);
    expect((err as Error).message).not.toContain('SECRET-PAYLOAD-TEXT');
    expect((err as Error).message).not.toContain(secret);
    return (err as Error).message;
  }
  throw new Error('delivery was accepted');
}

describe('GitLab webhook deliveries', () => {
  it('accepts the secret token and names the delivery by its Idempotency-Key, else its event UUID', () => {
    const { headers, raw } = fixture('note-hook-issue');
    expect(reader.verify(headers, raw, secret)).toEqual({
      deliveryId: headers['idempotency-key'],
      event: 'Note Hook',
    });
    const { 'idempotency-key': _key, ...older } = headers;
    expect(reader.verify(older, raw, secret).deliveryId).toBe(headers['x-gitlab-event-uuid']);
  });

  it('refuses a wrong or missing token, an unset secret and a delivery without id or event', () => {
    const { headers } = fixture('note-hook-issue');
    expect(refusal({ ...headers, 'x-gitlab-token': 'guess' })).toMatch(/not the webhook secret/);
    expect(refusal({ ...headers, 'x-gitlab-token': secret + 'x' })).toMatch(/not the webhook secret/);
    expect(refusal({ ...headers, 'x-gitlab-token': undefined })).toMatch(/missing x-gitlab-token/);
    expect(refusal(headers, '')).toMatch(/no webhook secret/);
    expect(refusal({ ...headers, 'idempotency-key': undefined, 'x-gitlab-event-uuid': undefined })).toMatch(
      /missing idempotency-key/,
    );
    expect(refusal({ ...headers, 'x-gitlab-event': undefined })).toMatch(/missing x-gitlab-event/);
  });

  it('reads the farm label added to an issue, and ignores an issue opened without it', () => {
    expect(deliver('issue-hook-label-added')).toEqual({
      kind: 'issue_labelled',
      repo: { fullName: 'gitlabhq/gitlab-test' },
      issue: {
        number: 23,
        title: 'New API: create/update/delete file',
        body: 'Create new API for manipulations with repository',
        labels: ['API', 'agent-farm'],
        url: 'http://example.com/diaspora/issues/23',
        author: '',
        state: 'open',
        isPullRequest: false,
      },
      label: 'agent-farm',
      sender: 'root',
    });
    expect(deliver('issue-hook-open-unlabelled')).toBeUndefined();
  });

  it('reads a comment on an issue and on a merge request conversation', () => {
    expect(deliver('note-hook-issue')).toMatchObject({
      kind: 'issue_comment',
      repo: { fullName: 'gitlab-org/gitlab-test' },
      issue: {
        number: 17,
        isPullRequest: false,
        state: 'closed',
        url: 'http://example.com/gitlab-org/gitlab-test/issues/17',
      },
      comment: { id: 1241, body: '@agent-farm please fix this', author: 'root' },
      sender: 'root',
    });
    expect(deliver('note-hook-merge-request')).toMatchObject({
      kind: 'issue_comment',
      issue: { number: 1, isPullRequest: true, state: 'open' },
      comment: { id: 1244, body: 'This MR needs work.' },
    });
  });

  it('reads a diff note as a review comment on a line of the new file', () => {
    expect(deliver('note-hook-diff-note')).toEqual({
      kind: 'review_comment',
      repo: { fullName: 'gitlab-org/gitlab-test' },
      pull: {
        number: 1,
        headBranch: 'master',
        headSha: '562e173be03b8ff2efb05345d12df18815438a4b',
        url: 'http://example.com/gitlab-org/gitlab-test/merge_requests/1',
      },
      comment: {
        id: 1245,
        body: 'Rename this to cartTotal',
        author: 'root',
        path: 'package.json',
        line: 27,
        reviewId: 1,
      },
      sender: 'root',
    });
  });

  it('reads an approval as an approved review, and ignores other merge request events', () => {
    expect(deliver('merge-request-hook-approval')).toEqual({
      kind: 'review',
      repo: { fullName: 'gitlabhq/gitlab-test' },
      pull: {
        number: 1,
        headBranch: 'ms-viewport',
        headSha: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        url: 'http://example.com/diaspora/merge_requests/1',
      },
      review: { id: 1, state: 'approved', body: '', author: 'root' },
      sender: 'root',
    });
    expect(deliver('merge-request-hook-open')).toBeUndefined();
  });

  it('refuses a payload it reads that lacks what it needs, without echoing it', () => {
    const bad = { user: { id: 1, username: 'root' }, project: {}, object_attributes: { note: 'SECRET-PAYLOAD-TEXT' } };
    expect(() => reader.parse({ deliveryId: 'd', event: 'Note Hook' }, bad)).toThrow(WebhookRejected);
    expect(() => reader.parse({ deliveryId: 'd', event: 'Note Hook' }, bad)).not.toThrow(/SECRET-PAYLOAD-TEXT/);
    expect(reader.parse({ deliveryId: 'd', event: 'Push Hook' }, {})).toBeUndefined();
  });
});
