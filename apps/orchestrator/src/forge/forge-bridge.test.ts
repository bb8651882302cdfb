// The forge bridge against a real store (PGlite, the orchestrator's schema) and the GitHub test double (every
// call checked against GitHub's published description): what a user sees when the forge is away, rate
// limited, or says an issue is gone, a polled repository the farm cannot read, and a plan waiting for
// approval shown on its issue and decided there.
import { GitHubForge, type ForgeEvent } from '@farm/forge';
import { farm } from '@farm/proto';
import { primaryRateLimit, startGitHubDouble, type GitHubDouble } from '@farm/forge/testing';
import { silentLogger } from '@farm/runtime';
import { migrate, type SqlExecutor, type SqlStore } from '@farm/store';
import { ApiError } from '../api-error';
import type { PlanDecisionInput } from '../change-request-input';
import { testPgliteStore } from '@farm/store/testing';
import { orchestratorMigrations } from '../schema';
import { ForgeBridge, type ForgeBridgeSettings } from './forge-bridge';
import { FARM_MARKER, issueKey } from './forge-decisions';
import { insertLink, takeDelivery } from './forge-store';

let store: SqlStore;
let double: GitHubDouble;

const settings: ForgeBridgeSettings = {
  label: 'agent-farm',
  mention: '@agent-farm',
  statusContext: 'agent-farm',
  pullRequests: 'request',
  pollRepos: [],
  pollIntervalMs: 60_000,
};

type Decide = (
  id: string,
  decision: 'approve' | 'reject',
  input: PlanDecisionInput,
  by: string,
  alsoInTx: (tx: SqlExecutor) => Promise<void>,
) => Promise<void>;

function bridge(over: { apiUrl?: string; pollRepos?: string[]; decide?: Decide; publicUrl?: string } = {}) {
  return new ForgeBridge({
    store,
    forge: new GitHubForge({ apiUrl: over.apiUrl ?? double.apiUrl, token: double.token, retries: 0 }),
    submit: () => Promise.reject(new Error('no request is submitted in these tests')),
    decide: over.decide ?? (() => Promise.reject(new Error('no plan is decided in these tests'))),
    settings: { ...settings, pollRepos: over.pollRepos ?? [], publicUrl: over.publicUrl },
    log: silentLogger,
  });
}

const inbox = async (id: string) =>
  (
    await store.query<{ processed_at: Date | null; attempts: number; next_attempt_at: Date; outcome: string }>(
      'SELECT processed_at, attempts, next_attempt_at, outcome FROM forge_inbox WHERE delivery_id = $1',
      [id],
    )
  ).rows[0]!;

async function labelled(deliveryId: string, number = 7) {
  const issue = {
    number,
    title: 'Retry the client',
    body: '',
    labels: ['agent-farm'],
    url: `https://github.example/acme/shop/issues/${number}`,
    author: 'ann',
    state: 'open' as const,
    isPullRequest: false,
  };
  const event = {
    kind: 'issue_labelled' as const,
    repo: { fullName: 'acme/shop' },
    issue,
    label: 'agent-farm',
    sender: 'ann',
  };
  await takeDelivery(store, { deliveryId, repo: 'acme/shop', event });
}

beforeEach(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  double = await startGitHubDouble();
});
afterEach(async () => {
  await double.close();
  await store.close();
  expect(double.violations).toEqual([]);
});

describe('the forge bridge when the forge misbehaves', () => {
  test('a delivery failing while the forge is down is kept for a day, however many tries that takes', async () => {
    await labelled('d-down');
    await store.query(
      `UPDATE forge_inbox SET attempts = 40, received_at = now() - interval '1 hour' WHERE delivery_id = 'd-down'`,
    );
    const away = bridge({ apiUrl: 'http://127.0.0.1:9' }); // nothing listens: a refused connection
    await away.tick();
    const postponed = await inbox('d-down');
    expect(postponed).toMatchObject({ processed_at: null, attempts: 41 });
    expect(postponed.outcome).toMatch(/GET \/repos\/acme\/shop/);

    await store.query(
      `UPDATE forge_inbox SET next_attempt_at = now(), received_at = now() - interval '25 hours' WHERE delivery_id = 'd-down'`,
    );
    await away.tick();
    const given = await inbox('d-down');
    expect(given.processed_at).not.toBeNull();
    expect(given.outcome).toMatch(/^failed: /);
  });

  test('a rate-limited delivery waits for the limit to reset, not for the usual backoff', async () => {
    const resetAt = new Date(Date.now() + 3600_000);
    double.refusals.push(primaryRateLimit(resetAt));
    await labelled('d-limited');
    await bridge().tick();
    const row = await inbox('d-limited');
    expect(row).toMatchObject({ processed_at: null, attempts: 1 });
    expect(new Date(row.next_attempt_at).getTime()).toBeGreaterThanOrEqual(resetAt.getTime() - 1000);
    expect(row.outcome).toMatch(/rate limited until/);
  });

  test('an issue that is gone does not keep its request from ending in a pull request with a status', async () => {
    const id = 'cr-gone';
    await store.query(
      `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ($1, 'DONE', $2, 'main', 'Retry')`,
      [id, 'https://github.com/acme/shop.git'],
    );
    // The issue (#404) was deleted: commenting on it answers 404.
    await insertLink(store, {
      changeRequestId: id,
      sourceKey: issueKey('acme/shop', 404),
      repo: 'acme/shop',
      origin: 'issue',
      issueNumber: 404,
      reply: {},
    });
    await bridge().tick();
    expect(double.pulls.map((p) => [p.head, p.base])).toEqual([[`farm/${id}`, 'main']]);
    expect(double.statuses.map((s) => s.state)).toEqual(['success']);
    const link = await store.query<{ synced_phase: string; pull_number: number }>(
      'SELECT synced_phase, pull_number FROM forge_links WHERE change_request_id = $1',
      [id],
    );
    expect(link.rows[0]).toMatchObject({ synced_phase: 'DONE', pull_number: double.pulls[0]!.number });
    expect(double.requests.filter((r) => r.startsWith('POST /repos/acme/shop/issues/404/comments'))).toHaveLength(2);

    // A token the forge refuses (403) is not given up: the update waits for an operator to fix it.
    const id2 = 'cr-refused';
    await store.query(
      `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ($1, 'DONE', $2, 'main', 'Retry')`,
      [id2, 'https://github.com/acme/shop.git'],
    );
    const issue = double.addIssue({ title: 'Retry' });
    await insertLink(store, {
      changeRequestId: id2,
      sourceKey: issueKey('acme/shop', issue.number),
      repo: 'acme/shop',
      origin: 'issue',
      issueNumber: issue.number,
      reply: {},
    });
    double.refusals.push({ status: 403, headers: {}, message: 'Resource not accessible by personal access token' });
    await bridge().tick();
    const refused = await store.query<{ synced_phase: string; last_error: string }>(
      'SELECT synced_phase, last_error FROM forge_links WHERE change_request_id = $1',
      [id2],
    );
    expect(refused.rows[0]!.synced_phase).toBe('');
    expect(refused.rows[0]!.last_error).toMatch(/403/);
    expect(double.pulls).toHaveLength(1);
  });

  test('an issue event that waited is read again: closed or unlabelled meanwhile, it makes no request', async () => {
    const closed = double.addIssue({ title: 'Closed meanwhile', labels: ['agent-farm'], state: 'closed' });
    const unlabelled = double.addIssue({ title: 'Label taken off', labels: ['bug'] });
    await labelled('d-closed', closed.number);
    await labelled('d-unlabelled', unlabelled.number);
    await store.query(`UPDATE forge_inbox SET received_at = now() - interval '2 hours'`);
    await bridge().tick();
    expect((await inbox('d-closed')).outcome).toBe('ignored: the issue was closed meanwhile');
    expect((await inbox('d-unlabelled')).outcome).toBe('ignored: the label agent-farm was taken off');
  });

  test('a follow-up whose pull request was merged while it ran says so, and puts no status on the old head', async () => {
    const merged = double.addPull({ head: 'farm/cr-1', state: 'closed', merged: true, headSha: 'c'.repeat(40) });
    const id = 'cr-follow';
    await store.query(
      `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ($1, 'DONE', $2, 'farm/cr-1', 'Review')`,
      [id, 'https://github.com/acme/shop.git'],
    );
    await insertLink(store, {
      changeRequestId: id,
      sourceKey: 'review-comment:acme/shop:77',
      repo: 'acme/shop',
      origin: 'follow-up',
      issueNumber: merged.number,
      pullNumber: merged.number,
      reply: { commentId: 77, author: 'rev', path: 'a.ts', line: 3, headSha: 'b'.repeat(40), headBranch: 'farm/cr-1' },
    });
    await bridge().tick();
    const said = double.comments.filter((c) => c.issue === merged.number).map((c) => c.body);
    expect(said).toHaveLength(2);
    expect(said[0]).toContain('Working on the comment of @rev on a.ts:3');
    expect(said[1]).toContain('This pull request was merged while the farm worked on the comment of @rev');
    expect(double.statuses).toEqual([]);
  });

  test('a polled repository the farm cannot read does not stop the others from being polled', async () => {
    double.addIssue({ title: 'Retry the client', labels: ['agent-farm'] });
    const poller = bridge({ pollRepos: ['acme/no-access', 'acme/shop'] });
    expect(await poller.poll()).toBe(1);
    expect(await poller.poll()).toBe(0);
    const rows = await store.query<{ delivery_id: string }>('SELECT delivery_id FROM forge_inbox');
    expect(rows.rows.map((r) => r.delivery_id)).toEqual(['poll:acme/shop#1']);
    expect(double.requests.filter((r) => r.startsWith('GET /repos/acme/no-access/issues'))).toHaveLength(2);
  });
});

describe('a plan waiting for approval, shown and decided on its issue', () => {
  const id = '0b7c6a52-9d3e-4f4b-8a57-3f1e2d9c8b71';
  const decisions: Array<{ id: string; decision: string; reason: string; by: string }> = [];
  /** recordPlanDecision as the bridge sees it: 409 unless the plan waits; the decision and the mark, one transaction. */
  const decide: Decide = async (crId, decision, input, by, alsoInTx) => {
    await store.transaction(async (tx) => {
      const phase = (await tx.query<{ phase: string }>('SELECT phase FROM change_requests WHERE id = $1', [crId]))
        .rows[0]?.phase;
      if (phase !== 'AWAITING_APPROVAL') throw new ApiError(409, `change request ${crId} is ${phase}`);
      await tx.query('UPDATE change_requests SET phase = $2 WHERE id = $1', [
        crId,
        decision === 'approve' ? 'CODING' : 'CANCELLED',
      ]);
      await alsoInTx(tx);
    });
    decisions.push({ id: crId, decision, reason: input.reason, by });
  };
  let issueNumber = 0;

  beforeEach(async () => {
    decisions.length = 0;
    issueNumber = double.addIssue({ title: 'Split the client', labels: ['agent-farm'] }).number;
    double.collaborators = { lead: { permission: 'write' }, eve: { permission: 'read' } };
    await store.query(
      `INSERT INTO change_requests (id, phase, repo_url, base_ref, title, reason) VALUES ($1, 'AWAITING_APPROVAL', $2, 'main', 'Split', $3)`,
      [id, 'https://github.com/acme/shop.git', '2 task(s) at 1a2b3c4d5e6f wait for approval: the submitter asked'],
    );
    const task = (taskId: string, goal: string, extra: Partial<farm.v1.ICodingTask>) =>
      store.query(
        `INSERT INTO tasks (id, change_request_id, goal, status, task, depends_on) VALUES ($1, $2, $3, 'PENDING', $4, $5)`,
        [
          taskId,
          id,
          goal,
          farm.v1.CodingTask.encode({ id: taskId, goal, ...extra }).finish(),
          JSON.stringify(extra.dependsOn ?? []),
        ],
      );
    await task(`${id}-b`, 'Move the retries out', {
      kind: farm.v1.TaskKind.REFACTOR,
      path: 'src/client.ts',
      symbols: ['retry'],
    });
    await task(`${id}-a`, 'Test the retries', { kind: farm.v1.TaskKind.TEST, dependsOn: [`${id}-b`] });
    await insertLink(store, {
      changeRequestId: id,
      sourceKey: issueKey('acme/shop', issueNumber),
      repo: 'acme/shop',
      origin: 'issue',
      issueNumber,
      reply: {},
    });
  });

  const said = () => double.comments.filter((c) => c.issue === issueNumber).map((c) => c.body);
  async function comment(deliveryId: string, author: string, body: string) {
    const event: ForgeEvent = {
      kind: 'issue_comment',
      repo: { fullName: 'acme/shop' },
      issue: {
        number: issueNumber,
        title: 'Split the client',
        body: '',
        labels: ['agent-farm'],
        url: `https://github.example/acme/shop/issues/${issueNumber}`,
        author: 'ann',
        state: 'open',
        isPullRequest: false,
      },
      comment: { id: Number(deliveryId.replace(/\D/g, '')), body, author },
      sender: author,
    };
    await takeDelivery(store, { deliveryId, repo: 'acme/shop', event });
  }

  test('the plan is posted once; a reader is refused, a writer approves, and a retried delivery only answers', async () => {
    const farmBridge = bridge({ decide, publicUrl: 'http://farm.example' });
    await farmBridge.tick();
    await farmBridge.tick();
    expect(said()).toHaveLength(2);
    expect(said()[0]).toContain(`Working on this issue: change request \`${id}\``);
    const plan = said()[1]!;
    expect(plan).toContain('waits for approval before any agent starts: the submitter asked.');
    expect(plan.indexOf(`\`${id}-b\` (refactor): Move the retries out`)).toBeLessThan(
      plan.indexOf(`\`${id}-a\` (test): Test the retries`),
    );
    expect(plan).toContain('file `src/client.ts` · symbols `retry`');
    expect(plan).toContain(`after \`${id}-b\``);
    expect(plan).toContain(`http://farm.example/console/#/requests/${id}`);

    await comment('d-1', 'eve', '/farm approve');
    await farmBridge.tick();
    expect(said()[2]).toMatch(/^@eve: refused, only someone who may write to the repository can approve the plan/);
    expect(decisions).toEqual([]);
    expect((await inbox('d-1')).outcome).toBe('refused: eve may not write to acme/shop');

    // The answer fails once (the forge is away): the delivery is tried again and answers, deciding nothing twice.
    await comment('d-2', 'lead', '/farm approve  fine by me');
    const failAnswer = (url: string | URL | Request, init?: RequestInit) =>
      init?.method === 'POST' ? Promise.resolve(new Response('{"message":"down"}', { status: 502 })) : fetch(url, init);
    const flaky = new ForgeBridge({
      store,
      forge: new GitHubForge({ apiUrl: double.apiUrl, token: double.token, retries: 0, fetch: failAnswer }),
      submit: () => Promise.reject(new Error('none')),
      decide,
      settings,
      log: silentLogger,
    });
    await flaky.tick();
    expect(decisions).toEqual([{ id, decision: 'approve', reason: 'fine by me', by: 'forge:lead' }]);
    expect((await inbox('d-2')).processed_at).toBeNull();
    await store.query(`UPDATE forge_inbox SET next_attempt_at = now() WHERE delivery_id = 'd-2'`);
    await farmBridge.tick();
    expect(decisions).toHaveLength(1);
    expect(said()[3]).toMatch(new RegExp(`^Plan approved by @lead: change request \`${id}\` \\(http://farm.example/`));
    expect((await inbox('d-2')).outcome).toBe(`approved ${id}`);

    // Decided now: another approval finds nothing waiting.
    await comment('d-3', 'lead', '/farm approve');
    await farmBridge.tick();
    expect(said()[4]).toBe(`@lead: nothing waits for approval here. Nothing was changed.\n\n${FARM_MARKER}`);
    expect(said()).toHaveLength(5);
  });

  test('a writer rejects with a reason (one without is asked for it); decided before the plan was posted, none is', async () => {
    await comment('d-4', 'lead', '/farm reject');
    await comment('d-5', 'lead', '/Farm reject too broad');
    await bridge({ decide }).tick();
    expect(decisions).toEqual([{ id, decision: 'reject', reason: 'too broad', by: 'forge:lead' }]);
    const answers = said();
    expect(answers[0]).toMatch(/^@lead: a plan is rejected with a reason: `\/farm reject <reason>`/);
    expect(answers[1]).toMatch(
      new RegExp(`^Plan rejected by @lead: change request \`${id}\` is cancelled \\(too broad\\)`),
    );
    // The request was CANCELLED when the bridge first looked at it: announced and ended, no plan to decide.
    expect(answers.slice(2).map((b) => b.split(':')[0])).toEqual([
      'Working on this issue',
      `Change request \`${id}\` cancelled`,
    ]);
  });

  test('a forge that will not say who may write refuses the decision, and says why', async () => {
    await comment('d-6', 'lead', '/farm approve');
    double.refusals.push({ status: 403, headers: {}, message: 'Must have admin rights to Repository.' });
    await bridge({ decide }).tick();
    expect(decisions).toEqual([]);
    expect(said()[0]).toMatch(
      /^@lead: refused, the farm cannot tell whether you may write to the repository \(GET \/repos\/acme\/shop\/collaborators\/lead\/permission answered 403: Must have admin rights/,
    );
    expect((await inbox('d-6')).outcome).toBe('refused: cannot check lead');
  });
});
