// The web console in a real headless Chromium (Debian's `chromium`, driven by playwright-core), served by the
// orchestrator's HTTP API in front of a whole farm: agent processes with the scripted model, the git
// smart-HTTP server, PostgreSQL and the in-process bus, behind the API's real access control: no token is a
// 401 (so every call the console makes, the event stream included, must carry its token), a revoked token a
// 401, a read-only token a 403 on what changes something. Screenshots go to .cache/console-screenshots/.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { InProcessBus } from '@farm/bus';
import { changeRequestApi, openApiAccess, type ApiAccess } from '@farm/orchestrator';
import { ADD_MULTIPLY, MULTI_REPO_FILES, agentStep, planStep } from '@farm/cli/testing';
import { serveMetrics, type RouteHandler } from '@farm/runtime';
import { createPgStore, type SqlStore } from '@farm/store';
import { startFarmHarness, testLog, type FarmHarness } from './farm-harness';

const SHOTS = path.resolve(__dirname, '../../../../.cache/console-screenshots');
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
    const apiRoutes = changeRequestApi({ store, orchestrator: h.farm.orchestrator, log: testLog, access });
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
    await shot('2-request-done');

    // The task graph links the task; its page shows the diff and what the agent did.
    await page.locator('.graph [data-task] a').first().click();
    await page.getByRole('heading', { name: /^Task / }).waitFor();
    await expect(page.getByTestId('diff').innerText()).resolves.toContain('+function multiply(a, b) {');
    expect(await page.locator('dl.facts').innerText()).toContain(
      'Verified: test/multiply.test.js fail without the change and pass with it',
    );
    const events = await page
      .locator('[data-testid=trajectory] details')
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

  test('a token without the scope gets a 403 message; a revoked token the 401 page, and back to sign-in', async () => {
    await page.evaluate('sessionStorage.clear()');
    await signIn(READ_ONLY.token);
    await page.goto(`${base}/console/#/submit`);
    await page.getByLabel('Repository').fill('https://git.example.com/app.git');
    await page.getByLabel('Title').fill('Refused');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByTestId('forbidden').innerText()).resolves.toMatch(/403[\s\S]*needs the submit scope/);
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
