import type { ForgeEvent, Issue } from '@farm/forge';
import {
  FARM_MARKER,
  commentText,
  effectKey,
  effectsFor,
  followUpRequest,
  intentOf,
  issueRequest,
  noLongerWanted,
  pullRequestText,
  DELIVERY_RETRY_WINDOW_MS,
  effectFailure,
  giveUpDelivery,
  retryDelayMs,
  reviewFollowUps,
} from './forge-decisions';

const settings = { label: 'agent-farm', mention: '@agent-farm' };
const repo = { fullName: 'team/app' };
const issue: Issue = {
  number: 7,
  title: 'Retry the HTTP client',
  body: 'It gives up after one 503.',
  labels: ['agent-farm'],
  url: 'http://forge/team/app/issues/7',
  author: 'ann',
  state: 'open',
  isPullRequest: false,
};
const pull = { number: 9, headBranch: 'farm/cr-1', headSha: 'abc123', url: 'http://forge/team/app/pulls/9' };

describe('what a forge event asks of the farm', () => {
  test('an open issue with the label is a request, keyed by the issue (one request per issue)', () => {
    const e: ForgeEvent = { kind: 'issue_labelled', repo, issue, label: 'agent-farm', sender: 'ann' };
    expect(intentOf(e, settings)).toEqual({ kind: 'from-issue', sourceKey: 'issue:team/app#7', issue });
    expect(intentOf({ ...e, label: 'bug' }, settings).kind).toBe('ignore');
    expect(intentOf({ ...e, issue: { ...issue, state: 'closed' } }, settings).kind).toBe('ignore');
    expect(intentOf({ ...e, issue: { ...issue, isPullRequest: true } }, settings).kind).toBe('ignore');
  });

  test('a comment mentioning the farm: on an issue the same request key, on a pull request a follow-up', () => {
    const comment = { id: 31, body: 'Could @agent-farm take this?', author: 'bob' };
    const onIssue: ForgeEvent = { kind: 'issue_comment', repo, issue, comment, sender: 'bob' };
    expect(intentOf(onIssue, settings)).toMatchObject({ kind: 'from-issue', sourceKey: 'issue:team/app#7' });
    const onPull: ForgeEvent = { ...onIssue, issue: { ...issue, number: 9, isPullRequest: true } };
    expect(intentOf(onPull, settings)).toMatchObject({
      kind: 'follow-up-comment',
      sourceKey: 'comment:team/app:31',
      pullNumber: 9,
    });
    // Not a mention (a longer name), no mention, and the farm's own comments quoting it: nothing.
    for (const body of ['@agent-farmer please', 'looks good', `Working on @agent-farm ${FARM_MARKER}`]) {
      expect(intentOf({ ...onPull, comment: { ...comment, body } }, settings).kind).toBe('ignore');
    }
  });

  test('a review asking for changes (or commenting with a mention) is read back; approvals are not', () => {
    const review = (state: 'changes_requested' | 'approved' | 'commented', body = '') =>
      intentOf({ kind: 'review', repo, pull, review: { state, body, author: 'rev' }, sender: 'rev' }, settings).kind;
    expect(review('changes_requested')).toBe('review');
    expect(review('commented', '@agent-farm rename it')).toBe('review');
    expect(review('commented', 'nice')).toBe('ignore');
    expect(review('approved')).toBe('ignore');
  });

  test('each line comment of a review is its own follow-up; a review without any, one for its body', () => {
    const review = { id: 5, state: 'changes_requested' as const, body: 'Please fix', author: 'rev' };
    const comments = [
      { id: 1, body: 'rename', author: 'rev', path: 'a.ts', line: 3 },
      { id: 2, body: 'typo', author: 'rev', path: 'b.ts', line: 8 },
      { id: 3, body: `Pushed ${FARM_MARKER}`, author: 'farm', path: 'b.ts' },
    ];
    expect(reviewFollowUps('team/app', review, comments).map((f) => f.sourceKey)).toEqual([
      'review-comment:team/app:1',
      'review-comment:team/app:2',
    ]);
    expect(reviewFollowUps('team/app', review, [])).toEqual([
      { sourceKey: 'review:team/app:5', comment: expect.objectContaining({ body: 'Please fix' }) },
    ]);
    expect(reviewFollowUps('team/app', { ...review, body: ' ' }, [])).toEqual([]);
  });
});

describe('the requests the bridge makes', () => {
  test("an issue's request: its title and body, the repository's default branch", () => {
    const input = issueRequest(issue, { cloneUrl: 'http://forge/team/app.git', defaultBranch: 'trunk' });
    expect(input).toMatchObject({
      title: 'Retry the HTTP client',
      requestedBy: 'forge:ann',
      repo: { url: 'http://forge/team/app.git', baseRef: 'trunk', baseCommit: '' },
    });
    expect(input.description).toContain('It gives up after one 503.');
    expect(input.description).toContain(issue.url);
  });

  test('a follow-up starts from the head of the pull request and is pushed back onto its branch', () => {
    const input = followUpRequest({
      pull,
      comment: {
        id: 1,
        body: 'Rename `go` to `run`',
        author: 'rev',
        path: 'src/a.ts',
        line: 12,
        diffHunk: '@@ -1 +1 @@',
      },
      parent: {
        repoUrl: 'http://forge/team/app.git',
        checkCommand: 'npm test',
        title: 'Retry',
        notes: ['added retry'],
      },
      diff: 'diff --git a/src/a.ts b/src/a.ts\n'.repeat(2000),
    });
    expect(input).toMatchObject({
      repo: { url: 'http://forge/team/app.git', baseRef: 'farm/cr-1', baseCommit: 'abc123' },
      integrationBranch: 'farm/cr-1',
      checkCommand: 'npm test',
      requestedBy: 'forge:rev',
    });
    expect(input.title).toBe('Review of #9 on src/a.ts:12: Rename `go` to `run`');
    expect(input.description).toContain('> Rename `go` to `run`');
    expect(input.description).toContain('- added retry');
    expect(input.description).toContain('(diff cut)');
    expect(input.description.length).toBeLessThan(40_000);
  });
});

describe('what the forge is told', () => {
  test('per origin and phase, each effect once under its own key', () => {
    const kinds = (origin: 'issue' | 'follow-up' | 'request', phase: string) =>
      effectsFor({ origin }, phase).map(effectKey);
    expect(kinds('issue', 'PLANNING')).toEqual(['announce']);
    expect(kinds('issue', 'DONE')).toEqual(['announce', 'open-pull-request', 'status:success', 'comment:done']);
    expect(kinds('issue', 'FAILED')).toEqual(['announce', 'comment:failed']);
    expect(kinds('follow-up', 'CODING')).toEqual(['announce', 'pending-status']);
    expect(kinds('follow-up', 'DONE')).toEqual(['announce', 'status:success', 'comment:done']);
    expect(kinds('follow-up', 'FAILED')).toEqual(['announce', 'status:failure', 'comment:failed']);
    expect(kinds('request', 'CODING')).toEqual([]);
    expect(kinds('request', 'DONE')).toEqual(['open-pull-request', 'status:success']);
    expect(kinds('request', 'FAILED')).toEqual([]);
  });

  test("the farm's comments carry the request, its link and the farm's marker; a failure says why", () => {
    const link = {
      origin: 'follow-up' as const,
      changeRequestId: 'cr-2',
      reply: { author: 'rev', path: 'a.ts', line: 3 },
    };
    const failed = commentText(
      { kind: 'final-comment', outcome: 'failed' },
      { link, requestUrl: 'http://farm/console/#/requests/cr-2', reason: 'build failed: lint red' },
    );
    expect(failed).toContain('Could not address the comment of @rev on a.ts:3');
    expect(failed).toContain('build failed: lint red');
    expect(failed).toContain('http://farm/console/#/requests/cr-2');
    expect(failed).toContain(FARM_MARKER);
    const done = commentText(
      { kind: 'final-comment', outcome: 'done' },
      { link: { ...link, origin: 'issue' }, pullUrl: 'http://forge/team/app/pulls/9' },
    );
    expect(done).toContain('pull request http://forge/team/app/pulls/9');
    const pushed = {
      link: { ...link, reply: { ...link.reply, headBranch: 'farm/cr-1' } },
      headSha: 'abcdef0123456789',
    };
    expect(commentText({ kind: 'final-comment', outcome: 'done' }, { ...pushed, pullState: 'open' })).toContain(
      'Pushed abcdef012345 for the comment of @rev on a.ts:3',
    );
    const late = commentText({ kind: 'final-comment', outcome: 'done' }, { ...pushed, pullState: 'merged' });
    expect(late).toContain('This pull request was merged while the farm worked on the comment of @rev on a.ts:3');
    expect(late).toContain('the change is on `farm/cr-1`, not in the pull request');
    expect(late).not.toContain('abcdef');
  });

  test("the pull request's text: goal, tasks, checks, cost and tokens, the issue it closes, the request's link", () => {
    const text = pullRequestText(
      {
        description: 'Retry on 503',
        request: {
          id: 'cr-1',
          phase: 'DONE',
          title: 'Retry the HTTP client',
          repoUrl: '',
          baseRef: 'main',
          baseCommit: '',
          reason: '',
          integrationBranch: 'farm/cr-1',
          tasksDone: 1,
          tasksTotal: 1,
          attempts: 2,
          tokens: { prompt: 1000, completion: 200, total: 1200 },
          costUsd: 0.0123,
          createdAt: '',
          updatedAt: '',
        },
        tasks: [
          {
            id: 't1',
            goal: 'Add a retry loop',
            status: 'SUCCESS',
            dispatch: 1,
            attempts: 2,
            branch: 'agt/t1',
            commitSha: 'x',
            notes: 'retries 3 times',
            dependsOn: [],
            tokens: { prompt: 0, completion: 0, total: 0 },
            costUsd: 0,
            verification: { checks: [{ name: 'test', run: 'npm test', ok: true }] },
          },
        ],
      },
      { requestUrl: 'http://farm/console/#/requests/cr-1', issue: { number: 7, url: issue.url } },
    );
    expect(text.title).toBe('Retry the HTTP client');
    for (const part of [
      'Retry on 503',
      'Closes #7',
      '**Add a retry loop** (success): retries 3 times',
      '✅ test: `npm test`',
      '$0.0123',
      'tokens: 1200',
      'http://farm/console/#/requests/cr-1',
    ])
      expect(text.body).toContain(part);
    expect(text.body).not.toContain('Not verified');
  });

  test('a task delivered unverified is said before the tasks, in a section of its own, with the reason', () => {
    const summary = {
      id: 't1',
      goal: 'Add a retry loop\nwith backoff',
      status: 'SUCCESS',
      dispatch: 1,
      attempts: 1,
      branch: 'agt/t1',
      commitSha: 'x',
      notes: '',
      dependsOn: [],
      tokens: { prompt: 0, completion: 0, total: 0 },
      costUsd: 0,
    };
    const request = {
      id: 'cr-2',
      phase: 'DONE',
      title: 'Retry',
      repoUrl: '',
      baseRef: 'main',
      baseCommit: '',
      reason: '',
      integrationBranch: 'farm/cr-2',
      tasksDone: 2,
      tasksTotal: 2,
      attempts: 2,
      tokens: { prompt: 0, completion: 0, total: 0 },
      costUsd: 0,
      createdAt: '',
      updatedAt: '',
    };
    const text = pullRequestText(
      {
        description: '',
        request,
        tasks: [
          { ...summary, verification: { unverifiedReason: 'no test exercises the change' } },
          {
            ...summary,
            id: 't2',
            goal: 'Log it',
            verification: { unverifiedReason: 'tests pass on the base', acceptedByReviewer: true },
          },
        ],
      },
      {},
    );
    expect(text.body).toContain(
      [
        '### Not verified by a test',
        '- ⚠️ **Add a retry loop**: NOT VERIFIED: no test exercises the change',
        "- ⚠️ **Log it**: unverified, accepted by the farm's reviewer: tests pass on the base",
      ].join('\n'),
    );
  });
});

describe('when a failed forge step is tried again', () => {
  test('backs off with the attempts up to five minutes, and never before a rate limit resets', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect([0, 1, 4, 20].map((a) => retryDelayMs(a, undefined, now))).toEqual([1000, 2000, 16_000, 300_000]);
    expect(retryDelayMs(0, new Date(now + 3600_000), now)).toBe(3600_000);
    expect(retryDelayMs(3, new Date(now - 1000), now)).toBe(8000);
  });
});

describe('what a failure means', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');

  test('a delivery failing for a reason that may pass is tried for a day (an hour-long outage loses nothing)', () => {
    expect(giveUpDelivery(true, new Date(now - 3600_000), now)).toBe(false);
    expect(giveUpDelivery(true, new Date(now - DELIVERY_RETRY_WINDOW_MS), now)).toBe(true);
    expect(giveUpDelivery(false, new Date(now), now)).toBe(true);
  });

  test('an effect the forge says is gone or refuses is skipped; a passing failure or a token problem is retried', () => {
    expect([404, 410, 422].map((status) => effectFailure({ retryable: false, status }))).toEqual([
      'skip',
      'skip',
      'skip',
    ]);
    expect([401, 403].map((status) => effectFailure({ retryable: false, status }))).toEqual(['retry', 'retry']);
    expect(effectFailure({ retryable: true, status: 403 })).toBe('retry'); // rate limited
    expect(effectFailure({ retryable: true, status: 502 })).toBe('retry');
    expect(effectFailure({})).toBe('retry'); // not a forge error: the store, say
  });
});

describe('an issue event that waited', () => {
  test('no longer asks for a request when the issue was closed or the label taken off meanwhile', () => {
    const e: ForgeEvent = { kind: 'issue_labelled', repo, issue, label: 'agent-farm', sender: 'ann' };
    expect(noLongerWanted(e, issue, settings)).toBeUndefined();
    expect(noLongerWanted(e, { ...issue, state: 'closed' }, settings)).toBe('the issue was closed meanwhile');
    expect(noLongerWanted(e, { ...issue, labels: ['bug'] }, settings)).toBe('the label agent-farm was taken off');
    // A mention asks without the label.
    const mention: ForgeEvent = {
      kind: 'issue_comment',
      repo,
      issue,
      comment: { id: 1, body: '@agent-farm please', author: 'bob' },
      sender: 'bob',
    };
    expect(noLongerWanted(mention, { ...issue, labels: [] }, settings)).toBeUndefined();
  });
});
