/** @farm-gitea (waits for the background build of Gitea; run late) */
/**
 * The Gitea adapter against a real Gitea (scripts/local-services/gitea.ts): a repository pushed over git
 * smart-HTTP, a pull request opened and updated, statuses, comments, labelled issues, a second user's review
 * with a line comment, and the webhook deliveries Gitea really sends to a local receiver.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGitea, type LocalGitea } from '../../../scripts/local-services/gitea';
import {
  addCollaborator,
  commentOn,
  createIssue,
  createLabel,
  createRepo,
  giteaApi,
  labelIssue,
  pushDir,
  registerWebhook,
  submitReview,
  type FixtureRepo,
  type GiteaAccount,
} from '../testing/gitea-fixture';
import { WebhookRejected, type ForgeEvent, type ForgeRepo } from './forge';
import { GiteaForge } from './gitea';
import { GiteaWebhooks } from './gitea-webhooks';

const SECRET = 'hook-secret-for-tests';
const LABEL = 'agent-farm';
const HEAD = 'farm/r1';
const BOT = 'farm-bot';
const FARM_TOKEN_SCOPES = ['write:repository', 'write:issue'];
// A cold build of Gitea (when the test command's background build has not finished) is minutes.
const START_TIMEOUT_MS = 30 * 60_000;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let gitea: LocalGitea;
let admin: GiteaAccount;
let reviewer: GiteaAccount;
let forge: GiteaForge;
let fixtureRepo: FixtureRepo;
let repo: ForgeRepo;
let headSha: string;
let workDir: string;
let receiver: Server;
const deliveries: Delivery[] = [];
const hooks = new GiteaWebhooks({ label: LABEL });

const git = (args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Farm Test', '-c', 'user.email=farm@example.com', ...args], {
    cwd: workDir,
    encoding: 'utf8',
  }).trim();

beforeAll(async () => {
  gitea = await startGitea();
  admin = { apiUrl: gitea.apiUrl, token: gitea.token };
  reviewer = { apiUrl: gitea.apiUrl, token: (await gitea.createUser('reviewer')).token };
  // The farm's account as docs/forges.md tells an operator to set it up: a collaborator with write access and a
  // token of the two scopes it needs, no more.
  const bot = await gitea.createUser(BOT, { scopes: FARM_TOKEN_SCOPES });
  forge = new GiteaForge({ webUrl: gitea.url, token: bot.token });

  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const { port } = receiver.address() as { port: number };

  // main: a five-line file; farm/r1 changes its third line and adds a sixth.
  workDir = mkdtempSync(join(tmpdir(), 'farm-gitea-test-'));
  git(['init', '-q', '-b', 'main']);
  mkdirSync(join(workDir, 'src'));
  writeFileSync(join(workDir, 'src/app.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  git(['add', '.']);
  git(['commit', '-q', '-m', 'initial']);
  git(['checkout', '-q', '-b', HEAD]);
  writeFileSync(join(workDir, 'src/app.txt'), 'one\ntwo\nTHREE, faster\nfour\nfive\nsix\n');
  git(['commit', '-q', '-am', 'faster three']);
  headSha = git(['rev-parse', 'HEAD']);

  fixtureRepo = await createRepo(admin, 'app');
  repo = { fullName: fixtureRepo.fullName };
  await pushDir(admin, workDir, fixtureRepo, ['main', HEAD]);
  await addCollaborator(admin, fixtureRepo, 'reviewer');
  await addCollaborator(admin, fixtureRepo, BOT);
  await createLabel(admin, fixtureRepo, LABEL);
  await registerWebhook(admin, fixtureRepo, { url: `http://127.0.0.1:${port}/v1/forge/webhooks`, secret: SECRET });
}, START_TIMEOUT_MS);

afterAll(async () => {
  await new Promise((r) => receiver?.close(r));
  await gitea?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** The first real delivery that verifies and parses to an event matching `want` (deliveries come in any order). */
async function delivered(
  want: (e: ForgeEvent) => boolean,
  timeoutMs = 30_000,
): Promise<{ d: Delivery; event: ForgeEvent }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const d of deliveries) {
      const delivery = hooks.verify(d.headers, d.body, SECRET);
      const event = hooks.parse(delivery, JSON.parse(d.body.toString('utf8')));
      if (event && want(event)) return { d, event };
    }
    if (Date.now() > deadline)
      throw new Error(
        `no matching delivery within ${timeoutMs} ms; got: ${deliveries.map((d) => d.headers['x-gitea-event']).join(', ')}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function pullNumber(): Promise<number> {
  const found = await forge.findPullRequest(repo, HEAD, 'main');
  if (!found) throw new Error('the pull request is not open');
  return found.number;
}

describe('GiteaForge against a real Gitea', () => {
  it('names the repository of its own remote URLs only', () => {
    expect(forge.repoFor(fixtureRepo.cloneUrl)).toEqual(repo);
    expect(forge.repoFor(fixtureRepo.cloneUrl.replace('://', '://farm:secret@'))).toEqual(repo);
    expect(forge.repoFor('https://github.com/farm-admin/app.git')).toBeUndefined();
  });

  it('reads the repository: its clone URL, default branch and page', async () => {
    expect(await forge.repository(repo)).toEqual({
      cloneUrl: fixtureRepo.cloneUrl,
      defaultBranch: 'main',
      webUrl: `${gitea.url.replace(/\/+$/, '')}/${repo.fullName}`,
    });
    await expect(forge.repository({ fullName: `${BOT}/no-such-repo` })).rejects.toMatchObject({
      status: 404,
      retryable: false,
    });
  });

  it('opens one pull request per branch and updates its title when asked again', async () => {
    expect(await forge.findPullRequest(repo, HEAD, 'main')).toBeUndefined();
    const first = await forge.openOrUpdatePullRequest({
      repo,
      head: HEAD,
      base: 'main',
      title: 'Faster three',
      body: 'v1',
    });
    const again = await forge.openOrUpdatePullRequest({
      repo,
      head: HEAD,
      base: 'main',
      title: 'Faster three (retried)',
      body: 'v2',
    });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.pull.number).toBe(first.pull.number);
    expect(again.pull).toMatchObject({
      title: 'Faster three (retried)',
      headBranch: HEAD,
      baseBranch: 'main',
      headSha,
      state: 'open',
    });
    expect(first.pull.url).toContain(`/${repo.fullName}/pulls/${first.pull.number}`);

    const open = await giteaApi<unknown[]>(admin, 'GET', `/repos/${repo.fullName}/pulls?state=all`);
    expect(open).toHaveLength(1);
    expect((await forge.findPullRequest(repo, HEAD))?.number).toBe(first.pull.number);
    expect((await forge.getPullRequest(repo, first.pull.number)).title).toBe('Faster three (retried)');
  });

  it('sets the commit status, pending then success, with the description cut to 140 characters', async () => {
    const status = { repo, sha: headSha, context: 'agent-farm' };
    await forge.setCommitStatus({ ...status, state: 'pending', description: 'coding' });
    await forge.setCommitStatus({
      ...status,
      state: 'success',
      description: 'built: ' + 'x'.repeat(200),
      targetUrl: 'http://farm.example/requests/r1',
    });
    const combined = await giteaApi<{
      state: string;
      statuses: { context: string; status: string; description: string; target_url: string }[];
    }>(admin, 'GET', `/repos/${repo.fullName}/commits/${headSha}/status`);
    expect(combined.state).toBe('success');
    const ours = combined.statuses.find((s) => s.context === 'agent-farm')!;
    expect(ours).toMatchObject({ status: 'success', target_url: 'http://farm.example/requests/r1' });
    expect(ours.description).toHaveLength(140);
  });

  it('comments on the pull request’s conversation and lists the comments', async () => {
    const number = await pullNumber();
    const posted = await forge.comment(repo, number, 'The farm is on it.');
    expect(posted).toMatchObject({ body: 'The farm is on it.', author: BOT });
    expect((await forge.listComments(repo, number)).map((c) => c.id)).toContain(posted.id);
    expect(await forge.getIssue(repo, number)).toMatchObject({ isPullRequest: true, state: 'open' });
  });

  it('reads issues and lists the open ones carrying the label', async () => {
    const labelled = await createIssue(admin, fixtureRepo, {
      title: 'Make four faster',
      body: 'please',
      labels: [LABEL],
    });
    const plain = await createIssue(admin, fixtureRepo, { title: 'Unrelated' });
    expect(await forge.getIssue(repo, labelled)).toMatchObject({
      number: labelled,
      title: 'Make four faster',
      body: 'please',
      labels: [LABEL],
      author: 'farm-admin',
      state: 'open',
      isPullRequest: false,
    });
    const listed = (await forge.listLabelledIssues(repo, LABEL)).map((i) => i.number);
    expect(listed).toContain(labelled);
    expect(listed).not.toContain(plain);
    expect(await forge.listLabelledIssues(repo, LABEL, new Date(Date.now() + 3_600_000))).toEqual([]);
  });

  it('says who may write: the owner, admins and writers, not readers or strangers; only to a repository admin', async () => {
    await gitea.createUser('reader');
    await gitea.createUser('stranger');
    await giteaApi(admin, 'PUT', `/repos/${repo.fullName}/collaborators/reader`, { permission: 'read' });
    // Gitea tells a collaborator its own permission, another's only to the repository's admins.
    expect(await forge.mayWrite(repo, BOT)).toBe(true);
    await expect(forge.mayWrite(repo, 'reviewer')).rejects.toMatchObject({
      status: 403,
      retryable: false,
      message: expect.stringContaining("to the repository's admins only"),
    });
    const asAdmin = new GiteaForge({ webUrl: gitea.url, token: gitea.token });
    const may = (login: string) => asAdmin.mayWrite(repo, login);
    expect(await Promise.all([gitea.adminUser, 'reviewer', BOT].map(may))).toEqual([true, true, true]);
    expect(await Promise.all(['reader', 'stranger', 'no-such-user'].map(may))).toEqual([false, false, false]);
  });

  it('reads back a second user’s changes-requested review with its line comment, and the diff', async () => {
    const number = await pullNumber();
    const id = await submitReview(reviewer, fixtureRepo, number, {
      event: 'REQUEST_CHANGES',
      body: 'Not like this.',
      comments: [{ path: 'src/app.txt', body: 'Say why it is faster.', new_position: 3 }],
    });
    const reviews = await forge.listReviews(repo, number);
    expect(reviews.find((r) => r.id === id)).toMatchObject({
      state: 'changes_requested',
      body: 'Not like this.',
      author: 'reviewer',
      commitSha: headSha,
    });
    const comments = await forge.listReviewComments(repo, number);
    expect(comments).toEqual([
      expect.objectContaining({
        body: 'Say why it is faster.',
        author: 'reviewer',
        path: 'src/app.txt',
        line: 3,
        reviewId: id,
      }),
    ]);
    expect(await forge.listReviewComments(repo, number, id)).toEqual(comments);

    const resolved = await forge.resolveReview(repo, number, { state: 'changes_requested', author: 'reviewer' });
    expect(resolved.review.id).toBe(id);
    expect(resolved.comments).toEqual(comments);
    await expect(forge.resolveReview(repo, number, { state: 'approved', author: 'reviewer' })).rejects.toMatchObject({
      status: 404,
    });

    const diff = await forge.pullRequestDiff(repo, number);
    expect(diff).toContain('+THREE, faster');
    expect(diff).toContain('-three');
  });
});

describe('Gitea’s real webhook deliveries', () => {
  it('an issue opened with the label arrives as issue_labelled; one without it as nothing', async () => {
    const labelled = await createIssue(admin, fixtureRepo, { title: 'Born labelled', labels: [LABEL] });
    const { event } = await delivered((e) => e.kind === 'issue_labelled' && e.issue.number === labelled);
    expect(event).toMatchObject({ label: LABEL, issue: { title: 'Born labelled', labels: [LABEL] } });
    const plain = await createIssue(admin, fixtureRepo, { title: 'Born plain' });
    // Its `opened` delivery arrives and parses to nothing the farm acts on.
    const deadline = Date.now() + 30_000;
    const opened = () =>
      deliveries.find(
        (d) => (JSON.parse(d.body.toString('utf8')) as { issue?: { number?: number } }).issue?.number === plain,
      );
    while (!opened() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const d = opened()!;
    expect(d).toBeDefined();
    expect(hooks.parse(hooks.verify(d.headers, d.body, SECRET), JSON.parse(d.body.toString('utf8')))).toBeUndefined();
  });

  it('a label added to an issue arrives signed, as issue_labelled', async () => {
    const number = await createIssue(admin, fixtureRepo, { title: 'Label me later' });
    await labelIssue(admin, fixtureRepo, number, [LABEL]);
    const { event } = await delivered((e) => e.kind === 'issue_labelled' && e.issue.number === number);
    expect(event).toMatchObject({
      kind: 'issue_labelled',
      repo,
      label: LABEL,
      sender: 'farm-admin',
      issue: { title: 'Label me later' },
    });
  });

  it('a comment on the pull request arrives as issue_comment on a pull request', async () => {
    const number = await pullNumber();
    await commentOn(reviewer, fixtureRepo, number, '@agent-farm please also six');
    const { event } = await delivered(
      (e) => e.kind === 'issue_comment' && e.comment.body === '@agent-farm please also six',
    );
    expect(event).toMatchObject({
      repo,
      issue: { number, isPullRequest: true },
      comment: { author: 'reviewer' },
      sender: 'reviewer',
    });
  });

  it('a review arrives without its id; resolveReview reads it back with its line comment', async () => {
    const number = await pullNumber();
    const { event } = await delivered((e) => e.kind === 'review' && e.review.state === 'changes_requested');
    if (event.kind !== 'review') throw new Error('not a review');
    expect(event).toMatchObject({
      repo,
      pull: { number, headBranch: HEAD, headSha },
      review: { state: 'changes_requested', body: 'Not like this.', author: 'reviewer' },
    });
    expect(event.review).not.toHaveProperty('id');
    const { comments } = await forge.resolveReview(repo, event.pull.number, event.review);
    expect(comments).toEqual([expect.objectContaining({ path: 'src/app.txt', line: 3 })]);
  });

  it('refuses a tampered body, another secret and a missing signature', async () => {
    const { d } = await delivered((e) => e.kind === 'issue_comment' && e.comment.body.includes('please also six'));
    const tampered = Buffer.from(d.body.toString('utf8').replace('please also six', 'please delete main'));
    expect(tampered.equals(d.body)).toBe(false);
    expect(() => hooks.verify(d.headers, tampered, SECRET)).toThrow(WebhookRejected);
    expect(() => hooks.verify(d.headers, d.body, 'not-the-secret')).toThrow(WebhookRejected);
    const unsigned = Object.fromEntries(Object.entries(d.headers).filter(([k]) => !/signature/i.test(k)));
    expect(() => hooks.verify(unsigned, d.body, SECRET)).toThrow(/no X-Gitea-Signature/);
    // The same delivery, untouched, verifies.
    expect(hooks.verify(d.headers, d.body, SECRET).event).toBe('issue_comment');
  });
});

describe('a closed pull request', () => {
  it('is not the branch’s pull request any more: asking again opens a new one', async () => {
    git(['checkout', '-q', '-b', 'farm/r2', 'main']);
    writeFileSync(join(workDir, 'src/app.txt'), 'one\ntwo\nthree\nFOUR\nfive\n');
    git(['commit', '-q', '-am', 'louder four']);
    await pushDir(admin, workDir, fixtureRepo, ['farm/r2']);
    const input = { repo, head: 'farm/r2', base: 'main', title: 'Louder four', body: '' };
    const first = await forge.openOrUpdatePullRequest(input);
    await giteaApi(admin, 'PATCH', `/repos/${repo.fullName}/pulls/${first.pull.number}`, { state: 'closed' });
    expect((await forge.getPullRequest(repo, first.pull.number)).state).toBe('closed');
    expect(await forge.findPullRequest(repo, 'farm/r2', 'main')).toBeUndefined();

    const second = await forge.openOrUpdatePullRequest(input);
    expect(second.created).toBe(true);
    expect(second.pull.number).not.toBe(first.pull.number);
    expect((await forge.findPullRequest(repo, 'farm/r2', 'main'))?.number).toBe(second.pull.number);
    expect((await forge.findPullRequest(repo, 'farm/r2'))?.number).toBe(second.pull.number);
  });
});
