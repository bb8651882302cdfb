import type { ForgeEvent, Issue } from '@farm/forge';
import {
  FARM_MARKER,
  commentText,
  decisionAnswer,
  decisionTarget,
  effectKey,
  effectsFor,
  followUpRequest,
  intentOf,
  issueRequest,
  noLongerWanted,
  planCommand,
  planText,
  pullRequestText,
  runOrder,
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
    expect(kinds('issue', 'AWAITING_APPROVAL')).toEqual(['announce', 'plan']);
    expect(kinds('follow-up', 'AWAITING_APPROVAL')).toEqual(['announce', 'plan', 'pending-status']);
    expect(kinds('request', 'AWAITING_APPROVAL')).toEqual([]);
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
          planning: { calls: 0, totalTokens: 0, costUsd: 0 },
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
      planning: { calls: 0, totalTokens: 0, costUsd: 0 },
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

describe('a plan waiting for approval, on the forge', () => {
  const cr = '0b7c6a52-9d3e-4f4b-8a57-3f1e2d9c8b71';
  const other = '5d2e1f3a-1b2c-4d5e-8f90-a1b2c3d4e5f6';

  test('a comment whose first line is `/farm approve` or `/farm reject <reason>` decides; anything else does not', () => {
    expect(planCommand('/farm approve')).toEqual({ decision: 'approve', text: '' });
    expect(planCommand('\n  /FARM Approve  looks good\r\nthanks')).toEqual({ decision: 'approve', text: 'looks good' });
    expect(planCommand('/farm reject too broad')).toEqual({ decision: 'reject', text: 'too broad' });
    expect(planCommand('/farm reject\nsplit it:\none request per module')).toEqual({
      decision: 'reject',
      text: 'split it:\none request per module',
    });
    for (const body of [
      'please /farm approve',
      '> /farm approve',
      '/farm approved',
      '/farm approve-all',
      '/farmapprove',
      '/farm plan',
      'LGTM\n/farm approve',
      '',
    ])
      expect(planCommand(body)).toBeUndefined();
  });

  test('such a comment is a decision only, never a request from the issue nor a follow-up; the farm’s own never', () => {
    const body = '/farm approve\n\n@agent-farm thanks';
    const onIssue: ForgeEvent = {
      kind: 'issue_comment',
      repo,
      issue,
      comment: { id: 41, body, author: 'lead' },
      sender: 'lead',
    };
    expect(intentOf(onIssue, settings)).toEqual({
      kind: 'plan-decision',
      sourceKey: 'comment:team/app:41',
      number: 7,
      on: 'issue',
      command: { decision: 'approve', text: '@agent-farm thanks' },
      author: 'lead',
    });
    const onPull: ForgeEvent = { ...onIssue, issue: { ...issue, number: 9, isPullRequest: true } };
    expect(intentOf(onPull, settings)).toMatchObject({ kind: 'plan-decision', number: 9, on: 'pull' });
    const line: ForgeEvent = {
      kind: 'review_comment',
      repo,
      pull,
      comment: { id: 42, body: '/farm reject not this way', author: 'lead', path: 'a.ts', line: 3 },
      sender: 'lead',
    };
    expect(intentOf(line, settings)).toMatchObject({
      kind: 'plan-decision',
      sourceKey: 'review-comment:team/app:42',
      number: 9,
      on: 'pull',
      command: { decision: 'reject', text: 'not this way' },
    });
    // The farm's plan comment says how to decide; it decides nothing itself.
    const plan = planText({
      link: { origin: 'issue', changeRequestId: cr, reply: {} },
      reason: 'x',
      tasks: [{ id: 't1', goal: 'g', dependsOn: [] }],
    });
    expect(intentOf({ ...onIssue, comment: { id: 43, body: plan, author: 'farm-bot' } }, settings).kind).toBe('ignore');
    expect(
      intentOf({ ...onIssue, comment: { id: 44, body: `/farm approve ${FARM_MARKER}`, author: 'x' } }, settings),
    ).toMatchObject({ kind: 'ignore' });
  });

  test('the plan decided: the one waiting on the conversation, or the one named; a rejection has a reason', () => {
    const approve = (text = '') => ({ decision: 'approve' as const, text });
    const reject = (text = '') => ({ decision: 'reject' as const, text });
    const one = { waiting: [cr], known: [cr] };
    expect(decisionTarget(approve(), one)).toEqual({ kind: 'decide', changeRequestId: cr, reason: '' });
    expect(decisionTarget(approve('ship it'), one)).toEqual({ kind: 'decide', changeRequestId: cr, reason: 'ship it' });
    expect(decisionTarget(reject('too broad'), one)).toEqual({
      kind: 'decide',
      changeRequestId: cr,
      reason: 'too broad',
    });
    expect(decisionTarget(reject(), one)).toEqual({ kind: 'no-reason' });
    expect(decisionTarget(reject(cr), one)).toEqual({ kind: 'no-reason' });
    expect(decisionTarget(approve(), { waiting: [], known: [cr] })).toEqual({ kind: 'nothing-waits' });
    const two = { waiting: [other, cr], known: [cr, other] };
    expect(decisionTarget(approve(), two)).toEqual({ kind: 'which', waiting: [cr, other] });
    expect(decisionTarget(reject(`${other}  not now\nlater`), two)).toEqual({
      kind: 'decide',
      changeRequestId: other,
      reason: 'not now\nlater',
    });
    // A named request that does not wait is not swapped for the one that does.
    expect(decisionTarget(approve(other), one)).toEqual({ kind: 'nothing-waits', changeRequestId: other });
    expect(decisionTarget(reject('x'.repeat(3000)), one)).toMatchObject({
      reason: expect.stringMatching(/^x{1999}…$/),
    });
  });

  test('the answers: approved, rejected with the reason, refused and why; addressed to the author, marked', () => {
    const c = { author: 'lead', command: { decision: 'approve' as const, text: '' } };
    const url = 'http://farm.example/console/#/requests/x';
    const answers = [
      decisionAnswer({ kind: 'approved', changeRequestId: cr, reason: '', requestUrl: url }, c),
      decisionAnswer({ kind: 'rejected', changeRequestId: cr, reason: 'too broad' }, c),
      decisionAnswer({ kind: 'not-a-writer' }, { ...c, author: 'eve' }),
      decisionAnswer({ kind: 'nothing-waits' }, c),
      decisionAnswer({ kind: 'nothing-waits', changeRequestId: cr }, c),
      decisionAnswer({ kind: 'which', waiting: [cr, other] }, c),
      decisionAnswer({ kind: 'no-reason' }, c),
      decisionAnswer({ kind: 'cannot-check', why: 'GET ... answered 403' }, c),
    ];
    expect(answers.map((a) => a.split('\n')[0])).toEqual([
      `Plan approved by @lead: change request \`${cr}\` (${url}) goes on.`,
      `Plan rejected by @lead: change request \`${cr}\` is cancelled (too broad).`,
      '@eve: refused, only someone who may write to the repository can approve the plan. Nothing was changed.',
      '@lead: nothing waits for approval here. Nothing was changed.',
      `@lead: nothing waits for approval as change request \`${cr}\`. Nothing was changed.`,
      `@lead: several plans wait for approval here (\`${cr}\`, \`${other}\`): name one, e.g. \`/farm approve ${cr}\`. Nothing was changed.`,
      '@lead: a plan is rejected with a reason: `/farm reject <reason>`. Nothing was changed.',
      "@lead: refused, the farm cannot tell whether you may write to the repository (GET ... answered 403). Nothing was changed; decide in the farm's console or with `farm approve`.",
    ]);
    for (const a of answers) expect(a.endsWith(FARM_MARKER)).toBe(true);
  });

  test('the plan comment: why it waits, each task in the order it runs, how to decide', () => {
    const text = planText({
      link: { origin: 'issue', changeRequestId: cr, reply: {} },
      requestUrl: 'http://farm.example/console/#/requests/cr',
      reason: `2 task(s) at 1a2b3c4d5e6f wait for approval: task kinds refactor (FARM_APPROVAL_KINDS); paths db/x.sql (FARM_APPROVAL_PATHS)`,
      tasks: [
        {
          id: `${cr}-api`,
          goal: 'Add the endpoint\nwith its handler',
          dependsOn: [`${cr}-db`],
          kind: 'FEATURE',
          path: 'src/api.ts',
          symbols: ['createUser', 'User'],
          estimatedChangedLines: 80,
        },
        { id: `${cr}-db`, goal: 'Add the `users` table', dependsOn: [], kind: 'REFACTOR', path: 'db/x.sql' },
      ],
    });
    expect(text).toBe(
      [
        `The plan of change request \`${cr}\` (http://farm.example/console/#/requests/cr) waits for approval before any agent starts: task kinds refactor (FARM_APPROVAL_KINDS); paths db/x.sql (FARM_APPROVAL_PATHS).`,
        '',
        '**Plan: 2 tasks**, in the order they run:',
        '',
        `1. \`${cr}-db\` (refactor): Add the \`users\` table`,
        '   file `db/x.sql`',
        `2. \`${cr}-api\` (feature): Add the endpoint`,
        `   file \`src/api.ts\` · symbols \`createUser\`, \`User\` · about 80 changed lines · after \`${cr}-db\``,
        '',
        'To decide, answer with a comment that starts with:',
        '- `/farm approve` to run the plan as it is;',
        '- `/farm reject <reason>` to cancel the request.',
        '',
        `Only someone who may write to the repository can decide. To leave tasks out or reword their goals, use the console (http://farm.example/console/#/requests/cr) or \`farm approve ${cr} --remove <task> --goal <task>=<text>\`.`,
        '',
        FARM_MARKER,
      ].join('\n'),
    );
    // A follow-up's plan names the comment it answers; without a public URL there is no console link.
    const followUp = planText({
      link: { origin: 'follow-up', changeRequestId: cr, reply: { author: 'rev', path: 'a.ts', line: 3 } },
      reason: 'the submitter asked for approval',
      tasks: Array.from({ length: 32 }, (_, n) => ({
        id: `t${String(n).padStart(2, '0')}`,
        goal: 'g',
        dependsOn: [],
        symbols: Array.from({ length: 10 }, (_, k) => `s${k}`),
      })),
    });
    expect(followUp).toContain(
      `The plan of change request \`${cr}\` for the comment of @rev on a.ts:3 waits for approval before any agent starts: the submitter asked for approval.`,
    );
    expect(followUp).toContain('… and 2 more tasks (see the console).');
    expect(followUp).toContain('`s7` and 2 more');
    expect(followUp).toContain(`use \`farm approve ${cr} --remove`);
    // A polled repository's comments are never heard: the plan says where to decide instead.
    const polled = planText({
      link: { origin: 'issue', changeRequestId: cr, reply: {} },
      reason: 'r',
      tasks: [{ id: 't', goal: 'g', dependsOn: [] }],
      hearsComments: false,
    });
    expect(polled).not.toContain('/farm approve');
    expect(polled).toContain(
      `The farm does not hear comments on this repository (it polls it): decide with \`farm approve ${cr}\` or \`farm reject ${cr} --reason <why>\`.`,
    );
  });

  test('tasks run after what they depend on, otherwise by id; a cycle does not lose any', () => {
    const t = (id: string, ...dependsOn: string[]) => ({ id, dependsOn });
    expect(runOrder([t('c'), t('a', 'b'), t('b', 'c')]).map((x) => x.id)).toEqual(['c', 'b', 'a']);
    expect(runOrder([t('b'), t('a', 'gone')]).map((x) => x.id)).toEqual(['a', 'b']);
    expect(runOrder([t('a', 'b'), t('b', 'a'), t('c')]).map((x) => x.id)).toEqual(['c', 'a', 'b']);
  });
});
