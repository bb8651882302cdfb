// The web console in a real headless Chromium (Debian's `chromium`, driven by playwright-core), served by the
// orchestrator's HTTP API in front of a whole farm: agent processes with the scripted model, the git
// smart-HTTP server, PostgreSQL and the in-process bus, behind the API's real access control: no token is a
// 401 (so every call the console makes, the event stream included, must carry its token), a revoked token a
// 401, a read-only token a 403 on what changes something. Screenshots go to .cache/console-screenshots/.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { InProcessBus } from '@farm/bus';
import { changeRequestApi, openApiAccess, type ApiAccess } from '@farm/orchestrator';
import { ADD_MULTIPLY, MULTI_REPO_FILES, agentStep, planStep } from '@farm/cli/testing';
import { serveMetrics, type RouteHandler } from '@farm/runtime';
import { farm } from '@farm/proto';
import { createPgStore, type SqlStore } from '@farm/store';
import { HOSTILE, REVIEW_DIFF, REVIEW_VERIFICATION, manyLines, trajectoryLines } from './console-fixtures';
import { startFarmHarness, testLog, type FarmHarness } from './farm-harness';

const SHOTS = path.resolve(__dirname, '../../../../.cache/console-screenshots');
// axe-core, run in the page on every view: no serious or critical accessibility violation.
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
// The forge the console links to (never loaded: the browser reaches nothing but the farm).
const FORGE = { kind: 'gitea', webUrl: 'http://forge.invalid' };
// Token names unique per run: the shared database keeps earlier runs' tokens.
const RUN = Date.now().toString(36);
const SLOW = 'Slow: wait for a cancel';
const BROKEN = 'Break the calculator';

/** Debian's chromium, which scripts/test.sh installs. */
function chromiumPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new Error('chromium is not installed: scripts/test.sh installs it (apt-get install chromium)');
  }
}

describe('the web console in headless Chromium, on a whole farm with the scripted model', () => {
  let store: SqlStore;
  let h: FarmHarness;
  let server: { port: number; close(): Promise<void> };
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let access: ApiAccess;
  let TOKEN: string;
  let READ_ONLY: { id: string; token: string };
  const seenTokens = new Set<string>();
  const streamsOpened: string[] = [];
  let cutNextStream = false;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    store = createPgStore(process.env.DATABASE_URL!);
    h = await startFarmHarness(
      new InProcessBus(),
      store,
      {
        chat: [
          // The request to cancel stays in PLANNING: its planner waits.
          { ...planStep([{ id: 'slow', goal: 'Never planned' }]), match: SLOW, fault: { delayMs: 20_000 } },
          // The request that fails: its agent's answer is no diff.
          { ...planStep([{ id: 'brk', goal: BROKEN }]), match: BROKEN },
          agentStep(BROKEN, 'this is not a diff'),
          planStep([{ id: 'mul', goal: 'Add multiply to the calculator' }]),
          agentStep('Add multiply', ADD_MULTIPLY),
        ],
      },
      undefined,
      { orchestrator: { accounting: { requestMaxCostUsd: 0, lessons: true, lessonsPerTask: 3 } } },
    );
    access = await openApiAccess(store, {});
    TOKEN = (await access.tokens.create({ name: `console-${RUN}`, scopes: ['read', 'submit', 'cancel'] }, 'test'))
      .token;
    READ_ONLY = await access.tokens.create({ name: `console-ro-${RUN}`, scopes: ['read'] }, 'test');
    const apiRoutes = changeRequestApi({
      store,
      orchestrator: h.farm.orchestrator,
      log: testLog,
      access,
      forgeSite: FORGE,
    });
    // What each call carried (path and token), and each event stream's Last-Event-ID; then a network blip: the
    // next event stream is cut by the server side 1.5 s after it opened.
    const api: RouteHandler = (req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const pathname = (req.url ?? '').split('?')[0];
      if (token) seenTokens.add(`${pathname} ${token}`);
      if (pathname.endsWith('/events')) streamsOpened.push(String(req.headers['last-event-id'] ?? ''));
      if (cutNextStream && req.url?.includes('/events')) {
        cutNextStream = false;
        setTimeout(() => req.socket.destroy(), 1500);
      }
      return apiRoutes(req, res);
    };
    server = await serveMetrics(0, testLog, api);
    base = `http://127.0.0.1:${server.port}`;
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
    context = await browser.newContext();
    // Nothing the console loads may come from anywhere but the farm.
    await context.route(
      (url) => url.origin !== base,
      (route) => route.abort(),
    );
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await h?.close();
    await store?.close();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  /** Serious and critical accessibility violations axe-core finds on the page as it is now. */
  async function axeViolations(): Promise<string[]> {
    await page.evaluate(AXE);
    const found = (await page.evaluate(
      'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) })))',
    )) as { id: string; impact: string; help: string; nodes: string[] }[];
    return found
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).join(', ')}`);
  }

  /** Polls until `read` gives `expected` (10 s at most), then says what it gave. */
  async function until<T>(read: () => Promise<T>, expected: T): Promise<void> {
    const deadline = Date.now() + 10_000;
    let got = await read();
    while (JSON.stringify(got) !== JSON.stringify(expected) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      got = await read();
    }
    expect(got).toEqual(expected);
  }

  /** A request as the orchestrator keeps one, written straight to the store (the farm never sees it move). */
  async function insertRequest(r: { id: string; title: string; phase?: string; repoUrl?: string; agoS?: number }) {
    await store.query(
      `INSERT INTO change_requests (id, phase, repo_url, base_ref, title, created_at, updated_at)
       VALUES ($1, $2, $3, 'main', $4, now() - $5 * interval '1 second', now())`,
      [r.id, r.phase ?? 'DONE', r.repoUrl ?? 'http://git.invalid/paged.git', r.title, r.agoS ?? 0],
    );
  }

  /**
   * A task of a new DONE request with one dispatch's report as an agent sends it (`lines` its trajectory, `diff`
   * its change) and its verification, written straight to the store; returns the task page's address.
   */
  async function insertTaskReport(r: {
    id: string;
    lines: Record<string, unknown>[];
    diff?: string;
    verification?: Record<string, unknown>;
  }): Promise<string> {
    const taskId = `${r.id}-t`;
    await insertRequest({ id: r.id, title: `Reviewed ${r.id}` });
    await store.query(
      `INSERT INTO tasks (id, change_request_id, goal, status, task, branch, commit_sha, dispatch, verification)
       VALUES ($1, $2, 'Add multiply', 'SUCCESS', ''::bytea, $3, 'c0ffee0000000000000000000000000000000002', 1, $4)`,
      [taskId, r.id, `agt/${taskId}`, r.verification ? JSON.stringify(r.verification) : null],
    );
    const result = farm.v1.CommitResult.create({
      taskId,
      changeRequestId: r.id,
      dispatch: 1,
      status: farm.v1.CommitStatus.SUCCESS,
      attempts: 1,
      steps: 4,
      model: 'coder-1',
      costUsd: 0.0113,
      tokenUsage: { promptTokens: 5700, completionTokens: 270, totalTokens: 5970 },
      report: { trajectory: r.lines.map((l) => JSON.stringify(l)), diff: r.diff ?? '' },
    });
    await store.query(
      `INSERT INTO task_reports (task_id, dispatch, change_request_id, result) VALUES ($1, 1, $2, $3)`,
      [taskId, r.id, farm.v1.CommitResult.encode(result).finish()],
    );
    return `${base}/console/#/requests/${r.id}/tasks/${taskId}`;
  }

  async function signIn(token: string) {
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Change requests' }).waitFor();
  }

  test('signs in, submits a request and watches its timeline move live to DONE; opens the trajectory and diff', async () => {
    const offFarm: string[] = [];
    page.on('request', (r) => void (new URL(r.url()).origin !== base && offFarm.push(r.url())));
    await signIn(TOKEN);
    await shot('1-requests');

    const repo = await h.seed('console.git', MULTI_REPO_FILES);
    await page.getByRole('link', { name: 'Submit a request' }).click();
    cutNextStream = true;
    await page.getByLabel('Repository').fill(repo.url);
    await page.getByLabel('Title').fill('Add multiply');
    await page.getByLabel('Description').fill('multiply(a, b) next to add');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/#\/requests\/[0-9a-f-]{36}$/);
    const id = decodeURIComponent(page.url().split('#/requests/')[1]);
    // A reload would lose this mark: the page must change by itself.
    await page.evaluate('window.notReloaded = true');

    const timeline = page.getByTestId('timeline');
    await timeline.locator('li').first().waitFor();
    const firstSeen = await timeline.innerText();
    expect(firstSeen).not.toContain('DONE');
    await page.getByTestId('stream-state').and(page.locator('[data-ended]')).waitFor({ timeout: 120_000 });
    const phases = await timeline.locator('li:not(:has(a)) .badge').allInnerTexts();
    expect(phases).toEqual(['RECEIVED', 'PLANNING', 'CODING', 'BUILD', 'DONE']);
    expect(await page.evaluate('window.notReloaded')).toBe(true);
    // The stream was cut once and resumed after the last event seen: every event once, in order.
    expect(streamsOpened).toHaveLength(2);
    expect(streamsOpened[0]).toBe('');
    expect(Number(streamsOpened[1])).toBeGreaterThan(0);
    const sequences = await timeline
      .locator('li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-sequence')));
    expect(sequences).toEqual(sequences.map((_, i) => String(i + 1)));
    await page.getByTestId('phase').getByText('DONE').waitFor();
    // The request's change as its build merged it into farm/<id>: the file list and the diff, for review.
    const requestDiff = page.getByTestId('request-diff');
    await requestDiff.getByTestId('diff').waitFor();
    await expect(requestDiff.getByTestId('diff').innerText()).resolves.toContain('+function multiply(a, b) {');
    await expect(requestDiff.getByTestId('diff-files').innerText()).resolves.toContain('src/calculator.js');
    await expect(requestDiff.getByTestId('verification').innerText()).resolves.toContain(`farm/${id}`);
    await shot('2-request-done');

    // The task graph links the task; its page shows the diff and what the agent did.
    await page.locator('.graph [data-task] a').first().click();
    await page.getByRole('heading', { name: /^Task / }).waitFor();
    await expect(page.getByTestId('diff').innerText()).resolves.toContain('+function multiply(a, b) {');
    expect(await page.locator('dl.facts').innerText()).toContain(
      'Verified: test/multiply.test.js fail without the change and pass with it',
    );
    const events = await page
      .locator('[data-testid=trajectory] > li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-event')));
    expect(events).toEqual(expect.arrayContaining(['answer', 'reward']));
    await page.getByText('Checks', { exact: true }).waitFor();
    await shot('3-task');

    expect(offFarm).toEqual([]);
    // The token went with every call, the event stream's included.
    expect([...seenTokens].some((s) => s === `/v1/change-requests/${id}/events ${TOKEN}`)).toBe(true);
    expect([...seenTokens].some((s) => /^\/v1\/change-requests\/[^/]+\/tasks\/[^/]+\/trajectory /.test(s))).toBe(true);
    expect([...seenTokens].every((s) => s.endsWith(` ${TOKEN}`))).toBe(true);
    expect((await store.query('SELECT 1 FROM change_requests WHERE id = $1', [id])).rows).toHaveLength(1);
  });

  test('a plan waiting for approval: shown with its tasks; a read token sees no buttons; an approver edits a goal and approves, and it runs to DONE', async () => {
    const repo = await h.seed('console-approval.git', MULTI_REPO_FILES);
    await page.evaluate('sessionStorage.clear()');
    await signIn(TOKEN);
    await page.getByRole('link', { name: 'Submit a request' }).click();
    await page.getByLabel('Repository').fill(repo.url);
    await page.getByLabel('Title').fill('Add multiply, approved first');
    await page.getByLabel('Wait for a person to approve the plan before any task starts').check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/#\/requests\/[0-9a-f-]{36}$/);
    const id = decodeURIComponent(page.url().split('#/requests/')[1]);
    const panel = page.getByTestId('approval');
    await panel.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
    await expect(panel.textContent()).resolves.toContain('wait for approval: the submitter asked for approval');
    // This token may submit and cancel, not approve: the plan is shown, the buttons are not.
    expect(await panel.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await expect(panel.textContent()).resolves.toContain('Deciding needs a token with the approve scope');

    const approver = await access.tokens.create({ name: `console-lead-${RUN}`, scopes: ['read', 'approve'] }, 'test');
    await page.evaluate('sessionStorage.clear()');
    await signIn(approver.token);
    await page.goto(`${base}/#/requests/${encodeURIComponent(id)}`);
    await panel.getByRole('button', { name: 'Approve' }).waitFor();
    expect(await axeViolations()).toEqual([]);
    await shot('approval');
    await panel.getByLabel(`Goal of ${id}-mul`).fill('Add multiply to the calculator, with its test');
    await panel.getByLabel('At most at once').fill('1');
    await panel.getByLabel('Reason').fill('looks right');
    await panel.getByRole('button', { name: 'Approve' }).click();
    await panel.getByRole('status').getByText('Approval sent.').waitFor();
    await page.getByTestId('phase').getByText('DONE').waitFor({ timeout: 120_000 });
    const audit = await store.query<{ subject: string; detail: { goals?: Record<string, string> } }>(
      `SELECT subject, detail FROM farm_audit_events WHERE change_request_id = $1 AND action = 'approve'`,
      [id],
    );
    expect(audit.rows).toEqual([
      {
        subject: `token:console-lead-${RUN}`,
        detail: expect.objectContaining({ goals: { [`${id}-mul`]: 'Add multiply to the calculator, with its test' } }),
      },
    ]);
    // The tests after this one act as the submitter again.
    await page.evaluate('sessionStorage.clear()');
    await signIn(TOKEN);
  });

  test('cancels another request from its page', async () => {
    const repo = await h.seed('console-cancel.git', MULTI_REPO_FILES);
    const submitted = await fetch(`${base}/v1/change-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ title: SLOW, repo: { url: repo.url } }),
    });
    const { changeRequestId: id } = (await submitted.json()) as { changeRequestId: string };
    await page.goto(`${base}/console/#/requests/${id}`);
    await page.getByTestId('timeline').getByText('PLANNING', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Reason').fill('not needed after all');
    await page.getByRole('button', { name: 'Cancel request' }).click();
    await page.getByTestId('stream-state').and(page.locator('[data-ended]')).waitFor({ timeout: 60_000 });
    await page.getByTestId('phase').getByText('CANCELLED').waitFor();
    expect(await page.getByTestId('timeline').innerText()).toContain('not needed after all');
    await shot('4-cancelled');
  });

  test('a failed task is resubmitted from its page as a new request on the same repository', async () => {
    const repo = await h.seed('console-broken.git', MULTI_REPO_FILES);
    const submitted = await fetch(`${base}/v1/change-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ title: `${BROKEN}, please`, repo: { url: repo.url } }),
    });
    const { changeRequestId: id } = (await submitted.json()) as { changeRequestId: string };
    await page.goto(`${base}/console/#/requests/${id}`);
    await page.getByTestId('stream-state').and(page.locator('[data-ended]')).waitFor({ timeout: 120_000 });
    await page.getByTestId('phase').getByText('FAILED').waitFor();
    await page.locator('.graph [data-task] a').first().click();
    await page.getByRole('button', { name: 'Resubmit this task as a new request' }).click();
    const link = page.getByRole('status').getByRole('link');
    await link.waitFor();
    const newId = await link.innerText();
    expect(newId).not.toBe(id);
    await shot('5-resubmitted');
    await link.click();
    await page.getByRole('heading', { name: `Request ${newId}` }).waitFor();
    await page.locator('dd', { hasText: BROKEN }).first().waitFor();
    expect(await page.locator('dl.facts').innerText()).toContain(repo.url);
  });

  test('the lessons are searchable, and the health page shows the farm from its metrics', async () => {
    await page.goto(`${base}/console/#/lessons`);
    const rows = page.getByRole('table', { name: 'Lessons' }).locator('tbody tr');
    await rows.filter({ hasText: 'Add multiply to the calculator' }).first().waitFor();
    await page.getByLabel('Search').fill('no such lesson anywhere');
    await expect(rows.innerText()).resolves.toBe('No lesson matches.');
    await page.getByLabel('Search').fill('MULTIPLY');
    await rows.filter({ hasText: 'Add multiply to the calculator' }).first().waitFor();
    await shot('6-lessons');

    await page.goto(`${base}/console/#/health`);
    await page.getByTestId('healthz').getByText('healthy').waitFor();
    const facts = await page.locator('dl.facts').first().innerText();
    expect(facts).toMatch(/Running agents \(tasks dispatched\)\s+\d+/);
    await page.getByText('Requests by phase').waitFor();
    expect(await page.locator('dl.facts').nth(1).innerText()).toMatch(/DONE\s+\d+/);
    await shot('7-health');
  });

  test('tokens: each with when it expires; one created with a lifetime says until when; a revoked one is marked', async () => {
    const admin = await access.tokens.create({ name: `console-admin-${RUN}`, scopes: ['admin', 'read'] }, 'test');
    await page.goto(`${base}/`);
    await page.evaluate('sessionStorage.clear()');
    await signIn(admin.token);
    await page.getByRole('link', { name: 'Tokens' }).click();
    const table = page.getByRole('table', { name: 'Tokens' });
    const row = (name: string) => table.locator(`tr[data-token="${name}"]`);
    await row(`console-${RUN}`).waitFor();
    await page.getByLabel('Name').fill(`ci-bot-${RUN}`);
    await page.getByRole('checkbox', { name: 'submit' }).check();
    await page.getByLabel('Expires after').selectOption({ label: '7 days' });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('new-token').waitFor();
    const secret = await page.getByTestId('new-token').innerText();
    expect(secret).toMatch(/^farm_/);
    expect(await row(`ci-bot-${RUN}`).innerText()).toMatch(/read, submit\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 6 d\)/);
    // What the page says holds: the farm refuses the token after that time (its record says when).
    const listed = (await access.tokens.list()).find((t) => t.name === `ci-bot-${RUN}`);
    expect(Date.parse(listed!.expiresAt!) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    await shot('6-tokens');
    await row(`ci-bot-${RUN}`).getByRole('button', { name: 'Revoke' }).click();
    await row(`ci-bot-${RUN}`)
      .getByText(/^revoked .* ago by /)
      .waitFor();
    expect(await access.tokens.verify(secret)).toBeUndefined();
  });

  test('finds any request: pages past the first page, filters on the server, keeps its width with a hostile title', async () => {
    // 120 requests of this run, a second apart (r000 oldest); every third FAILED.
    const ids = Array.from({ length: 120 }, (_, i) => `paged-${RUN}-${String(i).padStart(3, '0')}`);
    for (const [i, id] of ids.entries()) {
      await insertRequest({ id, title: `Paged ${RUN} ${i}`, phase: i % 3 ? 'DONE' : 'FAILED', agoS: 3600 + 120 - i });
    }
    await page.goto(`${base}/`);
    await page.evaluate('sessionStorage.clear()');
    await signIn(TOKEN);
    const rows = page.getByRole('table', { name: 'Change requests' }).locator('tbody tr[data-request]');
    const shown = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-request')));
    await page.getByLabel('Search titles').fill(`Paged ${RUN}`);
    await page.getByRole('button', { name: 'Find' }).click();
    await until(shown, ids.slice(70).reverse());
    const position = () => page.getByTestId('list-count').textContent();
    await until(position, '1–50 of 120 requests, page 1 of 3.');
    await page.getByRole('button', { name: 'Older →' }).click();
    await until(shown, ids.slice(20, 70).reverse());
    await until(position, '51–100 of 120 requests, page 2 of 3.');
    expect(page.url()).toContain(`before=${ids[70]}`);
    // By keyboard: the pager's buttons are buttons.
    await page.getByRole('button', { name: 'Older →' }).focus();
    await page.keyboard.press('Enter');
    await until(shown, ids.slice(0, 20).reverse());
    expect(await page.getByRole('button', { name: 'Older →' }).isDisabled()).toBe(true);
    await shot('10-requests-oldest-page');
    await until(position, '101–120 of 120 requests, page 3 of 3.');
    await page.getByRole('button', { name: '← Newer' }).click();
    await until(shown, ids.slice(20, 70).reverse());
    await until(position, '51–100 of 120 requests, page 2 of 3.');
    // Back returns to the page before; the filter stays in the address.
    await page.goBack();
    await until(shown, ids.slice(0, 20).reverse());
    // A filter on the server: only the FAILED ones of this run, on one page.
    await page.goto(`${base}/console/#/requests?q=${encodeURIComponent(`Paged ${RUN}`)}`);
    await page.getByLabel('Phase').selectOption('FAILED');
    await until(shown, ids.filter((_, i) => i % 3 === 0).reverse());
    expect(await page.getByRole('button', { name: 'Older →' }).isDisabled()).toBe(true);

    // A 500-character title without a space: the table keeps the viewport's width, on the list and on its page.
    const hostile = `wide-${RUN}`;
    await insertRequest({ id: hostile, title: `W${RUN}${'W'.repeat(490)}`.slice(0, 500) });
    await page.goto(`${base}/console/#/requests?q=${hostile}`);
    await rows.first().waitFor();
    expect(await shown()).toEqual([hostile]);
    const widths = () =>
      page.evaluate(`({
        table: document.querySelector('table.requests').getBoundingClientRect().right,
        page: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
      })`) as Promise<{ table: number; page: number; viewport: number }>;
    const w = await widths();
    expect(w.table).toBeLessThanOrEqual(w.viewport);
    expect(w.page).toBeLessThanOrEqual(w.viewport);
    await shot('11-hostile-title');
    await rows.first().getByRole('link').first().click();
    await page.getByRole('heading', { name: `Request ${hostile}` }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  });

  test('links branches, commits, the pull request and the issue to the forge, and never a javascript: URL', async () => {
    const id = randomUUID();
    await insertRequest({ id, title: `Linked ${RUN}`, repoUrl: 'http://forge.invalid/owner/app.git' });
    await store.query(
      `UPDATE change_requests SET integration_branch = $2, base_commit = 'b0a5e0000000000000000000000000000000beef' WHERE id = $1`,
      [id, `farm/${id}`],
    );
    await store.query(
      `INSERT INTO tasks (id, change_request_id, goal, status, task, branch, commit_sha, dispatch)
       VALUES ($1, $2, 'Link it', 'SUCCESS', ''::bytea, $3, 'c0ffee0000000000000000000000000000000001', 1)`,
      [`${id}-a`, id, `agt/${id}-a`],
    );
    // A hostile forge answered a pull request whose URL is a script.
    await store.query(
      `INSERT INTO forge_links (change_request_id, repo, origin, issue_number, pull_number, pull_url)
       VALUES ($1, 'owner/app', 'issue', 7, 9, 'javascript:alert(document.domain)')`,
      [id],
    );
    await store.query(
      `INSERT INTO lessons (task_id, repo_url, goal, fix) VALUES ($1, 'http://forge.invalid/owner/app.git', $2, 'linked')
       ON CONFLICT DO NOTHING`,
      [`${id}-a`, `Lesson of ${RUN}`],
    );
    const scripts = () => page.locator('a[href^="javascript:" i]').count();
    await page.goto(`${base}/console/#/requests?q=${encodeURIComponent(`Linked ${RUN}`)}`);
    const row = page.locator(`tr[data-request="${id}"]`);
    await row.waitFor();
    expect(await row.locator('[data-column=issue] a').getAttribute('href')).toBe(
      'http://forge.invalid/owner/app/issues/7',
    );
    expect(await row.locator('[data-column=pull]').innerText()).toContain('javascript:alert(document.domain)');
    expect(await row.locator('[data-column=pull] a').count()).toBe(0);
    expect(await row.innerText()).toContain('forge');
    expect(await scripts()).toBe(0);

    await row.getByRole('link', { name: `Linked ${RUN}` }).click();
    const facts = page.locator('dl.facts');
    await facts.getByRole('link', { name: 'issue #7' }).waitFor();
    const href = (name: string | RegExp) => facts.getByRole('link', { name }).first().getAttribute('href');
    expect(await href(`farm/${id}`)).toBe(`http://forge.invalid/owner/app/src/branch/farm/${id}`);
    expect(await href('b0a5e0000000')).toBe(
      'http://forge.invalid/owner/app/commit/b0a5e0000000000000000000000000000000beef',
    );
    expect(await page.getByTestId('forge').innerText()).toMatch(/pull request #9 \(not a web link: javascript:alert/);
    expect(await scripts()).toBe(0);
    const tasks = page.getByRole('table', { name: 'Tasks' });
    expect(await tasks.getByRole('link', { name: `agt/${id}-a` }).getAttribute('href')).toBe(
      `http://forge.invalid/owner/app/src/branch/agt/${id}-a`,
    );
    await shot('12-linked-request');
    // The task links its request, its dispatches and its commit.
    await tasks.getByRole('link', { name: 'dispatch 1' }).click();
    await page.getByRole('heading', { name: /^Task / }).waitFor();
    expect(page.url()).toContain(`/tasks/${id}-a/dispatches/1`);
    expect(await page.getByRole('link', { name: 'c0ffee000000' }).getAttribute('href')).toBe(
      'http://forge.invalid/owner/app/commit/c0ffee0000000000000000000000000000000001',
    );
    await page.getByRole('link', { name: `Request ${id}` }).waitFor();
    // A lesson links its task, whose id tells its request.
    await page.goto(`${base}/console/#/lessons`);
    await page.getByRole('link', { name: `${id}-a` }).click();
    await page.getByRole('heading', { name: `Task ${id}-a` }).waitFor();
  });

  test('a trajectory reads like a conversation: reads, edits as diffs, commands with exit and folded output, turns, checks, reviews', async () => {
    const id = `traj-${RUN}`;
    const url = await insertTaskReport({
      id,
      lines: trajectoryLines(`${id}-t`),
      diff: REVIEW_DIFF,
      verification: REVIEW_VERIFICATION,
    });
    await page.goto(`${base}/`);
    await page.evaluate('sessionStorage.clear()');
    await signIn(TOKEN);
    await page.goto(url);
    const steps = page.getByTestId('trajectory').locator(':scope > li');
    await steps.last().waitFor();
    // Compact: far below the 6,011 px a 4-call task's page took with every step a JSON block.
    const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
    console.log(`the task page with a 17-line trajectory and a 3-file diff is ${height} px tall at 1280 px`);
    expect(height).toBeLessThan(3500);
    const step = (tool: string) => page.locator(`[data-testid=trajectory] > li[data-tool="${tool}"]`).first();

    // An edit is a diff of its old and new text: code with its newlines, never an escaped "\n"; the tier that matched.
    const edit = step('edit_file');
    const editDiff = await edit.locator('pre.mini-diff').innerText();
    expect(editDiff).toContain('function multiply(a, b) {\n');
    expect(editDiff).toMatch(/\+\s*return a \* b;/);
    expect(editDiff).not.toContain('\\n');
    expect(await edit.innerText()).toContain('old text matched ignoring indentation');
    // Numbered from where the edit landed (its result says: first at line 2).
    expect(await edit.locator('pre.mini-diff .ln').first().innerText()).toBe('   2');

    // A command: its command line and exit code; its long output folded until opened (by keyboard).
    const command = step('run_command');
    expect(await command.locator('code.cmd').innerText()).toBe(
      '$ npm test -- --grep "javascript:alert(document.domain)"',
    );
    expect(await command.locator('[data-exit]').innerText()).toBe('exit 1');
    const output = command.locator('details.fold');
    expect(await output.locator('summary').innerText()).toBe('Output (42 lines)');
    expect(await output.evaluate((d) => d.hasAttribute('open'))).toBe(false);
    expect(await output.locator('pre').isVisible()).toBe(false);
    await output.locator('summary').focus();
    await page.keyboard.press('Enter');
    await output.locator('pre').waitFor();
    expect(await output.locator('pre').innerText()).toContain('Error: multiply is not defined\n  at frame 0');

    // A read: its path and range; a model turn: what it wrote, its tokens and cost.
    expect(await step('read_file').innerText()).toContain('src/calc.js:1–20');
    const turn = page.locator('[data-testid=trajectory] > li[data-event=step]').first();
    expect(await turn.innerText()).toMatch(/turn 1 coder-1 · 1,280 tokens · \$0\.0031 → read_file/);
    expect(await turn.locator('.said').innerText()).toContain('I read the calculator first.\nIt may hold <script>');
    // A check run: each step's command and outcome, its output folded; a review: its objections at file:line.
    const check = page.locator('[data-testid=trajectory] > li[data-event=check]');
    expect(await check.locator('.check-steps summary').innerText()).toMatch(/^test npm test — ok 5\.2 s$/);
    const review = page.locator('[data-testid=trajectory] > li[data-event=review]');
    expect(await review.locator('code.where').innerText()).toBe('src/calc.js:6');
    expect(await review.innerText()).toContain('objected · confidence 0.80');
    // When each step began after the dispatch's start, and its duration.
    expect(await command.locator('.at').innerText()).toBe('+4.5 s');
    expect(await command.innerText()).toContain('· 3.4 s');
    // The raw line, one click away (built when opened).
    await edit.locator('details.raw summary').click();
    await edit.locator('details.raw pre:not(:empty)').waitFor();
    expect(JSON.parse(await edit.locator('details.raw pre').innerText())).toMatchObject({
      event: 'tool',
      tool: 'edit_file',
      match: 'indentation',
    });

    // Hostile text in a turn, an output, a check and the diff is text: no script or image ran or was made.
    expect(await page.locator('main script, main img, main iframe').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.title()).toBe('agent-farm console');
    expect(await page.locator('main').innerText()).toContain(HOSTILE);
    await shot('15-trajectory');
    expect(await axeViolations()).toEqual([]);
  });

  test("a task's change is reviewed file by file: counts, folding, line numbers, side by side, its verification beside it", async () => {
    const id = `diff-${RUN}`;
    const url = await insertTaskReport({
      id,
      lines: trajectoryLines(`${id}-t`),
      diff: REVIEW_DIFF,
      verification: REVIEW_VERIFICATION,
    });
    await page.goto(url);
    const diff = page.getByTestId('diff');
    const list = page.getByTestId('diff-files');
    await list.waitFor();
    expect(await page.getByTestId('diff-stats').innerText()).toBe('3 files changed, 10 additions, 4 removals');
    const listed = await list
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    expect(listed).toEqual([
      ['src/calc.js', '+6', '−3'],
      ['test/multiply.test.js added', '+4', '−0'],
      ['README.old deleted', '+0', '−1'],
    ]);
    // Old and new line numbers (the second hunk starts at 20 and 23).
    const calc = diff.locator('details.diff-file[data-file="src/calc.js"]');
    const cells = (text: string) =>
      calc
        .locator('tr', { hasText: text })
        .first()
        .locator('td')
        .evaluateAll((tds) => tds.map((td) => td.textContent));
    expect(await cells('const b = 2;')).toEqual(['21', '', '−const b = 2;']);
    expect(await cells('const b = 3;')).toEqual(['', '24', '+const b = 3;']);
    expect(await cells('const c = 4;')).toEqual(['22', '25', ' const c = 4;']);
    // Each file folds on its own; the list leads to a file (opened, its summary focused) and keeps the address.
    const readme = diff.locator('details.diff-file[data-file="README.old"]');
    await readme.locator('summary').click();
    expect(await readme.evaluate((d) => d.hasAttribute('open'))).toBe(false);
    const address = page.url();
    await list.getByRole('link', { name: 'README.old' }).click();
    expect(await readme.evaluate((d) => d.hasAttribute('open'))).toBe(true);
    expect(await page.evaluate('document.activeElement.closest("details")?.dataset.file')).toBe('README.old');
    expect(page.url()).toBe(address);

    // Side by side: the removed line beside the line that replaced it, each with its number; remembered.
    await page.evaluate('localStorage.removeItem("farm.console.diffView")');
    await page.getByRole('button', { name: 'Side by side' }).click();
    expect(await page.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe('true');
    await calc.locator('table.diff-table.split').waitFor();
    expect(await cells('const b = 2;')).toEqual(['21', '−const b = 2;', '24', '+const b = 3;']);
    expect(await cells('// The calculator.')).toEqual(['1', ' // The calculator.', '1', ' // The calculator.']);
    await shot('16-diff-side-by-side');
    expect(await axeViolations()).toEqual([]);
    await page.reload();
    await calc.locator('table.diff-table.split').waitFor();
    // Back to unified, by keyboard.
    await page.getByRole('button', { name: 'Unified' }).focus();
    await page.keyboard.press('Enter');
    await calc.locator('table.diff-table.unified').waitFor();
    expect(await page.getByRole('button', { name: 'Unified' }).getAttribute('aria-pressed')).toBe('true');

    // The verification beside the diff: which tests fail on the base and pass on the branch.
    const verification = page.getByTestId('verification');
    expect(await verification.innerText()).toContain('test/multiply.test.js');
    expect(await page.getByTestId('on-base').innerText()).toBe('failed (as it should)');
    expect(await page.getByTestId('on-branch').innerText()).toBe('passed');
    const [d, v] = await Promise.all([diff.boundingBox(), verification.boundingBox()]);
    expect(v!.x).toBeGreaterThan(d!.x + d!.width - 1);
    expect(v!.y).toBeLessThan(d!.y + 100);
    await shot('17-diff');
  });

  test('a 500-step trajectory renders at once', async () => {
    const id = `long-${RUN}`;
    const url = await insertTaskReport({ id, lines: manyLines(`${id}-t`, 500) });
    const started = Date.now();
    await page.goto(url);
    await page.locator('[data-testid=trajectory] > li').nth(499).waitFor();
    const pageMs = Date.now() - started;
    // The rendering alone, with the layout it forces, on the lines the API answered.
    const renderMs = (await page.evaluate(`(async () => {
      const { trajectoryList } = await import('/console/trajectory-view.js');
      const token = sessionStorage.getItem('farm.console.token');
      const res = await fetch('/v1/change-requests/${id}/tasks/${id}-t/trajectory', { headers: { authorization: 'Bearer ' + token } });
      const { dispatches } = await res.json();
      const box = document.createElement('div');
      document.body.append(box);
      const t = performance.now();
      box.append(trajectoryList(dispatches[0].events));
      box.getBoundingClientRect();
      document.body.offsetHeight;
      const ms = performance.now() - t;
      box.remove();
      return ms;
    })()`)) as number;
    console.log(`500 trajectory steps: the page in ${pageMs} ms, rendering and layout in ${Math.round(renderMs)} ms`);
    expect(await page.locator('[data-testid=trajectory] > li').count()).toBe(500);
    expect(renderMs).toBeLessThan(3000);
    expect(pageMs).toBeLessThan(15_000);
  });

  test('a read-only token sees no submit or cancel; an unknown id has a page that says so', async () => {
    const reader = await access.tokens.create({ name: `console-reader-${RUN}`, scopes: ['read'] }, 'test');
    // Accepted, never consumed: a request that may still be cancelled.
    const open = `open-${RUN}`;
    await store.query(
      `INSERT INTO api_submissions (id, digest, title, repo_url, base_ref) VALUES ($1, 'd', $2, 'http://git.invalid/a.git', 'main')`,
      [open, `Open ${RUN}`],
    );
    // With the cancel scope, the button is there…
    await page.goto(`${base}/console/#/requests/${open}`);
    await page.getByRole('button', { name: 'Cancel request' }).waitFor();
    // …without it, neither cancel nor submit is offered anywhere.
    await page.evaluate('sessionStorage.clear()');
    await signIn(reader.token);
    expect(await page.getByRole('link', { name: 'Submit a request' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).toEqual([
      'Requests',
      'Lessons',
      'Health',
    ]);
    await page.goto(`${base}/console/#/requests/${open}`);
    await page.getByTestId('phase').getByText('SUBMITTED').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel request' }).count()).toBe(0);
    await page.goto(`${base}/console/#/submit`);
    await expect(page.getByTestId('no-scope').innerText()).resolves.toContain('needs the submit scope');
    expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);
    await shot('13-read-only');

    await page.goto(`${base}/console/#/requests/no-such-request-${RUN}`);
    await page.getByRole('heading', { name: 'Request not found' }).waitFor();
    expect(await page.getByTestId('not-found').innerText()).toContain(`no change request no-such-request-${RUN}`);
    expect(await page.getByTestId('stream-state').count()).toBe(0);
    await page.goto(`${base}/console/#/requests/${open}/tasks/nope`);
    await page.getByRole('heading', { name: 'Task not found' }).waitFor();
    await page.goto(`${base}/console/#/nowhere`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });

  test('every page loads without a console error, and axe finds no serious accessibility violation', async () => {
    const admin = await access.tokens.create({ name: `console-a11y-${RUN}`, scopes: ['admin'] }, 'test');
    const errors: string[] = [];
    const onConsole = (m: { type(): string; text(): string }) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    };
    const onError = (e: Error) => errors.push(`${page.url()}: ${e.message}`);
    page.on('console', onConsole);
    page.on('pageerror', onError);
    try {
      // From a page that calls nothing: a list page's call sent after the clear below would be a 401.
      await page.goto(`${base}/console/#/signin`);
      await page.evaluate('sessionStorage.clear()');
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      const violations: string[] = [...(await axeViolations()).map((v) => `sign-in: ${v}`)];
      await signIn(admin.token);
      const { rows } = await store.query<{ id: string; task: string }>(
        `SELECT c.id, t.id AS task FROM change_requests c JOIN tasks t ON t.change_request_id = c.id
         WHERE c.title = 'Add multiply' AND t.status = 'SUCCESS' ORDER BY c.created_at DESC LIMIT 1`,
      );
      const pages: [string, string][] = [
        ['#/requests', 'Change requests'],
        [`#/requests/${rows[0].id}`, `Request ${rows[0].id}`],
        [`#/requests/${rows[0].id}/tasks/${rows[0].task}`, `Task ${rows[0].task}`],
        ['#/submit', 'Submit a change request'],
        ['#/lessons', 'Lessons'],
        ['#/health', 'Health'],
        ['#/tokens', 'Tokens'],
        ['#/audit', 'Audit'],
      ];
      for (const [hash, heading] of pages) {
        // Each page loaded afresh, as a person opening a link would.
        await page.goto(`${base}/console/${hash}`);
        await page.reload();
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.waitForLoadState('networkidle').catch(() => undefined);
        violations.push(...(await axeViolations()).map((v) => `${hash}: ${v}`));
      }
      await page.getByRole('table', { name: 'Audit events' }).locator('tr[data-audit]').first().waitFor();
      expect(await page.getByRole('table', { name: 'Audit events' }).innerText()).toMatch(/token\.create/);
      await shot('14-audit');
      expect(errors).toEqual([]);
      // The not-found page (its 404 is the browser's to log) passes axe too.
      await page.goto(`${base}/console/#/requests/unknown-${RUN}`);
      await page.getByRole('heading', { name: 'Request not found', level: 1 }).waitFor();
      violations.push(...(await axeViolations()).map((v) => `not found: ${v}`));
      expect(violations).toEqual([]);
    } finally {
      page.off('console', onConsole);
      page.off('pageerror', onError);
    }
  });

  test('a token without the scope gets a 403 message; a revoked token the 401 page, and back to sign-in', async () => {
    await page.evaluate('sessionStorage.clear()');
    await signIn(READ_ONLY.token);
    // The tokens page is not offered to it; opened by its address, the farm refuses it and the page says why.
    await page.goto(`${base}/console/#/tokens`);
    await expect(page.getByTestId('forbidden').innerText()).resolves.toMatch(/403[\s\S]*needs the admin scope/);
    await shot('8-forbidden');

    await access.tokens.revoke(READ_ONLY.id, 'test');
    await page.goto(`${base}/console/#/requests`);
    await page.getByTestId('unauthorized').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Your token was refused (401)');
    expect(await page.evaluate("sessionStorage.getItem('farm.console.token')")).toBeNull();
    await shot('9-unauthorized');
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // A refused token is refused on the sign-in page too.
    await page.getByLabel('Token').fill(READ_ONLY.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The farm refused this token: the bearer token is not valid' })
      .waitFor();
    expect(page.url()).toMatch(/#\/signin$/);
  });
});
