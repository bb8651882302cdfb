/** @farm-gitea (waits for the background build of Gitea; run late) */
// The farm on a real Gitea (built from the Go module proxy, cached outside the clone), as a team uses it: an
// issue labelled for the farm becomes a request that ends in a pull request with a green status; a reviewer's
// REQUEST_CHANGES with a line comment becomes a follow-up commit on the pull request and a reply; two line
// comments at once become two follow-ups that both land; a follow-up that fails says why; unsigned and replayed
// webhooks are refused; a plan that must be approved is posted on its issue and approved (or rejected) there by
// someone who may write, and by nobody else. Everything the farm learns, it learns from Gitea's real, signed
// webhook deliveries.
import { createHmac, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { InProcessBus } from '@farm/bus';
import { SAMPLE_DIFF, SAMPLE_REPO_FILES, NON_APPLYING_DIFF } from '@farm/cli';
import {
  addCollaborator,
  createIssue,
  createLabel,
  createRepo,
  commentOn,
  giteaApi,
  pushDir,
  registerWebhook,
  submitReview,
  type FixtureRepo,
} from '@farm/forge/testing';
import {
  approvalConfigSchema,
  approvalPolicyFrom,
  changeRequestApi,
  startForge,
  type ForgeSetup,
} from '@farm/orchestrator';
import { serveMetrics, silentLogger } from '@farm/runtime';
import { createPgliteStore, type SqlStore } from '@farm/store';
import { startGitea, type LocalGitea } from '../../../../scripts/local-services/gitea';
import { testApiAccess } from '../index';
import { startFarmHarness, testLog, type FarmHarness } from './farm-harness';

const exec = promisify(execFile);
jest.setTimeout(600_000);

const SECRET = randomBytes(24).toString('hex');
const MENTION = '@farm-bot';
/** The team's repository whose every plan waits for a person (FARM_APPROVAL_REPOS); the others' start at once. */
const GATED = 'calculator-gated';

/** The follow-ups' answers, each picked by the marker its comment carries. */
const FOLLOW_UP_A = `--- a/src/calculator.js
+++ b/src/calculator.js
@@ -10,3 +10,4 @@ function subtract(a, b) {
 
+// multiply returns the product of a and b.
 function multiply(a, b) {
   return a * b;
`;
const FOLLOW_UP_B = `--- a/src/calculator.js
+++ b/src/calculator.js
@@ -12,3 +12,3 @@
 function multiply(a, b) {
-  return a * b;
+  return Number(a) * Number(b);
 }
`;
const FOLLOW_UP_C = `--- a/src/calculator.js
+++ b/src/calculator.js
@@ -7,3 +7,3 @@
 function subtract(a, b) {
-  return a - b;
+  return Number(a) - Number(b);
 }
`;

describe('the farm on a real Gitea: issues in, pull requests out, review comments answered', () => {
  let gitea: LocalGitea;
  let store: SqlStore;
  let bus: InProcessBus;
  let farm: FarmHarness;
  let forge: ForgeSetup;
  let polled: ForgeSetup | undefined;
  let botToken: string;
  let seedDir: string;
  let api: { port: number; close(): Promise<void> };
  let apiUrl: string;
  let adminToken: string;
  let tmp: string;
  let repo: FixtureRepo;
  let owner: { apiUrl: string; token: string };
  let reviewer: { apiUrl: string; token: string };
  const savedCredentials = process.env.FARM_GIT_CREDENTIALS_FILE;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'forge-e2e-'));
    gitea = await startGitea({ log: testLog });
    owner = { apiUrl: gitea.apiUrl, token: gitea.token };
    const bot = await gitea.createUser('farm-bot');
    botToken = bot.token;
    const rev = await gitea.createUser('reviewer');
    reviewer = { apiUrl: gitea.apiUrl, token: rev.token };

    // The team's repository: the sample calculator, the farm's label, the bot and a reviewer with write access.
    repo = await createRepo(owner, 'calculator');
    const work = path.join(tmp, 'seed');
    await mkdir(work);
    await exec('git', ['init', '-q', '-b', 'main', work]);
    for (const [file, content] of Object.entries(SAMPLE_REPO_FILES)) {
      await mkdir(path.dirname(path.join(work, file)), { recursive: true });
      await writeFile(path.join(work, file), content);
    }
    await exec('git', ['add', '-A'], { cwd: work });
    await exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'initial'], { cwd: work });
    await pushDir(owner, work, repo, ['main']);
    seedDir = work;
    await createLabel(owner, repo, 'agent-farm');
    await addCollaborator(owner, repo, 'farm-bot');
    await addCollaborator(owner, repo, 'reviewer');

    // The farm's git credentials for the forge: what agents and builds push with (never in a URL or a message).
    const credentials = path.join(tmp, 'credentials');
    const origin = new URL(gitea.url);
    await writeFile(credentials, `${origin.protocol}//farm-bot:${bot.token}@${origin.host}\n`, { mode: 0o600 });
    process.env.FARM_GIT_CREDENTIALS_FILE = credentials;
    // This farm's operator lets a change no test shows through, marked (the review follow-ups below add none):
    // the agents read it from their environment.
    process.env.FARM_UNVERIFIED_CHANGES = 'deliver';

    store = await createPgliteStore();
    bus = new InProcessBus();
    farm = await startFarmHarness(
      bus,
      store,
      {
        chat: [
          { match: 'GATED-APPROVE', answer: { diff: SAMPLE_DIFF, reasoning: 'add multiply' } },
          { match: 'POLLED-ISSUE', repeat: true, answer: { diff: SAMPLE_DIFF, reasoning: 'add multiply' } },
          { match: 'FOLLOWUP-A', answer: { diff: FOLLOW_UP_A, reasoning: 'comment' } },
          { match: 'FOLLOWUP-B', answer: { diff: FOLLOW_UP_B, reasoning: 'coerce' } },
          { match: 'FOLLOWUP-C', answer: { diff: FOLLOW_UP_C, reasoning: 'test zero' } },
          { match: 'FOLLOWUP-FAIL', repeat: true, answer: { diff: NON_APPLYING_DIFF, reasoning: 'guess' } },
          { match: 'multiply', answer: { diff: SAMPLE_DIFF, reasoning: 'add multiply' } },
        ],
      },
      undefined,
      {
        planner: false,
        orchestrator: {
          approval: approvalPolicyFrom(approvalConfigSchema.parse({ FARM_APPROVAL_REPOS: `**/${GATED}.git` })),
        },
      },
    );
    const access = await testApiAccess(store);
    adminToken = access.adminToken;
    // The forge's settings as an operator gives them; the bridge answers fast for the test.
    const setup = startForge(
      {
        FARM_FORGE_KIND: 'gitea',
        FARM_FORGE_URL: gitea.url,
        FARM_FORGE_TOKEN: bot.token,
        FARM_FORGE_WEBHOOK_SECRET: SECRET,
        FARM_FORGE_LABEL: 'agent-farm',
        FARM_FORGE_MENTION: MENTION,
        FARM_FORGE_PULL_REQUESTS: 'request',
        FARM_FORGE_STATUS_CONTEXT: 'agent-farm',
        FARM_FORGE_POLL_REPOS: '',
        FARM_FORGE_POLL_INTERVAL_S: 60,
        FARM_FORGE_WEBHOOK_RATE_PER_MIN: 60,
        FARM_PUBLIC_URL: 'http://farm.example',
      },
      { store, orchestrator: farm.farm.orchestrator, log: testLog, tickMs: 200 },
    );
    forge = setup!;
    api = await serveMetrics(
      0,
      silentLogger,
      changeRequestApi({
        store,
        orchestrator: farm.farm.orchestrator,
        log: testLog,
        access: access.access,
        forgeWebhooks: forge.webhooks,
      }),
    );
    apiUrl = `http://127.0.0.1:${api.port}`;
    await registerWebhook(owner, repo, { url: `${apiUrl}/v1/forge/webhooks`, secret: SECRET });
  });

  afterAll(async () => {
    delete process.env.FARM_UNVERIFIED_CHANGES;
    if (process.env.FORGE_TEST_DUMP) {
      for (const r of farm.model.requests)
        process.stderr.write(`model: ${JSON.stringify(r).slice(0, 300)} … ${JSON.stringify(r).slice(-1500)}\n`);
      for (const table of ['forge_inbox', 'forge_links', 'change_requests', 'tasks']) {
        const rows = await store.query(`SELECT * FROM ${table}`);
        process.stderr.write(
          `${table}: ${JSON.stringify(rows.rows, (k, v) => (k === 'task' || k === 'description' ? undefined : v), 1)}\n`,
        );
      }
    }
    await forge?.bridge.stop();
    await polled?.bridge.stop();
    await api?.close();
    await farm?.close();
    await bus?.close();
    await store?.close();
    await gitea?.stop();
    process.env.FARM_GIT_CREDENTIALS_FILE = savedCredentials;
    await rm(tmp, { recursive: true, force: true });
  });

  const links = () =>
    store.query<{
      change_request_id: string;
      origin: string;
      source_key: string;
      pull_number: number | null;
      pull_url: string;
    }>('SELECT change_request_id, origin, source_key, pull_number, pull_url FROM forge_links ORDER BY created_at');
  const phaseOf = async (id: string) =>
    (await store.query<{ phase: string }>('SELECT phase FROM change_requests WHERE id = $1', [id])).rows[0]?.phase;
  const comments = async (n: number) =>
    giteaApi<{ body: string; user: { login: string } }[]>(owner, 'GET', `/repos/${repo.fullName}/issues/${n}/comments`);
  const pull = (n: number) =>
    giteaApi<{
      head: { ref: string; sha: string };
      base: { ref: string };
      body: string;
      html_url: string;
      state: string;
    }>(owner, 'GET', `/repos/${repo.fullName}/pulls/${n}`);
  const statuses = (sha: string) =>
    giteaApi<{ status: string; context: string; description: string }[]>(
      owner,
      'GET',
      `/repos/${repo.fullName}/commits/${sha}/statuses`,
    );
  const fileAt = (ref: string, file: string) =>
    giteaApi<{ content: string }>(
      owner,
      'GET',
      `/repos/${repo.fullName}/contents/${file}?ref=${encodeURIComponent(ref)}`,
    ).then((f) => Buffer.from(f.content, 'base64').toString('utf8'));

  /** The follow-up requests made from source keys of this kind, once each ended. */
  async function ended(sourceKind: string, count: number) {
    let found: { change_request_id: string }[] = [];
    await until(async () => {
      found = (await links()).rows.filter((l) => l.source_key?.startsWith(sourceKind));
      if (found.length < count) return false;
      const phases = await Promise.all(found.map((l) => phaseOf(l.change_request_id)));
      return phases.every((p) => ['DONE', 'FAILED', 'CANCELLED'].includes(p ?? ''));
    }, 300_000);
    return Promise.all(
      found.map(async (l) => ({ id: l.change_request_id, phase: await phaseOf(l.change_request_id) })),
    );
  }

  let pullNumber = 0;
  let requestId = '';

  test('an issue labelled for the farm becomes one request, which ends in a pull request with a green status', async () => {
    const issue = await createIssue(owner, repo, {
      title: 'Add multiply to the calculator',
      body: 'Export multiply(a, b) from src/calculator.js, returning the product, with a test.',
      labels: ['agent-farm'],
    });
    let link: { change_request_id: string; pull_number: number | null; pull_url: string } | undefined;
    await until(
      async () => {
        link = (await links()).rows.find((l) => l.source_key === `issue:${repo.fullName}#${issue}`);
        return !!link?.pull_number;
      },
      Number(process.env.FORGE_TEST_WAIT_MS ?? 300_000),
    );
    requestId = link!.change_request_id;
    pullNumber = link!.pull_number!;
    expect(await phaseOf(requestId)).toBe('DONE');
    // Mentioning the farm on the issue again (a second "issue" event) makes no second request.
    await commentOn(owner, repo, issue, `${MENTION} please`);

    const pr = await pull(pullNumber);
    expect([pr.head.ref, pr.base.ref, pr.state]).toEqual([`farm/${requestId}`, 'main', 'open']);
    expect(pr.body).toContain(`Closes #${issue}`);
    expect(pr.body).toContain(`http://farm.example/console/#/requests/${requestId}`);
    expect(pr.body).toMatch(/Cost: \$[0-9.]+ · tokens: [1-9]/);
    await until(async () =>
      (await statuses(pr.head.sha)).some((s) => s.context === 'agent-farm' && s.status === 'success'),
    );
    expect(await fileAt(pr.head.ref, 'src/calculator.js')).toContain('function multiply(a, b)');

    // The issue was answered with the request's id, then with the pull request.
    await until(async () => (await comments(issue)).some((c) => c.body.includes(pr.html_url)));
    const said = (await comments(issue)).filter((c) => c.user.login === 'farm-bot').map((c) => c.body);
    expect(said[0]).toContain(`Working on this issue: change request \`${requestId}\``);
    expect(said.some((b) => b.startsWith(`Done: pull request ${pr.html_url}`))).toBe(true);

    // The status API shows the pull request.
    const status = await fetch(`${apiUrl}/v1/change-requests/${requestId}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    }).then((r) => r.json() as Promise<{ forge?: { pullRequest?: { url: string } } }>);
    expect(status.forge?.pullRequest?.url).toBe(pr.html_url);
    expect((await links()).rows.filter((l) => l.origin === 'issue')).toHaveLength(1);
  });

  test("a reviewer's REQUEST_CHANGES with a line comment becomes a follow-up commit on the pull request, and a reply", async () => {
    const before = await pull(pullNumber);
    await submitReview(reviewer, repo, pullNumber, {
      event: 'REQUEST_CHANGES',
      body: 'One thing',
      comments: [
        { path: 'src/calculator.js', body: 'Document multiply with a comment (FOLLOWUP-A)', new_position: 11 },
      ],
    });
    const [followUp] = await ended('review-comment:', 1);
    expect(followUp!.phase).toBe('DONE');
    const after = await pull(pullNumber);
    expect(after.head.ref).toBe(before.head.ref);
    expect(after.head.sha).not.toBe(before.head.sha);
    expect(await fileAt(after.head.ref, 'src/calculator.js')).toContain('// multiply returns the product of a and b.');
    await until(async () => (await statuses(after.head.sha)).some((s) => s.status === 'success'));
    await until(async () =>
      (await comments(pullNumber)).some((c) =>
        c.body.startsWith(`Pushed ${after.head.sha.slice(0, 12)} for the comment of @reviewer on src/calculator.js:11`),
      ),
    );
  });

  test('two line comments at once (one file, two functions) become two follow-ups that both land on the pull request, without conflict', async () => {
    await submitReview(reviewer, repo, pullNumber, {
      event: 'REQUEST_CHANGES',
      body: 'Two more',
      comments: [
        { path: 'src/calculator.js', body: 'Coerce the arguments with Number (FOLLOWUP-B)', new_position: 13 },
        { path: 'src/calculator.js', body: 'Coerce in subtract too (FOLLOWUP-C)', new_position: 8 },
      ],
    });
    const followUps = await ended('review-comment:', 3);
    expect(followUps.map((f) => f.phase)).toEqual(['DONE', 'DONE', 'DONE']);
    const head = (await pull(pullNumber)).head.ref;
    const source = await fileAt(head, 'src/calculator.js');
    expect(source).toContain('return Number(a) * Number(b);');
    expect(source).toContain('// multiply returns the product of a and b.');
    expect(source).toContain('return Number(a) - Number(b);');
    // Each follow-up's task claimed the symbols it changed; they did not collide.
    const tasks = await store.query<{ change_request_id: string; status: string }>(
      `SELECT change_request_id, status FROM tasks WHERE change_request_id = ANY($1::text[])`,
      [followUps.map((f) => f.id)],
    );
    expect(tasks.rows.map((t) => t.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
    await until(async () => (await comments(pullNumber)).filter((c) => c.body.startsWith('Pushed ')).length === 3);
    // No test shows the coercions: delivered as the operator chose, and said so where the reviewer reads.
    const pushed = (await comments(pullNumber)).filter((c) => c.body.startsWith('Pushed ')).map((c) => c.body);
    expect(pushed.filter((b) => b.includes('⚠️ NOT VERIFIED: no test exercises the change'))).toHaveLength(2);
  });

  test('a follow-up that fails says why on the pull request and marks its commit failed', async () => {
    const head = (await pull(pullNumber)).head.sha;
    await commentOn(reviewer, repo, pullNumber, `${MENTION} divide by zero should give NaN (FOLLOWUP-FAIL)`);
    const [failed] = await ended('comment:', 1);
    expect(failed!.phase).toBe('FAILED');
    await until(async () =>
      (await comments(pullNumber)).some((c) => c.body.startsWith('Could not address the comment of @reviewer')),
    );
    await until(async () => (await statuses(head)).some((s) => s.status === 'failure'));
    expect((await pull(pullNumber)).head.sha).toBe(head);
  });

  test('an unsigned, a forged or a replayed webhook is refused; nothing is made of it', async () => {
    const body = JSON.stringify({
      action: 'label_updated',
      issue: { number: 99 },
      repository: { full_name: repo.fullName },
    });
    const post = (headers: Record<string, string>, text = body) =>
      fetch(`${apiUrl}/v1/forge/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gitea-event': 'issues', ...headers },
        body: text,
      });
    const sign = (text: string, secret = SECRET) => createHmac('sha256', secret).update(text).digest('hex');
    expect((await post({ 'x-gitea-delivery': 'd-unsigned' })).status).toBe(401);
    expect(
      (await post({ 'x-gitea-delivery': 'd-forged', 'x-gitea-signature': sign(body, 'not-the-secret') })).status,
    ).toBe(401);
    expect(
      (await post({ 'x-gitea-delivery': 'd-tampered', 'x-gitea-signature': sign(body) }, body.replace('99', '98')))
        .status,
    ).toBe(401);
    const signed = { 'x-gitea-delivery': 'd-replayed', 'x-gitea-signature': sign(body) };
    expect((await post(signed)).status).toBe(202);
    const replay = await post(signed);
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as { error: { message: string } }).error.message).toMatch(/received before/);
    const taken = await store.query(`SELECT delivery_id FROM forge_inbox WHERE delivery_id LIKE 'gitea:d-%'`);
    expect(taken.rows.map((r) => r.delivery_id)).toEqual(['gitea:d-replayed']);
  });

  describe('a plan that must be approved, decided on its issue', () => {
    let gated: FixtureRepo;
    let outsider: { apiUrl: string; token: string };

    beforeAll(async () => {
      gated = await createRepo(owner, GATED);
      await pushDir(owner, seedDir, gated, ['main']);
      await createLabel(owner, gated, 'agent-farm');
      await addCollaborator(owner, gated, 'reviewer');
      // Gitea shows another user's permission to the repository's admins only: the farm's account is one here.
      await giteaApi(owner, 'PUT', `/repos/${gated.fullName}/collaborators/farm-bot`, { permission: 'admin' });
      await registerWebhook(owner, gated, { url: `${apiUrl}/v1/forge/webhooks`, secret: SECRET });
      // Someone who may comment on the (public) repository, not write to it.
      outsider = { apiUrl: gitea.apiUrl, token: (await gitea.createUser('outsider')).token };
    });

    const said = async (n: number) =>
      (
        await giteaApi<{ body: string; user: { login: string } }[]>(
          owner,
          'GET',
          `/repos/${gated.fullName}/issues/${n}/comments`,
        )
      )
        .filter((c) => c.user.login === 'farm-bot')
        .map((c) => c.body);
    const saidSoon = async (n: number, what: (body: string) => boolean) => {
      await until(async () => (await said(n)).some(what), 120_000);
      return (await said(n)).find(what)!;
    };
    /** The request of a gated issue, once its plan waits and is posted there. */
    async function waiting(issue: number): Promise<string> {
      let id = '';
      await until(async () => {
        id =
          (await links()).rows.find((l) => l.source_key === `issue:${gated.fullName}#${issue}`)?.change_request_id ??
          '';
        return !!id && (await phaseOf(id)) === 'AWAITING_APPROVAL';
      }, 120_000);
      return id;
    }
    const outcomes = async (repoName: string) =>
      (
        await store.query<{ outcome: string }>(
          `SELECT outcome FROM forge_inbox WHERE repo = $1 AND outcome <> '' ORDER BY received_at`,
          [repoName],
        )
      ).rows.map((r) => r.outcome);

    test('the plan is posted on the issue; `/farm approve` by one who may not write is refused and nothing runs; by the reviewer, the request runs to DONE with its pull request', async () => {
      const issue = await createIssue(owner, gated, {
        title: 'Add multiply (GATED-APPROVE)',
        body: 'Export multiply(a, b) from src/calculator.js, returning the product, with a test.',
        labels: ['agent-farm'],
      });
      const id = await waiting(issue);
      const plan = await saidSoon(issue, (b) => b.includes('waits for approval before any agent starts'));
      expect(plan).toContain(`The plan of change request \`${id}\` (http://farm.example/console/#/requests/${id})`);
      expect(plan).toContain("the repository's plans always wait for approval");
      expect(plan).toContain('**Plan: 1 task**');
      expect(plan).toContain('Add multiply (GATED-APPROVE)');
      expect(plan).toContain('- `/farm approve` to run the plan as it is;');
      expect(plan).toContain('- `/farm reject <reason>` to cancel the request.');
      expect((await said(issue))[0]).toContain(`Working on this issue: change request \`${id}\``);

      await commentOn(outsider, gated, issue, '/farm approve');
      await saidSoon(issue, (b) =>
        b.startsWith('@outsider: refused, only someone who may write to the repository can approve the plan.'),
      );
      expect(await phaseOf(id)).toBe('AWAITING_APPROVAL');
      const tasks = await store.query<{ status: string }>('SELECT status FROM tasks WHERE change_request_id = $1', [
        id,
      ]);
      expect(tasks.rows.map((t) => t.status)).toEqual(['PENDING']);
      expect(farm.model.requests.some((r) => JSON.stringify(r).includes('GATED-APPROVE'))).toBe(false);

      await commentOn(reviewer, gated, issue, '/farm approve');
      await saidSoon(issue, (b) => b.startsWith(`Plan approved by @reviewer: change request \`${id}\``));
      let pullNumberOf: number | null = null;
      await until(async () => {
        pullNumberOf = (await links()).rows.find((l) => l.change_request_id === id)?.pull_number ?? null;
        return !!pullNumberOf;
      }, 300_000);
      expect(await phaseOf(id)).toBe('DONE');
      const pr = await giteaApi<{ head: { ref: string }; html_url: string }>(
        owner,
        'GET',
        `/repos/${gated.fullName}/pulls/${pullNumberOf}`,
      );
      expect(pr.head.ref).toBe(`farm/${id}`);
      await saidSoon(issue, (b) => b.startsWith(`Done: pull request ${pr.html_url}`));
      const audit = await store.query<{ subject: string; action: string }>(
        'SELECT subject, action FROM farm_audit_events WHERE change_request_id = $1 AND action = $2',
        [id, 'approve'],
      );
      expect(audit.rows).toEqual([{ subject: 'forge:reviewer', action: 'approve' }]);
      // The decisions were that only: no second request, no follow-up.
      expect((await links()).rows.filter((l) => l.source_key?.includes(gated.fullName))).toHaveLength(1);
      const all = await outcomes(gated.fullName);
      expect(all.filter((o) => /^(refused|approved|rejected)/.test(o))).toEqual([
        `refused: outsider may not write to ${gated.fullName}`,
        `approved ${id}`,
      ]);
      expect(all.filter((o) => /^(change request|follow-ups)/.test(o))).toEqual([`change request ${id}`]);
    });

    test('`/farm reject too broad` by the reviewer cancels the request with that reason, answered on the issue', async () => {
      const issue = await createIssue(owner, gated, {
        title: 'Rewrite the calculator (GATED-REJECT)',
        body: 'Rewrite every function of src/calculator.js.',
        labels: ['agent-farm'],
      });
      const id = await waiting(issue);
      await saidSoon(issue, (b) => b.includes('waits for approval before any agent starts'));
      await commentOn(reviewer, gated, issue, '/farm reject too broad');
      await saidSoon(issue, (b) =>
        b.startsWith(
          `Plan rejected by @reviewer: change request \`${id}\` (http://farm.example/console/#/requests/${id}) is cancelled (too broad).`,
        ),
      );
      await until(async () => (await phaseOf(id)) === 'CANCELLED');
      const reason = await store.query<{ reason: string }>('SELECT reason FROM change_requests WHERE id = $1', [id]);
      expect(reason.rows[0]!.reason).toBe('plan rejected by forge:reviewer: too broad');
      await saidSoon(issue, (b) =>
        b.startsWith(
          `Change request \`${id}\` (http://farm.example/console/#/requests/${id}) cancelled: plan rejected by forge:reviewer: too broad`,
        ),
      );
      expect(farm.model.requests.some((r) => JSON.stringify(r).includes('GATED-REJECT'))).toBe(false);
    });
  });

  test('a repository the forge cannot send webhooks for is polled: a labelled issue becomes exactly one request, with one pull request per task branch (FARM_FORGE_PULL_REQUESTS=task)', async () => {
    // The webhook-fed bridge steps aside: the polling one (no webhook secret, as a farm the forge cannot reach
    // runs) handles its own deliveries and its requests' phases.
    await forge.bridge.stop();
    const quiet = await createRepo(owner, 'calculator-polled');
    await pushDir(owner, seedDir, quiet, ['main']);
    await createLabel(owner, quiet, 'agent-farm');
    await addCollaborator(owner, quiet, 'farm-bot');
    const issue = await createIssue(owner, quiet, {
      title: 'Add multiply (POLLED-ISSUE)',
      body: 'Export multiply(a, b) from src/calculator.js, returning the product, with a test.',
      labels: ['agent-farm'],
    });

    polled = startForge(
      {
        FARM_FORGE_KIND: 'gitea',
        FARM_FORGE_URL: gitea.url,
        FARM_FORGE_TOKEN: botToken,
        FARM_FORGE_LABEL: 'agent-farm',
        FARM_FORGE_MENTION: MENTION,
        FARM_FORGE_PULL_REQUESTS: 'task',
        FARM_FORGE_STATUS_CONTEXT: 'agent-farm',
        FARM_FORGE_POLL_REPOS: ` ${quiet.fullName} `,
        FARM_FORGE_POLL_INTERVAL_S: 1,
        FARM_FORGE_WEBHOOK_RATE_PER_MIN: 60,
      },
      { store, orchestrator: farm.farm.orchestrator, log: testLog, tickMs: 200 },
    )!;
    expect(polled.webhooks).toBeUndefined();

    const source = `issue:${quiet.fullName}#${issue}`;
    let link: { change_request_id: string; pull_number: number | null; pull_url: string } | undefined;
    await until(async () => {
      link = (await links()).rows.find((l) => l.source_key === source);
      return !!link?.pull_number;
    }, 300_000);
    const id = link!.change_request_id;
    expect(await phaseOf(id)).toBe('DONE');

    // Polled again and again (every second, and once more here), the issue made one delivery and one request.
    expect(await polled.bridge.poll()).toBe(0);
    const inbox = await store.query<{ delivery_id: string }>(
      `SELECT delivery_id FROM forge_inbox WHERE delivery_id LIKE 'poll:%'`,
    );
    expect(inbox.rows.map((r) => r.delivery_id)).toEqual([`poll:${quiet.fullName}#${issue}`]);
    expect((await links()).rows.filter((l) => l.source_key === source)).toHaveLength(1);

    // The pull request comes from the task's own branch, not from farm/<id>.
    const tasks = await store.query<{ id: string }>('SELECT id FROM tasks WHERE change_request_id = $1', [id]);
    expect(tasks.rows).toHaveLength(1);
    const pr = await giteaApi<{ head: { ref: string; sha: string }; base: { ref: string }; html_url: string }>(
      owner,
      'GET',
      `/repos/${quiet.fullName}/pulls/${link!.pull_number}`,
    );
    expect([pr.head.ref, pr.base.ref]).toEqual([`agt/${tasks.rows[0]!.id}`, 'main']);
    const open = await giteaApi<{ head: { ref: string } }[]>(owner, 'GET', `/repos/${quiet.fullName}/pulls?state=all`);
    expect(open.map((p) => p.head.ref)).toEqual([pr.head.ref]);

    const said = async () =>
      (
        await giteaApi<{ body: string; user: { login: string } }[]>(
          owner,
          'GET',
          `/repos/${quiet.fullName}/issues/${issue}/comments`,
        )
      )
        .filter((c) => c.user.login === 'farm-bot')
        .map((c) => c.body);
    await until(async () => (await said()).some((b) => b.startsWith(`Done: pull request ${pr.html_url}`)));
    expect((await said())[0]).toContain(`Working on this issue: change request \`${id}\``);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    if (await check()) return;
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}
