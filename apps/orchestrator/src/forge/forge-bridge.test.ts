// The forge bridge against a real store (PGlite, the orchestrator's schema) and the GitHub test double (every
// call checked against GitHub's published description): what a user sees when the forge is away, rate
// limited, or says an issue is gone, and a polled repository the farm cannot read.
import { GitHubForge } from '@farm/forge';
import { primaryRateLimit, startGitHubDouble, type GitHubDouble } from '@farm/forge/testing';
import { silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { orchestratorMigrations } from '../schema';
import { ForgeBridge, type ForgeBridgeSettings } from './forge-bridge';
import { issueKey } from './forge-decisions';
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

function bridge(over: { apiUrl?: string; pollRepos?: string[] } = {}) {
  return new ForgeBridge({
    store,
    forge: new GitHubForge({ apiUrl: over.apiUrl ?? double.apiUrl, token: double.token, retries: 0 }),
    submit: () => Promise.reject(new Error('no request is submitted in these tests')),
    settings: { ...settings, pollRepos: over.pollRepos ?? [] },
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
