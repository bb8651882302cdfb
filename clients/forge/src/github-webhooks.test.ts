import { githubWebhookPayload, githubWebhookProblems } from '../testing/github-webhook-payloads';
import { WebhookRejected } from './forge';
import { GitHubWebhooks } from './github-webhooks';
import { hmacSha256Signature } from './webhook-signature';

const secret = 'hook-secret';
const body = Buffer.from(JSON.stringify({ action: 'ping', zen: 'SECRET-PAYLOAD-TEXT' }));
const headers = (over: Record<string, string | undefined> = {}) => ({
  'x-hub-signature-256': hmacSha256Signature(body, secret),
  'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
  'x-github-event': 'ping',
  ...over,
});

function refusal(h: Record<string, string | undefined>, s = secret, b = body): WebhookRejected {
  try {
    new GitHubWebhooks().verify(h, b, s);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookRejected);
    expect((err as Error).message).not.toContain('SECRET-PAYLOAD-TEXT');
    return err as WebhookRejected;
  }
  throw new Error('delivery was accepted');
}

describe('GitHub webhook deliveries', () => {
  it('accepts a delivery signed with the secret and names its id and event', () => {
    expect(new GitHubWebhooks().verify(headers(), body, secret)).toEqual({
      deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      event: 'ping',
    });
  });

  it('refuses a wrong secret, a tampered body, a malformed or missing signature and missing headers', () => {
    expect(refusal(headers(), 'other-secret').message).toMatch(/does not match/);
    expect(refusal(headers(), secret, Buffer.from(body.toString() + ' ')).message).toMatch(/does not match/);
    expect(refusal(headers({ 'x-hub-signature-256': 'sha1=abc' })).message).toMatch(/not sha256=/);
    expect(refusal(headers({ 'x-hub-signature-256': undefined })).message).toMatch(/missing x-hub-signature-256/);
    expect(refusal(headers({ 'x-github-delivery': undefined })).message).toMatch(/missing x-github-delivery/);
    expect(refusal(headers(), '').message).toMatch(/no webhook secret/);
  });

  it('parses nothing from events the farm does not act on', () => {
    expect(new GitHubWebhooks().parse({ deliveryId: 'd', event: 'ping' }, { zen: 'x' })).toBeUndefined();
    expect(new GitHubWebhooks().parse({ deliveryId: 'd', event: 'issues' }, { action: 'closed' })).toBeUndefined();
  });
});

describe('GitHub webhook payloads, as GitHub documents them', () => {
  const reader = new GitHubWebhooks({ label: 'agent-farm' });
  const repository = { full_name: 'acme/shop', name: 'shop', owner: { login: 'acme' } };
  const sender = { login: 'ann' };
  const issue = {
    number: 7,
    title: 'Cart total is wrong',
    body: 'It adds tax twice. SECRET-PAYLOAD-TEXT',
    html_url: 'https://github.com/acme/shop/issues/7',
    state: 'open',
    user: { login: 'ann' },
    labels: [{ name: 'bug' }, { name: 'agent-farm' }],
  };
  const pullRequest = {
    number: 9,
    html_url: 'https://github.com/acme/shop/pull/9',
    head: { ref: 'farm/cr-1', sha: 'c'.repeat(40) },
  };

  /** Signs the payload, verifies the delivery and parses it, as the farm's webhook route does. */
  function deliver(event: string, payload: unknown) {
    const raw = Buffer.from(JSON.stringify(payload));
    const delivery = reader.verify(
      { 'x-hub-signature-256': hmacSha256Signature(raw, secret), 'x-github-delivery': 'd-1', 'x-github-event': event },
      raw,
      secret,
    );
    return reader.parse(delivery, JSON.parse(raw.toString()));
  }

  it('reads a label added to an issue', () => {
    const payload = githubWebhookPayload('issues-labeled', {
      action: 'labeled',
      issue,
      label: { name: 'agent-farm' },
      repository,
      sender,
    });
    expect(deliver('issues', payload)).toEqual({
      kind: 'issue_labelled',
      repo: { fullName: 'acme/shop' },
      issue: expect.objectContaining({ number: 7, labels: ['bug', 'agent-farm'], isPullRequest: false }),
      label: 'agent-farm',
      sender: 'ann',
    });
  });

  it('reads an issue opened with the farm label, and ignores one opened without it', () => {
    const opened = githubWebhookPayload('issues-opened', { action: 'opened', issue, repository, sender });
    expect(deliver('issues', opened)).toMatchObject({ kind: 'issue_labelled', label: 'agent-farm' });
    const unlabelled = githubWebhookPayload('issues-opened', {
      action: 'opened',
      issue: { ...issue, labels: [{ name: 'bug' }] },
      repository,
      sender,
    });
    expect(deliver('issues', unlabelled)).toBeUndefined();
  });

  it('reads a comment on an issue and on a pull request conversation', () => {
    const comment = {
      id: 55,
      body: '@agent-farm please',
      html_url: 'https://github.com/acme/shop/issues/7#c',
      user: sender,
    };
    const onIssue = githubWebhookPayload('issue-comment-created', {
      action: 'created',
      issue,
      comment,
      repository,
      sender,
    });
    expect(deliver('issue_comment', onIssue)).toMatchObject({
      kind: 'issue_comment',
      issue: { number: 7, isPullRequest: false },
      comment: { id: 55, body: '@agent-farm please', author: 'ann' },
    });
    const onPull = githubWebhookPayload('issue-comment-created', {
      action: 'created',
      issue: { ...issue, pull_request: { url: 'https://api.github.com/repos/acme/shop/pulls/7' } },
      comment,
      repository,
      sender,
    });
    expect(deliver('issue_comment', onPull)).toMatchObject({ issue: { isPullRequest: true } });
  });

  it('reads a submitted review with its id and state', () => {
    const payload = githubWebhookPayload('pull-request-review-submitted', {
      action: 'submitted',
      pull_request: pullRequest,
      review: { id: 80, state: 'changes_requested', body: 'Please rename', user: { login: 'bob' } },
      repository,
      sender: { login: 'bob' },
    });
    expect(deliver('pull_request_review', payload)).toEqual({
      kind: 'review',
      repo: { fullName: 'acme/shop' },
      pull: { number: 9, headBranch: 'farm/cr-1', headSha: 'c'.repeat(40), url: 'https://github.com/acme/shop/pull/9' },
      review: { id: 80, state: 'changes_requested', body: 'Please rename', author: 'bob' },
      sender: 'bob',
    });
  });

  it('reads a review comment on a line of the new file', () => {
    const payload = githubWebhookPayload('pull-request-review-comment-created', {
      action: 'created',
      pull_request: pullRequest,
      comment: {
        id: 81,
        body: 'off by one',
        path: 'src/cart.ts',
        line: 12,
        side: 'RIGHT',
        pull_request_review_id: 80,
        diff_hunk: '@@ -10,3 +10,4 @@',
        user: { login: 'bob' },
      },
      repository,
      sender: { login: 'bob' },
    });
    expect(deliver('pull_request_review_comment', payload)).toMatchObject({
      kind: 'review_comment',
      pull: { number: 9 },
      comment: { id: 81, path: 'src/cart.ts', line: 12, reviewId: 80, author: 'bob', diffHunk: '@@ -10,3 +10,4 @@' },
    });
  });

  it('refuses a payload of an event it reads that lacks what it needs, without echoing the body', () => {
    const raw = { action: 'labeled', issue: { title: 'SECRET-PAYLOAD-TEXT' }, repository, sender };
    expect(githubWebhookProblems('issues-labeled', raw)).not.toEqual([]);
    expect(() => reader.parse({ deliveryId: 'd', event: 'issues' }, raw)).toThrow(WebhookRejected);
    expect(() => reader.parse({ deliveryId: 'd', event: 'issues' }, raw)).not.toThrow(/SECRET-PAYLOAD-TEXT/);
  });
});
