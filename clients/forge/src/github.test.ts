/**
 * GitHubForge against the GitHub test double (testing/github-double.ts): every request the adapter sends is
 * checked against GitHub's published REST description, and every answer it reads is a documented one.
 */
import {
  forbidden,
  primaryRateLimit,
  secondaryRateLimit,
  startGitHubDouble,
  type GitHubDouble,
} from '../testing/github-double';
import { ForgeApiError } from './forge';
import { ForgeHttp } from './forge-http';
import { defaultGitHubApiUrl, GitHubForge } from './github';

let double: GitHubDouble;
let forge: GitHubForge;
const repo = { fullName: 'acme/shop' };

beforeEach(async () => {
  double = await startGitHubDouble();
  forge = new GitHubForge({ apiUrl: double.apiUrl, token: double.token, retries: 0 });
});
afterEach(async () => {
  await double.close();
  expect(double.violations).toEqual([]);
});

describe('GitHubForge, against documented requests and answers', () => {
  it('opens one pull request per branch and updates it when asked again', async () => {
    const input = { repo, head: 'farm/cr-1', base: 'main', title: 'Add the cart', body: 'first' };
    const first = await forge.openOrUpdatePullRequest(input);
    expect(first).toMatchObject({
      created: true,
      pull: { headBranch: 'farm/cr-1', baseBranch: 'main', state: 'open' },
    });
    const again = await forge.openOrUpdatePullRequest({ ...input, title: 'Add the cart (2)', body: 'second' });
    expect(again.created).toBe(false);
    expect(again.pull.number).toBe(first.pull.number);
    expect(double.pulls).toHaveLength(1);
    expect(double.pulls[0]).toMatchObject({ title: 'Add the cart (2)', body: 'second' });
    expect(double.requests).toContain(
      `GET /repos/acme/shop/pulls?head=acme%3Afarm%2Fcr-1&base=main&state=open&per_page=100`,
    );
    expect(await forge.findPullRequest(repo, 'farm/other')).toBeUndefined();
  });

  it('updates the pull request another delivery opened between its look-up and its create', async () => {
    const input = { repo, head: 'farm/cr-2', base: 'main', title: 't', body: 'b' };
    let raced = false;
    const racing = new GitHubForge({
      apiUrl: double.apiUrl,
      token: double.token,
      retries: 0,
      fetch: async (url, init) => {
        if (init?.method === 'POST' && !raced) {
          raced = true;
          double.addPull({ head: 'farm/cr-2', base: 'main', author: 'farm-bot' });
        }
        return fetch(url, init);
      },
    });
    const out = await racing.openOrUpdatePullRequest(input);
    expect(out.created).toBe(false);
    expect(double.pulls).toHaveLength(1);
  });

  it('reads a pull request, its merged state and its unified diff', async () => {
    const diff = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n';
    const p = double.addPull({ head: 'feature', diff, merged: true, state: 'closed' });
    expect(await forge.getPullRequest(repo, p.number)).toMatchObject({ number: p.number, state: 'merged' });
    expect(await forge.pullRequestDiff(repo, p.number)).toBe(diff);
    await expect(forge.getPullRequest(repo, 999)).rejects.toMatchObject({ status: 404, retryable: false });
  });

  it('sets commit statuses, cutting descriptions to 140 characters', async () => {
    await forge.setCommitStatus({
      repo,
      sha: 'b'.repeat(40),
      state: 'pending',
      context: 'agent-farm',
      description: 'x'.repeat(300),
      targetUrl: 'https://farm.example/v1/requests/1',
    });
    await forge.setCommitStatus({
      repo,
      sha: 'b'.repeat(40),
      state: 'success',
      context: 'agent-farm',
      description: 'done',
    });
    expect(double.statuses.map((s) => s.state)).toEqual(['pending', 'success']);
    expect(double.statuses[0]!.description).toHaveLength(140);
  });

  it('comments on a conversation and lists its comments across pages', async () => {
    const issue = double.addIssue({ title: 'Broken cart' });
    double.maxPageSize = 2;
    for (const n of [1, 2, 3, 4, 5]) await forge.comment(repo, issue.number, `comment ${n}`);
    const listed = await forge.listComments(repo, issue.number);
    expect(listed.map((c) => c.body)).toEqual(['comment 1', 'comment 2', 'comment 3', 'comment 4', 'comment 5']);
    expect(listed[0]).toMatchObject({ author: 'farm-bot', url: expect.stringContaining('#issuecomment-') });
    expect(double.requests.filter((r) => r.includes('/comments?'))).toHaveLength(3);
  });

  it('lists open issues with the label, updated since a time, without pull requests', async () => {
    double.maxPageSize = 1;
    const old = double.addIssue({ title: 'old', labels: ['agent-farm'], updatedAt: '2026-01-01T00:00:00Z' });
    const wanted = double.addIssue({ title: 'wanted', labels: ['agent-farm', 'bug'] });
    double.addIssue({ title: 'other label', labels: ['bug'] });
    double.addIssue({ title: 'closed', labels: ['agent-farm'], state: 'closed' });
    const second = double.addIssue({ title: 'also wanted', labels: ['agent-farm'] });
    double.addPull({ head: 'x', title: 'a PR with the label', labels: ['agent-farm'] });

    const all = await forge.listLabelledIssues(repo, 'agent-farm');
    expect(all.map((i) => i.title)).toEqual(['old', 'wanted', 'also wanted']);
    const recent = await forge.listLabelledIssues(repo, 'agent-farm', new Date('2026-06-01T00:00:00Z'));
    expect(recent.map((i) => i.number)).toEqual([wanted.number, second.number]);
    expect(recent[0]).toMatchObject({ labels: ['agent-farm', 'bug'], isPullRequest: false, author: 'reporter' });
    expect(await forge.getIssue(repo, old.number)).toMatchObject({ title: 'old', state: 'open' });
  });

  it('lists reviews and their line comments, and resolves a review by id or by author and state', async () => {
    const p = double.addPull({ head: 'farm/cr-3' });
    const approve = {
      id: double.nextId(),
      pull: p.number,
      state: 'APPROVED' as const,
      body: 'ok',
      author: 'ann',
      commitId: p.headSha,
    };
    const changes = {
      id: double.nextId(),
      pull: p.number,
      state: 'CHANGES_REQUESTED' as const,
      body: 'fix',
      author: 'bob',
      commitId: p.headSha,
    };
    double.reviews.push(approve, changes);
    const comment = (line: number | null, side: 'LEFT' | 'RIGHT', reviewId: number) => ({
      id: double.nextId(),
      pull: p.number,
      reviewId,
      path: 'src/cart.ts',
      line,
      side,
      body: `at ${line}`,
      author: 'bob',
      diffHunk: '@@ -1,3 +1,4 @@',
    });
    double.reviewComments.push(
      comment(12, 'RIGHT', changes.id),
      comment(3, 'LEFT', changes.id),
      comment(null, 'RIGHT', approve.id),
    );

    expect((await forge.listReviews(repo, p.number)).map((r) => r.state)).toEqual(['approved', 'changes_requested']);
    expect(await forge.listReviewComments(repo, p.number)).toHaveLength(3);

    const byId = await forge.resolveReview(repo, p.number, {
      id: changes.id,
      state: 'changes_requested',
      author: 'bob',
    });
    expect(byId.review).toMatchObject({
      id: changes.id,
      state: 'changes_requested',
      body: 'fix',
      commitSha: p.headSha,
    });
    expect(byId.comments.map((c) => [c.path, c.line, c.reviewId])).toEqual([
      ['src/cart.ts', 12, changes.id],
      ['src/cart.ts', undefined, changes.id], // a comment on the old side has no line in the new file
    ]);
    const byAuthor = await forge.resolveReview(repo, p.number, { state: 'approved', author: 'ann' });
    expect(byAuthor.review.id).toBe(approve.id);
    await expect(forge.resolveReview(repo, p.number, { state: 'approved', author: 'carl' })).rejects.toBeInstanceOf(
      ForgeApiError,
    );
  });

  it('says who may write: admins, maintainers and writers, not readers, triagers or strangers', async () => {
    double.collaborators = {
      ann: { permission: 'write' },
      mia: { permission: 'write', roleName: 'maintain' },
      ada: { permission: 'admin' },
      ray: { permission: 'read' },
      tia: { permission: 'read', roleName: 'triage' },
      guy: { permission: 'none' },
    };
    const may = async (login: string) => forge.mayWrite(repo, login);
    expect(await Promise.all(['acme', 'ann', 'mia', 'ada'].map(may))).toEqual([true, true, true, true]);
    expect(await Promise.all(['ray', 'tia', 'guy', 'nobody'].map(may))).toEqual([false, false, false, false]);
    expect(double.requests).toContain('GET /repos/acme/shop/collaborators/ann/permission');
    double.refusals.push(forbidden());
    await expect(forge.mayWrite(repo, 'ann')).rejects.toMatchObject({ status: 403 });
  });

  it('is checked: the double refuses what GitHub does not document', async () => {
    const http = new ForgeHttp({
      apiUrl: double.apiUrl,
      authHeaders: { authorization: `Bearer ${double.token}` },
      headers: { 'x-github-api-version': '2022-11-28' },
      retries: 0,
    });
    // ForgeHttp.all adds Gitea's `limit`, which GitHub does not document: the adapter pages by itself.
    await expect(http.all('/repos/acme/shop/issues')).rejects.toMatchObject({ status: 400 });
    await expect(http.json('POST', '/repos/acme/shop/pulls', { body: { title: 't' } })).rejects.toMatchObject({
      status: 400,
    });
    await expect(http.json('PUT', '/repos/acme/shop/pulls/1/merge-it')).rejects.toMatchObject({ status: 400 });
    expect([...double.violations].sort()).toEqual([
      'GET /repos/{owner}/{repo}/issues: undocumented query parameter limit',
      "POST /repos/{owner}/{repo}/pulls body: / must have required property 'base'",
      "POST /repos/{owner}/{repo}/pulls body: / must have required property 'head'",
      'undocumented request: PUT /repos/acme/shop/pulls/1/merge-it',
    ]);
    double.violations.length = 0;
  });

  it("reads the repository's clone URL, default branch and page", async () => {
    double.defaultBranch = 'trunk';
    expect(await forge.repository(repo)).toEqual({
      cloneUrl: 'https://github.example/acme/shop.git',
      defaultBranch: 'trunk',
      webUrl: 'https://github.example/acme/shop',
    });
    expect(double.requests).toEqual(['GET /repos/acme/shop']);
    await expect(forge.repository({ fullName: 'acme/elsewhere' })).rejects.toMatchObject({
      status: 404,
      retryable: false,
    });
  });

  it('waits out a primary rate limit that resets soon, without using up its retries', async () => {
    const p = double.addPull({ head: 'feature' });
    double.refusals.push(primaryRateLimit(new Date()));
    expect(await forge.getPullRequest(repo, p.number)).toMatchObject({ number: p.number });
    expect(double.requests).toEqual([
      `GET /repos/acme/shop/pulls/${p.number}`,
      `GET /repos/acme/shop/pulls/${p.number}`,
    ]);
  });

  it('waits out a secondary rate limit for its retry-after, on a 403 and on a 429', async () => {
    double.refusals.push(secondaryRateLimit(0), { ...secondaryRateLimit(0), status: 429 });
    expect((await forge.repository(repo)).defaultBranch).toBe('main');
    expect(double.requests).toHaveLength(3);
  });

  it('fails a call whose limit resets later than it waits, retryable, saying when to try again', async () => {
    const resetAt = new Date(Date.now() + 3600_000);
    double.refusals.push(primaryRateLimit(resetAt));
    const err = (await forge.repository(repo).catch((e: unknown) => e)) as ForgeApiError;
    expect(err).toBeInstanceOf(ForgeApiError);
    expect(err).toMatchObject({ status: 403, retryable: true });
    expect(err.message).toMatch(/rate limited until \S+: API rate limit exceeded/);
    // The reset is whole seconds; the farm tries again just after it, never before.
    expect(err.retryAt!.getTime()).toBeGreaterThanOrEqual(Math.floor(resetAt.getTime() / 1000) * 1000);
    expect(err.retryAt!.getTime()).toBeLessThanOrEqual(resetAt.getTime() + 2000);
    expect(err.details.retryAt).toBe(err.retryAt!.toISOString());
    expect(double.requests).toHaveLength(1);
  });

  it('gives a secondary limit without headers a minute: beyond a short budget the call fails retryable', async () => {
    const impatient = new GitHubForge({
      apiUrl: double.apiUrl,
      token: double.token,
      retries: 0,
      maxRateLimitWaitMs: 10,
    });
    double.refusals.push(secondaryRateLimit());
    const before = Date.now();
    const err = (await impatient.repository(repo).catch((e: unknown) => e)) as ForgeApiError;
    expect(err).toMatchObject({ status: 403, retryable: true });
    expect(err.retryAt!.getTime() - before).toBeGreaterThanOrEqual(60_000);
  });

  it('does not retry a plain 403: the token may not do it', async () => {
    double.refusals.push(forbidden());
    await expect(forge.repository(repo)).rejects.toMatchObject({
      status: 403,
      retryable: false,
      message: expect.stringContaining('Resource not accessible'),
    });
    expect(double.requests).toHaveLength(1);
    expect((await forge.repository(repo)).defaultBranch).toBe('main');
  });

  it('names the repository of its own remotes only', () => {
    const gh = new GitHubForge({ token: 't' });
    expect(gh.repoFor('https://github.com/acme/shop.git')).toEqual(repo);
    expect(gh.repoFor('https://gitlab.com/acme/shop.git')).toBeUndefined();
    expect(gh.repoFor('https://github.com/acme/shop/extra')).toBeUndefined();
    expect(defaultGitHubApiUrl('https://github.com')).toBe('https://api.github.com');
    expect(defaultGitHubApiUrl('https://ghe.example')).toBe('https://ghe.example/api/v3');
  });
});
