/**
 * GitLabForge against the GitLab test double (testing/gitlab-double.ts). No GitLab can run here: the double
 * checks every request against the operations and parameters GitLab's API pages document
 * (testing/gitlab/api-operations.json) and answers with GitLab's documented example responses
 * (testing/gitlab/api/*.json, each naming its page) carrying the double's state.
 */
import { startGitLabDouble, type GitLabDouble } from '../testing/gitlab-double';
import { ForgeApiError } from './forge';
import { ForgeHttp } from './forge-http';
import { GitLabForge, unifiedDiff } from './gitlab';

let double: GitLabDouble;
let forge: GitLabForge;
const repo = { fullName: 'acme/platform/shop' };
const bob = { id: 31, username: 'bob' };
const ann = { id: 32, username: 'ann' };

beforeEach(async () => {
  double = await startGitLabDouble({ project: repo.fullName });
  forge = new GitLabForge({ apiUrl: double.apiUrl, token: double.token, retries: 0 });
});
afterEach(async () => {
  await double.close();
  expect(double.violations).toEqual([]);
});

describe('GitLabForge, against documented requests and answers', () => {
  it('opens one merge request per branch and updates its title and description when asked again', async () => {
    const input = { repo, head: 'farm/cr-1', base: 'main', title: 'Add the cart', body: 'first' };
    const first = await forge.openOrUpdatePullRequest(input);
    expect(first).toMatchObject({
      created: true,
      pull: { number: 1, headBranch: 'farm/cr-1', baseBranch: 'main', state: 'open', author: 'farm-bot' },
    });
    const again = await forge.openOrUpdatePullRequest({ ...input, title: 'Add the cart (2)', body: 'second' });
    expect(again).toMatchObject({ created: false, pull: { number: first.pull.number, title: 'Add the cart (2)' } });
    expect(double.mergeRequests).toHaveLength(1);
    expect(double.mergeRequests[0]!.description).toBe('second');
    // The project is addressed by its URL-encoded path.
    expect(double.requests[0]).toBe(
      'GET /api/v4/projects/acme%2Fplatform%2Fshop/merge_requests?source_branch=farm%2Fcr-1&target_branch=main&state=opened',
    );
  });

  it('updates the merge request a concurrent delivery opened (409) instead of failing', async () => {
    let raced = false;
    const racing = new GitLabForge({
      apiUrl: double.apiUrl,
      token: double.token,
      retries: 0,
      fetch: async (url, init) => {
        if (init?.method === 'POST' && !raced) {
          raced = true;
          double.addMergeRequest({ sourceBranch: 'farm/cr-2', targetBranch: 'main' });
        }
        return fetch(url, init);
      },
    });
    const out = await racing.openOrUpdatePullRequest({ repo, head: 'farm/cr-2', base: 'main', title: 't', body: 'b' });
    expect(out.created).toBe(false);
    expect(double.mergeRequests).toHaveLength(1);
  });

  it('reads a merge request and builds its unified diff from the per-file diffs', async () => {
    const mr = double.addMergeRequest({
      sourceBranch: 'feature',
      state: 'merged',
      diffs: [
        { old_path: 'a.txt', new_path: 'a.txt', diff: '@@ -1 +1 @@\n-old\n+new\n' },
        { old_path: 'b.txt', new_path: 'b.txt', diff: '@@ -0,0 +1 @@\n+born\n', new_file: true },
      ],
    });
    expect(await forge.getPullRequest(repo, mr.iid)).toMatchObject({ state: 'merged', headSha: mr.sha });
    expect(await forge.pullRequestDiff(repo, mr.iid)).toBe(
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n' +
        'diff --git a/b.txt b/b.txt\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+born\n',
    );
    await expect(forge.getPullRequest(repo, 99)).rejects.toMatchObject({ status: 404, retryable: false });
  });

  it('comments on an issue or a merge request as asked, and lists people’s notes across pages', async () => {
    const issue = double.addIssue({ title: 'Broken cart' });
    const mr = double.addMergeRequest({ sourceBranch: 'feature' });
    double.maxPageSize = 2;
    for (const n of [1, 2, 3]) await forge.comment(repo, issue.iid, `on the issue ${n}`);
    await forge.comment(repo, mr.iid, 'on the merge request', 'pull');
    double.notes.push({ id: 1, on: 'issues', iid: issue.iid, body: 'added ~bug label', author: bob, system: true });
    expect((await forge.listComments(repo, issue.iid)).map((c) => c.body)).toEqual([
      'on the issue 1',
      'on the issue 2',
      'on the issue 3',
    ]);
    expect(await forge.listComments(repo, mr.iid, 'pull')).toEqual([
      expect.objectContaining({ body: 'on the merge request', author: 'farm-bot' }),
    ]);
  });

  it('lists open issues with the label updated since a time', async () => {
    double.maxPageSize = 1;
    double.addIssue({ title: 'old', labels: ['agent-farm'], updatedAt: '2026-01-01T00:00:00Z' });
    const wanted = double.addIssue({ title: 'wanted', labels: ['agent-farm', 'bug'] });
    double.addIssue({ title: 'other', labels: ['bug'] });
    double.addIssue({ title: 'closed', labels: ['agent-farm'], state: 'closed' });
    expect((await forge.listLabelledIssues(repo, 'agent-farm')).map((i) => i.title)).toEqual(['old', 'wanted']);
    const recent = await forge.listLabelledIssues(repo, 'agent-farm', new Date('2026-06-01T00:00:00Z'));
    expect(recent).toEqual([
      expect.objectContaining({
        number: wanted.iid,
        labels: ['agent-farm', 'bug'],
        author: 'reporter',
        isPullRequest: false,
      }),
    ]);
    expect(await forge.getIssue(repo, wanted.iid)).toMatchObject({ title: 'wanted', state: 'open' });
  });

  it('sets commit statuses, and a repeated one is not an error', async () => {
    const sha = 'e'.repeat(40);
    const status = { repo, sha, context: 'agent-farm', description: 'x'.repeat(200) };
    await forge.setCommitStatus({ ...status, state: 'pending' });
    await forge.setCommitStatus({ ...status, state: 'pending' }); // GitLab answers 400 "Cannot transition"
    await forge.setCommitStatus({ ...status, state: 'failure', description: 'build failed' });
    expect(double.statuses).toEqual([
      expect.objectContaining({ sha, name: 'agent-farm', states: ['running', 'failed'], description: 'build failed' }),
    ]);
  });

  it('maps approvals and unresolved diff notes to reviews, and resolves a reviewer’s comments', async () => {
    const mr = double.addMergeRequest({ sourceBranch: 'farm/cr-3', approvedBy: [ann] });
    const note = (author: typeof bob, line: number | null, resolved: boolean) => ({
      id: double.nextId(),
      author,
      body: `at ${line}`,
      newPath: 'src/cart.ts',
      newLine: line,
      resolved,
    });
    mr.diffNotes.push(note(bob, 12, false), note(bob, null, false), note(bob, 40, true), note(ann, 3, true));

    expect(await forge.listReviews(repo, mr.iid)).toEqual([
      { id: ann.id, state: 'approved', body: '', author: 'ann' },
      { id: bob.id, state: 'changes_requested', body: '', author: 'bob' },
    ]);
    expect(await forge.listReviewComments(repo, mr.iid)).toHaveLength(4);
    expect(await forge.listReviewComments(repo, mr.iid, ann.id)).toHaveLength(1);

    const changes = await forge.resolveReview(repo, mr.iid, { state: 'changes_requested', author: 'bob' });
    expect(changes.review.id).toBe(bob.id);
    expect(changes.comments.map((c) => [c.path, c.line])).toEqual([
      ['src/cart.ts', 12],
      ['src/cart.ts', undefined], // on a removed line
    ]);
    const approval = await forge.resolveReview(repo, mr.iid, { id: ann.id, state: 'approved', author: 'ann' });
    expect(approval.review.state).toBe('approved');
    await expect(forge.resolveReview(repo, mr.iid, { state: 'approved', author: 'carl' })).rejects.toBeInstanceOf(
      ForgeApiError,
    );
  });

  it('says who may write: a Developer or above of the project (groups included), not a Reporter or a stranger', async () => {
    const users = ['dev', 'lead', 'rep', 'invited', 'outsider'].map((username, n) => ({ id: 40 + n, username }));
    double.users = users;
    double.members = {
      40: { accessLevel: 30 },
      41: { accessLevel: 40 },
      42: { accessLevel: 20 },
      43: { accessLevel: 30, state: 'awaiting' },
    };
    const may = async (login: string) => forge.mayWrite(repo, login);
    expect(await Promise.all(['dev', 'LEAD'].map(may))).toEqual([true, true]);
    expect(await Promise.all(['rep', 'invited', 'outsider', 'nobody'].map(may))).toEqual([false, false, false, false]);
    expect(double.requests).toEqual(
      expect.arrayContaining([
        'GET /api/v4/users?username=dev',
        'GET /api/v4/projects/acme%2Fplatform%2Fshop/members/all/40',
      ]),
    );
  });

  it('is checked: the double refuses what GitLab does not document', async () => {
    const http = new ForgeHttp({ apiUrl: double.apiUrl, authHeaders: { 'private-token': double.token }, retries: 0 });
    const mrs = '/projects/acme%2Fplatform%2Fshop/merge_requests';
    await expect(http.all(mrs)).rejects.toMatchObject({ status: 400 }); // ForgeHttp.all's `limit`
    await expect(http.json('POST', mrs, { body: { source_branch: 'x', title: 't' } })).rejects.toMatchObject({
      status: 400,
    });
    await expect(http.json('POST', `${mrs}/1/merge`)).rejects.toMatchObject({ status: 400 });
    expect(double.violations).toEqual([
      'GET /projects/:id/merge_requests: undocumented query parameter limit',
      'POST /projects/:id/merge_requests: target_branch is required',
      'undocumented request: POST /projects/acme%2Fplatform%2Fshop/merge_requests/1/merge',
    ]);
    double.violations.length = 0;
  });

  it("reads the project's clone URL, default branch and page; an empty project's branch is main", async () => {
    double.defaultBranch = 'trunk';
    expect(await forge.repository(repo)).toEqual({
      cloneUrl: 'https://gitlab.example/acme/platform/shop.git',
      defaultBranch: 'trunk',
      webUrl: 'https://gitlab.example/acme/platform/shop',
    });
    expect(double.requests).toEqual(['GET /api/v4/projects/acme%2Fplatform%2Fshop']);
    double.defaultBranch = null;
    expect((await forge.repository(repo)).defaultBranch).toBe('main');
    await expect(forge.repository({ fullName: 'acme/elsewhere' })).rejects.toMatchObject({
      status: 404,
      retryable: false,
    });
  });

  it('names the project of its own remotes, groups included', () => {
    const gl = new GitLabForge({ webUrl: 'https://gitlab.example/gitlab', token: 't' });
    expect(gl.repoFor('https://gitlab.example/gitlab/acme/platform/shop.git')).toEqual(repo);
    expect(gl.repoFor('git@gitlab.example:acme/platform/shop.git')).toEqual(repo);
    expect(gl.repoFor('https://gitlab.example/gitlab/acme/shop/-/tree/main')).toBeUndefined();
    expect(gl.repoFor('https://github.com/acme/shop.git')).toBeUndefined();
  });

  it('turns a deleted file into a unified diff against /dev/null', () => {
    expect(
      unifiedDiff({
        old_path: 'x',
        new_path: 'x',
        diff: '@@ -1 +0,0 @@\n-x',
        new_file: false,
        deleted_file: true,
        renamed_file: false,
      }),
    ).toBe('diff --git a/x b/x\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n');
  });
});
