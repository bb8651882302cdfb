// Following a running task, as a user would: its steps over the API's event stream (GET .../tasks/{taskId}/events)
// and on the console's task page in a real headless Chromium, both seen while the task still runs. A whole farm:
// agent processes with the scripted model, a check that sleeps (so the task runs long enough to be followed),
// the git smart-HTTP server, PostgreSQL, on the in-process bus and on Kafka.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testBuses } from '@farm/bus/testing';
import type { EventBus } from '@farm/bus';
import { SseDecoder } from '@farm/farm-api';
import { changeRequestApi } from '@farm/orchestrator';
import { ADD_MULTIPLY, MULTI_REPO_FILES, agentStep, planStep } from '@farm/cli/testing';
import { OpenApiConformance, conformingFetch, testApiAccess } from '@farm/orchestrator/testing';
import { serveMetrics } from '@farm/runtime';
import { createPgStore, type SqlStore } from '@farm/store';
import { startFarmHarness, testLog, type FarmHarness } from './farm-harness';

// Beside the console test's screenshots, kept as test artefacts.
const SHOTS = path.resolve(__dirname, '../../../../.cache/console-screenshots');
const TASK_EVENTS = '/v1/change-requests/{id}/tasks/{taskId}/events';
const conformance = new OpenApiConformance();
const checkedFetch = conformingFetch(conformance);
// Long enough to be seen running: each run of the checks says so, then sleeps.
const SLOW_CHECK = 'echo checking the calculator && sleep 3 && node --test';

function chromiumPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new Error('chromium is not installed: scripts/test.sh installs it (apt-get install chromium)');
  }
}

interface StepData {
  dispatch: number;
  runId: string;
  seq: number;
  step: Record<string, unknown> & { event: string };
}

describe.each(testBuses('live-task'))('following a running task on %s and PostgreSQL', (_mode, openBus) => {
  let bus: EventBus;
  let store: SqlStore;
  let h: FarmHarness;
  let server: { port: number; close(): Promise<void> };
  let base: string;
  let token: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    bus = await openBus();
    store = createPgStore(process.env.DATABASE_URL!);
    h = await startFarmHarness(bus, store, {
      chat: [
        planStep([{ id: 'mul', goal: 'Add multiply to the calculator' }]),
        agentStep('Add multiply', ADD_MULTIPLY),
      ],
    });
    const { access, tokenWith } = await testApiAccess(store);
    token = await tokenWith(['read', 'submit']);
    const api = changeRequestApi({ store, orchestrator: h.farm.orchestrator, log: testLog, access });
    server = await serveMetrics(0, testLog, api);
    base = `http://127.0.0.1:${server.port}`;
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await h?.close();
    await bus?.close();
    await store?.close();
  });

  const get = async (path: string) => {
    const res = await checkedFetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as { request: { phase: string }; tasks: { id: string; status: string }[] };
  };
  /** The request's first task once it is dispatched (a request submitted on the bus is unknown until consumed). */
  async function dispatchedTask(id: string): Promise<string> {
    for (let i = 0; i < 600; i++) {
      const res = await fetch(`${base}/v1/change-requests/${id}`, { headers: { authorization: `Bearer ${token}` } });
      const task = res.ok ? ((await res.json()) as { tasks: { id: string; status: string }[] }).tasks[0] : undefined;
      if (task?.status === 'DISPATCHED') return task.id;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`request ${id} has no dispatched task after 30 s`);
  }
  const taskStatus = async (id: string) => (await get(`/v1/change-requests/${id}`)).tasks[0]?.status;

  test("a running task's steps arrive over its event stream and on the console's task page before it ends", async () => {
    const repo = await h.seed(`live-${Date.now()}.git`, MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Add multiply', checkCommand: SLOW_CHECK });
    const taskId = await dispatchedTask(id);

    // The console's task page, opened while the agent works.
    await page.goto(`${base}/`);
    await page.getByLabel('Token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Change requests' }).waitFor();
    await page.goto(`${base}/console/#/requests/${encodeURIComponent(id)}/tasks/${encodeURIComponent(taskId)}`);

    // The API's stream: every event checked against openapi.yaml; the task's state noted as each check starts.
    const res = await checkedFetch(`${base}/v1/change-requests/${id}/tasks/${taskId}/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const decoder = new SseDecoder();
    const text = new TextDecoder();
    const steps: StepData[] = [];
    const statusWhenCheckStarted: string[] = [];
    let end: { status: string } | undefined;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
      for (const e of decoder.push(text.decode(chunk, { stream: true }))) {
        conformance.checkSseEvent(TASK_EVENTS, e);
        if (e.event === 'end') end = JSON.parse(e.data);
        if (e.event !== 'step') continue;
        const step = JSON.parse(e.data) as StepData;
        steps.push(step);
        if (step.step.event === 'check_started') statusWhenCheckStarted.push(await taskStatus(id));
      }

    // Seen while it ran: the checks started while the task was still dispatched.
    expect(statusWhenCheckStarted.length).toBeGreaterThan(0);
    expect(statusWhenCheckStarted[0]).toBe('DISPATCHED');
    expect(end).toEqual({ status: 'SUCCESS' });
    const events = steps.map((s) => s.step.event);
    // A model turn, the check runs step by step with their output, the checks' result, then the task's result.
    expect(events).toEqual(expect.arrayContaining(['step', 'check_started', 'check_step', 'check', 'result']));
    expect(events.indexOf('check_started')).toBeLessThan(events.indexOf('check_step'));
    // The step's output as it came, before the step ended.
    expect(events.indexOf('check_output')).toBeGreaterThan(events.indexOf('check_started'));
    expect(events.indexOf('check_output')).toBeLessThan(events.indexOf('check_step'));
    expect(steps.find((s) => s.step.event === 'check_output')!.step.output).toBe('checking the calculator\n');
    expect(events.at(-1)).toBe('result');
    const checkStep = steps.find((s) => s.step.event === 'check_step')!.step;
    expect(checkStep).toMatchObject({ run: SLOW_CHECK, ok: true, exitCode: 0 });
    // One agent run of dispatch 1, its steps numbered in order; the prompt (large) is never streamed.
    expect(new Set(steps.map((s) => `${s.dispatch} ${s.runId}`)).size).toBe(1);
    expect(steps.map((s) => s.seq)).toEqual(steps.map((_, i) => i + 1));
    expect(events).not.toContain('prompt');
    // Nothing of the model's key reached the stream.
    expect(JSON.stringify(steps)).not.toContain('test-key');

    // The console showed the steps live, then, once the task ended, its report in place of them.
    const trajectory = page.getByTestId('trajectory');
    await trajectory.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('live-trajectory').count()).toBe(0);
    expect(await trajectory.locator('li[data-event="result"]').count()).toBe(0); // the report leaves the result out
    expect(await trajectory.locator('li[data-event="check"]').count()).toBeGreaterThan(0);
  });

  test("an agent stopped while its checks run: the stream goes on with the task's next dispatch, a run of its own, to the end", async () => {
    const repo = await h.seed(`live-again-${Date.now()}.git`, MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Add multiply', checkCommand: SLOW_CHECK });
    const taskId = await dispatchedTask(id);
    const res = await checkedFetch(`${base}/v1/change-requests/${id}/tasks/${taskId}/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const decoder = new SseDecoder();
    const text = new TextDecoder();
    const steps: StepData[] = [];
    let stopped = false;
    let end: { status: string } | undefined;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
      for (const e of decoder.push(text.decode(chunk, { stream: true }))) {
        conformance.checkSseEvent(TASK_EVENTS, e);
        if (e.event === 'end') end = JSON.parse(e.data);
        if (e.event !== 'step') continue;
        const step = JSON.parse(e.data) as StepData;
        steps.push(step);
        // The agent goes away mid-check, as a killed process or an evicted pod would: the task is dispatched again.
        if (step.step.event === 'check_started' && !stopped) {
          stopped = true;
          await h.launcher.stopTask(taskId);
        }
      }
    expect(end).toEqual({ status: 'SUCCESS' });
    const runs = [...new Map(steps.map((s) => [s.runId, s.dispatch])).values()];
    expect(runs).toEqual([1, 2]);
    const second = steps.filter((s) => s.dispatch === 2);
    expect(second.map((s) => s.seq)).toEqual(second.map((_, i) => i + 1));
    expect(second.at(-1)!.step).toMatchObject({ event: 'result', status: 'SUCCESS' });
  });

  test('the console shows the steps of a running task as they come, before it ends', async () => {
    const repo = await h.seed(`live-page-${Date.now()}.git`, MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Add multiply', checkCommand: SLOW_CHECK });
    const taskId = await dispatchedTask(id);
    await page.goto(`${base}/console/#/requests/${encodeURIComponent(id)}/tasks/${encodeURIComponent(taskId)}`);
    const live = page.getByTestId('live-trajectory');
    // A check step that has started (and not yet ended): shown while the task runs.
    await live.locator('li[data-event="check_started"]').first().waitFor({ timeout: 60_000 });
    expect(await taskStatus(id)).toBe('DISPATCHED');
    await expect(live.locator('li[data-event="step"]').count()).resolves.toBeGreaterThan(0);
    // The step's output is one log in its row, growing while it runs: no row per chunk of output.
    const check = live.locator('li[data-event="check_started"]').first();
    const log = check.getByTestId('step-log');
    await log.filter({ hasText: 'checking the calculator' }).waitFor({ timeout: 60_000 });
    expect(await live.locator('li[data-event="check_output"]').count()).toBe(0);
    // The header counts the model turns already taken, before the task reports.
    await expect(page.getByTestId('task-tokens').textContent()).resolves.toMatch(/^[1-9][\d,]* \(/);
    await page.screenshot({ path: path.join(SHOTS, 'live-task.png'), fullPage: true });
    // Searched, it marks the line; downloaded, it is the log as a file.
    await check.getByRole('searchbox').fill('CALCULATOR');
    await expect(check.locator('.log-line.current').textContent()).resolves.toMatch(/checking the calculator/);
    await expect(check.locator('.log-found').textContent()).resolves.toMatch(/^1 of \d+$/);
    const [download] = await Promise.all([page.waitForEvent('download'), check.getByText('Download').click()]);
    expect(download.suggestedFilename()).toMatch(/\.log$/);
    const file = await download.path();
    expect(readFileSync(file, 'utf8')).toContain('checking the calculator');
    // Then the page becomes the ended task's page.
    await page.getByTestId('trajectory').waitFor({ timeout: 60_000 });
    for (let i = 0; i < 600 && (await get(`/v1/change-requests/${id}`)).request.phase !== 'DONE'; i++)
      await new Promise((r) => setTimeout(r, 100));
  });
});
