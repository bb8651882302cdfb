import { createHmac } from 'node:crypto';
import { WebhookRejected } from './forge';
import { GiteaWebhooks } from './gitea-webhooks';

const secret = 's3cret';
const body = Buffer.from(JSON.stringify({ action: 'created', secretValue: 'do-not-echo' }));
const sign = (b: Buffer, key = secret) => createHmac('sha256', key).update(b).digest('hex');
const headers = (extra: Record<string, string>) => ({
  'x-gitea-delivery': 'd-1',
  'x-gitea-event': 'issue_comment',
  ...extra,
});

describe('GiteaWebhooks.verify', () => {
  const hooks = new GiteaWebhooks();

  it('accepts Gitea’s own signature and the GitHub-style one, naming the delivery and the event', () => {
    expect(hooks.verify(headers({ 'x-gitea-signature': sign(body) }), body, secret)).toEqual({
      deliveryId: 'd-1',
      event: 'issue_comment',
    });
    const githubStyle = {
      'x-github-delivery': 'd-2',
      'x-github-event': 'issues',
      'x-hub-signature-256': `sha256=${sign(body)}`,
    };
    expect(hooks.verify(githubStyle, body, secret)).toEqual({ deliveryId: 'd-2', event: 'issues' });
  });

  it.each([
    [
      'a tampered body',
      headers({ 'x-gitea-signature': sign(body) }),
      Buffer.from(body.toString().replace('created', 'deleted')),
    ],
    ['another secret', headers({ 'x-gitea-signature': sign(body, 'other') }), body],
    ['no signature', headers({}), body],
    ['a signature that is not hex', headers({ 'x-gitea-signature': 'zz' + sign(body).slice(2) }), body],
    ['a short signature', headers({ 'x-gitea-signature': sign(body).slice(0, 10) }), body],
  ])('refuses %s, without the body in the reason', (_what, h, raw) => {
    let err: unknown;
    try {
      hooks.verify(h, raw, secret);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(WebhookRejected);
    expect((err as Error).message).not.toContain('do-not-echo');
  });

  it('refuses everything when no secret is configured', () => {
    expect(() =>
      hooks.verify(headers({ 'x-gitea-signature': createHmac('sha256', '').update(body).digest('hex') }), body, ''),
    ).toThrow(WebhookRejected);
  });

  it('refuses a signed delivery without a delivery id', () => {
    expect(() => hooks.verify({ 'x-gitea-event': 'issues', 'x-gitea-signature': sign(body) }, body, secret)).toThrow(
      /delivery id/,
    );
  });
});

describe('GiteaWebhooks.parse', () => {
  const repository = { full_name: 'alice/app' };
  const sender = { login: 'bob' };
  const issue = (labels: string[], pr = false) => ({
    number: 7,
    title: 'Make it faster',
    body: 'please',
    labels: labels.map((name) => ({ name })),
    html_url: 'http://gitea/alice/app/issues/7',
    user: { login: 'alice' },
    state: 'open',
    pull_request: pr ? { merged: false } : null,
  });
  const pull = {
    number: 3,
    html_url: 'http://gitea/alice/app/pulls/3',
    head: { ref: 'farm/r1', sha: 'abc' },
    base: { ref: 'main' },
  };
  const at = (event: string) => ({ deliveryId: 'd', event });

  it('reads a label change as the watched label on the issue, and ignores it without that label', () => {
    const hooks = new GiteaWebhooks({ label: 'agent-farm' });
    const payload = { action: 'label_updated', issue: issue(['bug', 'agent-farm']), repository, sender };
    expect(hooks.parse(at('issues'), payload)).toMatchObject({
      kind: 'issue_labelled',
      repo: { fullName: 'alice/app' },
      label: 'agent-farm',
      sender: 'bob',
      issue: { number: 7, labels: ['bug', 'agent-farm'], isPullRequest: false },
    });
    expect(hooks.parse(at('issues'), { ...payload, issue: issue(['bug']) })).toBeUndefined();
    expect(hooks.parse(at('issues'), { ...payload, action: 'closed' })).toBeUndefined();
  });

  it('reads a comment on a pull request’s conversation as such', () => {
    const payload = {
      action: 'created',
      issue: issue([], true),
      is_pull: true,
      comment: { id: 9, body: '@agent-farm fix', user: sender },
      repository,
      sender,
    };
    expect(new GiteaWebhooks().parse(at('issue_comment'), payload)).toMatchObject({
      kind: 'issue_comment',
      issue: { number: 7, isPullRequest: true },
      comment: { id: 9, body: '@agent-farm fix', author: 'bob' },
    });
    expect(new GiteaWebhooks().parse(at('issue_comment'), { ...payload, action: 'edited' })).toBeUndefined();
  });

  it.each([
    ['pull_request_rejected', 'pull_request_review_rejected', 'changes_requested'],
    ['pull_request_approved', 'pull_request_review_approved', 'approved'],
    ['pull_request_comment', 'pull_request_review_comment', 'commented'],
  ])('reads %s as a review without an id, state from the event', (event, type, state) => {
    const payload = {
      action: 'reviewed',
      number: 3,
      pull_request: pull,
      review: { type, content: 'see lines' },
      repository,
      sender,
    };
    expect(new GiteaWebhooks().parse(at(event), payload)).toEqual({
      kind: 'review',
      repo: { fullName: 'alice/app' },
      pull: { number: 3, headBranch: 'farm/r1', headSha: 'abc', url: pull.html_url },
      review: { state, body: 'see lines', author: 'bob' },
      sender: 'bob',
    });
  });

  it('ignores what the farm does not act on', () => {
    const hooks = new GiteaWebhooks();
    expect(
      hooks.parse(at('pull_request'), { action: 'synchronized', pull_request: pull, repository, sender }),
    ).toBeUndefined();
    expect(hooks.parse(at('push'), { repository, sender })).toBeUndefined();
    expect(
      hooks.parse(at('issues'), { action: 'label_updated', issue: issue(['agent-farm'], true), repository, sender }),
    ).toBeUndefined();
  });
});
