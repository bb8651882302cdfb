// The orchestrator's HTTP API on real PostgreSQL (a schema of its own) and on both buses: the in-process bus
// and Kafka (started by the jest global set-up unless DATABASE_URL / KAFKA_BROKERS are given). The test plays
// the planners and a worker-pool agent on the bus; every answer is checked against openapi.yaml.
import { createHmac, randomUUID } from 'node:crypto';
import { GiteaWebhooks } from '@farm/forge';
import { farm } from '@farm/proto';
import { testBuses } from '@farm/bus/testing';
import { Topics, type EventBus, type Subscription } from '@farm/bus';
import { createLogger, serveMetrics, silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { ChangeRequestClient, SseDecoder } from '@farm/farm-api';
import { changeRequestApi } from './http-api';
import { TaskTopicLauncher } from './launcher';
import { OpenApiConformance, conformingFetch, storeInOwnSchema, testApiAccess } from '../testing';
import { Orchestrator } from './orchestrator';
import { orchestratorMigrations } from './schema';
import { readOutbox } from './outbox';

const EVENTS_PATH = '/v1/change-requests/{id}/events';
const TASK_EVENTS_PATH = '/v1/change-requests/{id}/tasks/{taskId}/events';
const conformance = new OpenApiConformance();
const checkedFetch = conformingFetch(conformance);

type Transition = Record<string, unknown> & { sequence: number; toPhase: string; taskId: string; taskState: string };

const modes = testBuses('http-api');

describe.each(modes)('the HTTP API on %s and PostgreSQL', (_mode, openBus) => {
  let bus: EventBus;
  let store: SqlStore;
  let dropSchema: () => Promise<void>;
  let orchestrator: Orchestrator;
  let server: { port: number; close(): Promise<void> };
  let base: string;
  const subs: Subscription[] = [];
  const apiLog: string[] = [];
  let adminToken: string;
  let tokenWith: Awaited<ReturnType<typeof testApiAccess>>['tokenWith'];
  /** What the farm's state watch would say (farm up: a full disk); undefined while it can write. */
  let cannotWrite: string | undefined;

  beforeAll(async () => {
    ({ store, drop: dropSchema } = await storeInOwnSchema('http_api'));
    bus = await openBus();
    // Migrated but not started: what the API accepts stays SUBMITTED until the orchestrator consumes it.
    await migrate(store, orchestratorMigrations);
    orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
    const log = createLogger('http-api-test', { level: 'debug', write: (line) => void apiLog.push(line) });
    const tokens = await testApiAccess(store);
    ({ adminToken, tokenWith } = tokens);
    const api = changeRequestApi({
      store,
      orchestrator,
      log,
      access: tokens.access,
      events: { pollMs: 100, heartbeatMs: 300 },
      refuseNewWork: () => cannotWrite,
    });
    server = await serveMetrics(0, silentLogger, api);
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await Promise.all(subs.map((s) => s.stop()));
    await orchestrator.stop();
    await server.close();
    await bus.close();
    await store.close();
    await dropSchema();
  });

  /** A call with the admin token, another token, or none (`token: null`). */
  async function call(
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
  ) {
    const body = init.body === undefined || typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const token = init.token === undefined ? adminToken : init.token;
    const headers = {
      ...(typeof init.body === 'object' ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...init.headers,
    };
    const res = await checkedFetch(`${base}${path}`, { method, body: body as string | undefined, headers });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  }

  /** Reads a whole event stream (it ends on its own after the final phase), checking every event. */
  async function readStream(
    id: string,
    headers: Record<string, string> = {},
    query = '',
    onEvent?: (t: Transition) => void,
  ) {
    const res = await checkedFetch(`${base}/v1/change-requests/${id}/events${query}`, {
      headers: { authorization: `Bearer ${adminToken}`, ...headers },
    });
    expect(res.status).toBe(200);
    const decoder = new SseDecoder();
    const text = new TextDecoder();
    const events: Transition[] = [];
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      for (const e of decoder.push(text.decode(chunk, { stream: true }))) {
        conformance.checkSseEvent(EVENTS_PATH, e);
        const data = JSON.parse(e.data) as Transition;
        expect([e.event, e.id]).toEqual(['transition', String(data.sequence)]);
        events.push(data);
        onEvent?.(data);
      }
    }
    return events;
  }

  const countRows = async () => {
    const r = await store.query<{ n: string }>(
      'SELECT (SELECT count(*) FROM api_submissions) + (SELECT count(*) FROM outbox) AS n',
    );
    return Number(r.rows[0].n);
  };

  const crId = `cr-${randomUUID().slice(0, 8)}`;
  const request = {
    changeRequestId: crId,
    title: 'Add retry to the HTTP client',
    description: 'three attempts with backoff',
    repo: { url: 'https://git.example.com/app.git', baseRef: 'main' },
  };

  test('while the farm cannot write its state (a full disk) a submission is a 503 with Retry-After and nothing is recorded', async () => {
    const body = { changeRequestId: 'disk-1', title: 'x', repo: { url: 'https://git.example.com/a.git' } };
    cannotWrite = 'the state directory /var/farm cannot be written: ENOSPC: no space left on device';
    try {
      const refused = await call('POST', '/v1/change-requests', { body });
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '30']);
      expect(refused.json.error.message).toMatch(/ENOSPC/);
      expect((await call('GET', '/v1/change-requests/disk-1')).status).toBe(404);
    } finally {
      cannotWrite = undefined;
    }
    // Writable again: the gate is gone (a body it cannot take is judged on its own again).
    expect((await call('POST', '/v1/change-requests', { body: { ...body, title: ' ' } })).status).toBe(400);
  });

  test('bad input is a 4xx whose JSON error names the field, and nothing is written', async () => {
    const before = await countRows();
    const refused = [
      [{ ...request, title: undefined }, 400, 'title'],
      [{ ...request, repo: { url: 'ftp://example.com/app.git' } }, 400, 'repo.url'],
      [{ ...request, repo: { baseRef: 'main' } }, 400, 'repo.url'],
      [{ ...request, priority: 'high' }, 400, 'priority'],
      [{ ...request, repo: { ...request.repo, branch: 'x' } }, 400, 'repo.branch'],
      [{ ...request, changeRequestId: '../etc' }, 400, 'changeRequestId'],
    ] as const;
    for (const [body, status, field] of refused) {
      const res = await call('POST', '/v1/change-requests', { body });
      expect([res.status, res.json.error.field]).toEqual([status, field]);
      expect(res.json.error.message).toContain(field);
    }
    const json = { 'content-type': 'application/json' };
    expect((await call('POST', '/v1/change-requests', { body: '{"title": "x", ', headers: json })).json).toEqual({
      error: { message: expect.stringMatching(/not valid JSON/) },
    });
    expect((await call('POST', '/v1/change-requests', { body: '', headers: json })).status).toBe(400);
    expect((await call('POST', '/v1/change-requests', { body: '[1]', headers: json })).status).toBe(400);
    const asText = await call('POST', '/v1/change-requests', {
      body: JSON.stringify(request),
      headers: { 'content-type': 'text/plain' },
    });
    expect(asText.status).toBe(415);
    const huge = await call('POST', '/v1/change-requests', {
      body: { ...request, description: 'x'.repeat(1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect((await call('GET', '/v1/change-requests?limit=0')).json.error.field).toBe('limit');

    expect(await countRows()).toBe(before);
    expect((await call('GET', `/v1/change-requests/${crId}`)).status).toBe(404);
  });

  test('a submission is accepted, listed as SUBMITTED until consumed, idempotent by id; other content is a 409', async () => {
    const first = await call('POST', '/v1/change-requests', { body: request });
    expect([first.status, first.json]).toEqual([202, { changeRequestId: crId, created: true }]);
    expect(first.headers.get('location')).toBe(`/v1/change-requests/${crId}`);

    const status = await call('GET', `/v1/change-requests/${crId}`);
    expect(status.status).toBe(200);
    expect(status.json.tasks).toEqual([]);
    expect(status.json.request).toMatchObject({ id: crId, phase: 'SUBMITTED', title: request.title, baseRef: 'main' });

    // The same again, with the proto field names and a fresh timestamp: the same request.
    const again = await call('POST', '/v1/change-requests', {
      body: {
        change_request_id: crId,
        title: request.title,
        description: request.description,
        created_at_ms: String(Date.now()),
        repo: { url: request.repo.url },
      },
    });
    expect([again.status, again.json]).toEqual([200, { changeRequestId: crId, created: false }]);
    const conflicting = await call('POST', '/v1/change-requests', { body: { ...request, title: 'Something else' } });
    expect([conflicting.status, conflicting.json.error.field]).toEqual([409, 'changeRequestId']);

    const unnamed = await call('POST', '/v1/change-requests', { body: { ...request, changeRequestId: undefined } });
    expect(unnamed.status).toBe(202);
    expect(unnamed.json.changeRequestId).toMatch(/^[0-9a-f-]{36}$/);

    const listed = await call('GET', '/v1/change-requests?limit=10');
    expect(listed.json.changeRequests.map((r: { id: string }) => r.id)).toEqual([unnamed.json.changeRequestId, crId]);
    expect(listed.json.changeRequests[1].phase).toBe('SUBMITTED');
    // One outbox row per accepted request, none for the repeat and the conflict.
    const outbox = await store.query(`SELECT msg_key FROM outbox WHERE topic = $1 ORDER BY id`, [
      Topics.changeRequests.name,
    ]);
    expect(outbox.rows.map((r) => r.msg_key)).toEqual([crId, unnamed.json.changeRequestId]);
  });

  let all: Transition[] = [];

  test('once consumed, the event stream shows every transition from the first and live ones, until cancel ends it', async () => {
    // The test plays the code-planner (a bundle of two tasks) and a worker-pool agent: task a succeeds,
    // task b fails softly once (re-dispatched), and while b runs again the request is cancelled.
    subs.push(
      await bus.subscribe(Topics.codingTasks, 'test-pool-agent', async (task) => {
        if (task.changeRequestId !== crId) return;
        const report = (status: farm.v1.CommitStatus, attempts: number, tokens: [number, number, number]) =>
          bus.publish(
            Topics.commitResults,
            farm.v1.CommitResult.create({
              taskId: task.id,
              changeRequestId: crId,
              dispatch: task.dispatch,
              status,
              attempts,
              branchName: status === farm.v1.CommitStatus.SUCCESS ? `agt/${task.id}` : '',
              commitSha: status === farm.v1.CommitStatus.SUCCESS ? 'a'.repeat(40) : '',
              notes: status === farm.v1.CommitStatus.SUCCESS ? ['done'] : ['checks failed'],
              tokenUsage: { promptTokens: tokens[0], completionTokens: tokens[1], totalTokens: tokens[2] },
            }),
          );
        if (task.id.endsWith('-a')) await report(farm.v1.CommitStatus.SUCCESS, 1, [100, 20, 120]);
        else if (task.dispatch === 1) await report(farm.v1.CommitStatus.SOFT_FAIL, 3, [50, 10, 60]);
        else {
          // b's agent runs, a is done: the gauge behind the console's "running agents" counts one.
          const metrics = await (await fetch(`${base}/metrics`)).text();
          expect(metrics).toContain('farm_orchestrator_open_tasks{state="DISPATCHED"} 1');
          const cancel = await call('POST', `/v1/change-requests/${crId}/cancel`, { body: { reason: 'enough' } });
          expect([cancel.status, cancel.json]).toEqual([202, { changeRequestId: crId, cancelRequested: true }]);
        }
      }),
    );
    let planned = false;
    const streamed = readStream(crId, {}, '', (t) => {
      if (t.toPhase !== 'PLANNING' || t.taskId || planned) return;
      planned = true;
      void bus.publish(
        Topics.taskBundles,
        farm.v1.TaskBundle.create({
          changeRequestId: crId,
          repo: { url: request.repo.url, baseRef: 'main', baseCommit: 'b'.repeat(40) },
          tasks: ['a', 'b'].map((s) => ({ id: `${crId}-${s}`, goal: `part ${s}`, changeRequestId: crId })),
        }),
      );
    });
    await orchestrator.start(); // consumes what was accepted while it was not running
    all = await streamed;

    expect(all.map((t) => t.sequence)).toEqual(all.map((_, i) => i + 1));
    expect(all.filter((t) => !t.taskId).map((t) => t.toPhase)).toEqual(['RECEIVED', 'PLANNING', 'CODING', 'CANCELLED']);
    const taskEvents = all.filter((t) => t.taskId).map((t) => `${String(t.taskId).at(-1)}:${t.taskState}`);
    expect([...taskEvents].sort()).toEqual(
      ['a:DISPATCHED', 'a:SUCCESS', 'b:DISPATCHED', 'b:PENDING', 'b:DISPATCHED', 'b:CANCELLED'].sort(),
    );
    // The final transaction also cancelled b: the stream carries that before it ends.
    expect(all.at(-1)).toMatchObject({ taskId: `${crId}-b`, taskState: 'CANCELLED' });
    expect(all.find((t) => t.toPhase === 'CANCELLED' && !t.taskId)?.reason).toContain('enough');

    const detail = (await call('GET', `/v1/change-requests/${crId}`)).json;
    expect(detail.request).toMatchObject({
      phase: 'CANCELLED',
      tasksDone: 1,
      tasksTotal: 2,
      attempts: 4,
      tokens: { prompt: 150, completion: 30, total: 180 },
      baseCommit: 'b'.repeat(40),
    });
    expect(detail.tasks).toEqual([
      expect.objectContaining({
        id: `${crId}-a`,
        status: 'SUCCESS',
        branch: `agt/${crId}-a`,
        attempts: 1,
        dispatch: 1,
      }),
      expect.objectContaining({
        id: `${crId}-b`,
        status: 'CANCELLED',
        attempts: 3,
        dispatch: 2,
        notes: 'checks failed',
      }),
    ]);
    expect(detail.tasks.map((t: { tokens: unknown }) => t.tokens)).toEqual([
      { prompt: 100, completion: 20, total: 120 },
      { prompt: 50, completion: 10, total: 60 },
    ]);
  });

  test('resuming with Last-Event-ID (or ?after=) yields exactly the rest; after the last one, nothing', async () => {
    const rest = all.slice(3);
    expect(await readStream(crId, { 'last-event-id': '3' })).toEqual(rest);
    expect(await readStream(crId, {}, '?after=3')).toEqual(rest);
    expect(await readStream(crId, { 'last-event-id': String(all.length) })).toEqual([]);
    const bad = await call('GET', `/v1/change-requests/${crId}/events`, { headers: { 'last-event-id': 'seven' } });
    expect([bad.status, bad.json.error.field]).toEqual([400, 'Last-Event-ID']);
  });

  test('the typed client follows the stream through a dropped connection without missing or repeating an event', async () => {
    const resumedFrom: (string | null)[] = [];
    const client = new ChangeRequestClient({
      baseUrl: base,
      token: adminToken,
      reconnectDelayMs: 10,
      fetch: droppingAfterEvents(2, resumedFrom),
    });
    const seen: number[] = [];
    for await (const t of client.events(crId)) seen.push(Number(t.sequence));
    expect(seen).toEqual(all.map((t) => t.sequence));
    expect(resumedFrom).toEqual([null, '2']);

    const summary = await client.get(crId);
    expect(summary.request.phase).toBe('CANCELLED');
    await expect(client.cancel(crId)).rejects.toMatchObject({ name: 'ApiError', status: 409, retryable: false });
  });

  test('cancelling a request in a final phase is a 409 naming the phase; unknown ids and paths are 404s', async () => {
    const again = await call('POST', `/v1/change-requests/${crId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.json.error.message).toContain('CANCELLED');
    const bad = await call('POST', `/v1/change-requests/${crId}/cancel`, { body: { reason: 'x', force: true } });
    expect([bad.status, bad.json.error.field]).toEqual([400, 'force']);
    const typed = await call('POST', `/v1/change-requests/${crId}/cancel`, {
      body: 'reason=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(typed.status).toBe(415);
    const huge = await call('POST', `/v1/change-requests/${crId}/cancel`, { body: { reason: 'x'.repeat(1 << 20) } });
    expect(huge.status).toBe(413);

    for (const [method, path] of [
      ['GET', '/v1/change-requests/no-such-request'],
      ['GET', '/v1/change-requests/no-such-request/events'],
      ['POST', '/v1/change-requests/no-such-request/cancel'],
      ['GET', '/v1/no-such-thing'],
      ['GET', '/v1/change-requests/x/y/z'],
    ]) {
      const res = await call(method, path);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    const wrongMethod = await call('DELETE', `/v1/change-requests/${crId}`);
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET']);
    expect((await call('PUT', '/v1/change-requests')).headers.get('allow')).toBe('GET, POST');
    // /metrics and /healthz are still served beside the API.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('farm_orchestrator_phase_transitions_total');
  });

  test('the lessons the agents left are listed, of one repository or of all; a bad limit names the field', async () => {
    const lessons = await call('GET', `/v1/lessons?repo=${encodeURIComponent('http://git.example.com/none.git')}`);
    expect([lessons.status, lessons.json]).toEqual([200, { lessons: [] }]);
    const bad = await call('GET', '/v1/lessons?limit=0');
    expect([bad.status, bad.json.error.field]).toEqual([400, 'limit']);
  });

  test("a task's trajectory, checks and diff are read back; a failed task is resubmitted once as a new request", async () => {
    const id = `reports-${randomUUID().slice(0, 8)}`;
    const line = (event: string, data: Record<string, unknown>) => JSON.stringify({ event, ts: 'now', ...data });
    const checkStep = (ok: boolean) => ({
      name: 'test',
      run: 'npm test',
      ok,
      exitCode: ok ? 0 : 1,
      timedOut: false,
      durationMs: 120,
      output: ok ? 'all passed' : 'FAIL add.test.js',
    });
    subs.push(
      await bus.subscribe(Topics.codingTasks, 'test-reporting-agent', async (task) => {
        if (task.changeRequestId !== id) return;
        const ok = task.id.endsWith('-a');
        // Its steps as it takes them, before its result (a restarted agent's run has another id).
        for (const [seq, step] of [
          line('tool', { tool: 'read_file', arguments: { path: 'add.js' }, ok: true, result: '1| x' }),
          line('check', { attempt: 1, ok, steps: [checkStep(ok)] }),
        ].entries())
          await bus.publish(
            Topics.taskSteps,
            farm.v1.TaskStep.create({
              changeRequestId: id,
              taskId: task.id,
              dispatch: task.dispatch,
              runId: 'run-1',
              seq: seq + 1,
              line: step,
            }),
          );
        await bus.publish(
          Topics.commitResults,
          farm.v1.CommitResult.create({
            taskId: task.id,
            changeRequestId: id,
            dispatch: task.dispatch,
            status: ok ? farm.v1.CommitStatus.SUCCESS : farm.v1.CommitStatus.HARD_FAIL,
            failedStep: ok ? 0 : farm.v1.FailedStep.STEP_CHECK,
            attempts: 1,
            steps: 2,
            model: 'coder',
            costUsd: 0.25,
            branchName: ok ? `agt/${task.id}` : '',
            commitSha: ok ? 'c'.repeat(40) : '',
            notes: ok ? ['done'] : ['sandbox refused a check'],
            tokenUsage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
            reviews: ok ? [{ round: 1, approved: true, objections: [] }] : [],
            report: {
              trajectory: [
                line('tool', { tool: 'read_file', arguments: { path: 'add.js' }, ok: true, result: '1| x' }),
                line('check', { attempt: 1, ok, steps: [checkStep(ok)] }),
                ...(ok ? [line('review', { round: 1, approved: true, objections: [] })] : []),
              ],
              trajectoryOmitted: ok ? 0 : 3,
              diff: ok ? '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-x\n+y\n' : '',
            },
          }),
        );
      }),
    );
    const body = {
      ...request,
      changeRequestId: id,
      checkCommand: 'npm test',
      repo: { url: request.repo.url, baseRef: 'develop' },
    };
    expect((await call('POST', '/v1/change-requests', { body })).status).toBe(202);
    let planned = false;
    const streamed = readStream(id, {}, '', (t) => {
      if (t.toPhase !== 'PLANNING' || t.taskId || planned) return;
      planned = true;
      void bus.publish(
        Topics.taskBundles,
        farm.v1.TaskBundle.create({
          changeRequestId: id,
          repo: { url: request.repo.url, baseRef: 'develop', baseCommit: 'b'.repeat(40) },
          tasks: ['a', 'b'].map((s) => ({
            id: `${id}-${s}`,
            goal: `Make part ${s} work\nwith details`,
            changeRequestId: id,
            // b after a: the request fails on b once a's result is in.
            ...(s === 'b' ? { dependsOn: [`${id}-a`] } : {}),
          })),
        }),
      );
    });
    expect((await streamed).filter((t) => !t.taskId).map((t) => t.toPhase)).toEqual([
      'RECEIVED',
      'PLANNING',
      'CODING',
      'FAILED',
    ]);
    const tasks = `/v1/change-requests/${id}/tasks`;
    // Both results are in (the request FAILED on b); a's report shows what its agent did.
    const trajectory = await call('GET', `${tasks}/${id}-a/trajectory`);
    expect(trajectory.status).toBe(200);
    expect(trajectory.json.dispatches).toEqual([
      expect.objectContaining({
        dispatch: 1,
        status: 'SUCCESS',
        attempts: 1,
        steps: 2,
        model: 'coder',
        costUsd: 0.25,
        tokens: { prompt: 10, completion: 5, total: 15 },
        reviews: [{ round: 1, approved: true, objections: [] }],
        eventsOmitted: 0,
      }),
    ]);
    expect(trajectory.json.dispatches[0].events.map((e: { event: string }) => e.event)).toEqual([
      'tool',
      'check',
      'review',
    ]);
    expect(trajectory.json.dispatches[0].events[0]).toMatchObject({ tool: 'read_file', arguments: { path: 'add.js' } });
    const failedRun = (await call('GET', `${tasks}/${id}-b/trajectory`)).json.dispatches[0];
    expect(failedRun).toMatchObject({ status: 'HARD_FAIL', failedStep: 'check', eventsOmitted: 3 });

    const checks = await call('GET', `${tasks}/${id}-b/checks`);
    expect(checks.json.checks).toEqual([{ dispatch: 1, attempt: 1, ok: false, steps: [checkStep(false)] }]);
    const diff = await call('GET', `${tasks}/${id}-a/diff`);
    expect(diff.json).toEqual({
      changeRequestId: id,
      taskId: `${id}-a`,
      branch: `agt/${id}-a`,
      commitSha: 'c'.repeat(40),
      dispatch: 1,
      diff: expect.stringContaining('+y'),
      truncated: false,
    });
    expect((await call('GET', `${tasks}/${id}-b/diff`)).json).toMatchObject({ diff: '', dispatch: 0 });

    // A task that succeeded is not resubmitted; the failed one becomes a new request on the same repo and base.
    const refused = await call('POST', `${tasks}/${id}-a/resubmit`);
    expect([refused.status, refused.json.error.message]).toEqual([409, expect.stringContaining('SUCCESS')]);
    const resubmitted = await call('POST', `${tasks}/${id}-b/resubmit`);
    expect(resubmitted.status).toBe(202);
    const newId = resubmitted.json.changeRequestId as string;
    expect(resubmitted.json).toEqual({
      changeRequestId: newId,
      created: true,
      resubmittedFrom: { changeRequestId: id, taskId: `${id}-b` },
    });
    expect(resubmitted.headers.get('location')).toBe(`/v1/change-requests/${newId}`);
    const again = await call('POST', `${tasks}/${id}-b/resubmit`);
    expect([again.status, again.json.changeRequestId, again.json.created]).toEqual([200, newId, false]);
    const submitted = await store.query<{ payload: Uint8Array }>(
      'SELECT payload FROM outbox WHERE topic = $1 AND msg_key = $2',
      [Topics.changeRequests.name, newId],
    );
    const cr = farm.v1.ChangeRequest.decode(submitted.rows[0].payload);
    expect(cr).toMatchObject({
      title: 'Make part b work',
      checkCommand: 'npm test',
      repo: { url: request.repo.url, baseRef: 'develop' },
    });
    expect(cr.description).toContain(`Resubmitted from task ${id}-b of change request ${id}`);
    expect(cr.description).toContain('HARD_FAIL: sandbox refused a check');

    // The steps its agent published as it went, on the task's own stream, which ends as the task has.
    const stepStream = await checkedFetch(`${base}${tasks}/${id}-a/events`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(stepStream.status).toBe(200);
    const decoder = new SseDecoder();
    const text = new TextDecoder();
    const stepEvents: { event: string; id?: string; data: string }[] = [];
    for await (const chunk of stepStream.body as unknown as AsyncIterable<Uint8Array>)
      for (const e of decoder.push(text.decode(chunk, { stream: true }))) {
        conformance.checkSseEvent(TASK_EVENTS_PATH, e);
        stepEvents.push(e);
      }
    expect(stepEvents.map((e) => e.event)).toEqual(['step', 'step', 'end']);
    const [read] = stepEvents.map((e) => JSON.parse(e.data));
    expect(read).toMatchObject({ dispatch: 1, runId: 'run-1', seq: 1, step: { event: 'tool', tool: 'read_file' } });
    expect(JSON.parse(stepEvents[2].data)).toEqual({ status: 'SUCCESS' });
    // No build ran (the request failed in CODING): the request's diff is empty, and says so.
    expect((await call('GET', `/v1/change-requests/${id}/diff`)).json).toEqual({
      changeRequestId: id,
      branch: '',
      baseCommit: 'b'.repeat(40),
      commitSha: '',
      buildStatus: '',
      diff: '',
      truncated: false,
    });
    expect((await call('GET', '/v1/change-requests/nope/diff')).status).toBe(404);
    const badResume = await call('GET', `${tasks}/${id}-a/events`, { headers: { 'last-event-id': 'x' } });
    expect([badResume.status, badResume.json.error.field]).toEqual([400, 'Last-Event-ID']);

    for (const path of [
      `${tasks}/nope/trajectory`,
      `${tasks}/nope/checks`,
      `${tasks}/nope/diff`,
      `${tasks}/nope/events`,
    ]) {
      expect([path, (await call('GET', path)).status]).toEqual([path, 404]);
    }
    expect((await call('POST', `/v1/change-requests/nope/tasks/${id}-b/resubmit`)).status).toBe(404);
  });

  test('a quiet stream gets keep-alive comments; a client that goes away stops its stream', async () => {
    const quiet = (await call('GET', '/v1/change-requests?limit=10')).json.changeRequests.find(
      (r: { phase: string }) => r.phase === 'PLANNING', // the second request: no planner answers it
    );
    const gone = new AbortController();
    const res = await checkedFetch(`${base}/v1/change-requests/${quiet.id}/events`, {
      signal: gone.signal,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    let text = '';
    const reader = res.body!.getReader();
    while (!text.includes(': keep-alive')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: transition');
    gone.abort();
    await waitUntil(() => apiLog.some((l) => l.includes('event stream closed') && l.includes('"clientGone":true')));
  });

  test('a cancel for a request still SUBMITTED is accepted and ends it CANCELLED once consumed', async () => {
    const id = `late-${randomUUID().slice(0, 8)}`;
    await orchestrator.stop(); // as if the orchestrator were busy elsewhere or restarting
    expect((await call('POST', '/v1/change-requests', { body: { ...request, changeRequestId: id } })).status).toBe(202);
    expect((await call('POST', `/v1/change-requests/${id}/cancel`)).status).toBe(202);
    const streamed = readStream(id);
    orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
    await orchestrator.start();
    const events = await streamed;
    expect(events.map((t) => t.toPhase)).toEqual(['RECEIVED', 'PLANNING', 'CANCELLED']);
  });

  test('what the document allows is accepted: null and empty defaults, long texts counted in characters', async () => {
    const id = `allowed-${randomUUID().slice(0, 8)}`;
    const body = {
      ...request,
      changeRequestId: id,
      requestedBy: '😀'.repeat(200),
      checkCommand: null,
      repo: { url: 'http://127.0.0.1:8080/app.git', baseRef: '', baseCommit: '' },
    };
    expect((await call('POST', '/v1/change-requests', { body })).status).toBe(202);
    expect((await call('GET', `/v1/change-requests/${id}`)).json.request).toMatchObject({ baseRef: 'main' });
    const unnamed = await call('POST', '/v1/change-requests', { body: { ...body, changeRequestId: '' } });
    expect(unnamed.json.changeRequestId).toMatch(/^[0-9a-f-]{36}$/);
    const cancel = await call('POST', `/v1/change-requests/${id}/cancel`, {
      body: { reason: null, requested_by: 'me' },
    });
    expect(cancel.status).toBe(202);
  });

  test('credentials in repo.url are refused with the reason, and nothing is recorded or published', async () => {
    const id = `creds-${randomUUID().slice(0, 8)}`;
    const body = { ...request, changeRequestId: id, repo: { url: 'https://u:s3cr3t@git.example.com/app.git' } };
    const answer = await call('POST', '/v1/change-requests', { body });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({
      field: 'repo.url',
      message: expect.stringMatching(/carries credentials/),
    });
    expect(JSON.stringify(answer.json)).not.toContain('s3cr3t');
    expect((await call('GET', `/v1/change-requests/${id}`)).status).toBe(404);
  });

  test('a plan waiting for approval: approved (edited) or rejected with the approve scope, once; 409 unless waiting, 400 for an edit that does not fit', async () => {
    const phaseOf = async (id: string) => (await call('GET', `/v1/change-requests/${id}`)).json.request.phase as string;
    const until = async (id: string, phase: string) => {
      for (let i = 0; i < 200 && (await phaseOf(id)) !== phase; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await phaseOf(id)).toBe(phase);
    };
    /** A request asking for approval, planned (the test plays the code-planner) into two tasks, waiting. */
    const waiting = async () => {
      const submitted = await call('POST', '/v1/change-requests', {
        body: { ...request, changeRequestId: undefined, requireApproval: true },
      });
      const id = submitted.json.changeRequestId as string;
      await until(id, 'PLANNING');
      await bus.publish(
        Topics.taskBundles,
        farm.v1.TaskBundle.create({
          changeRequestId: id,
          repo: { url: request.repo.url, baseRef: 'main', baseCommit: 'c'.repeat(40) },
          tasks: ['a', 'b'].map((s) => ({ id: `${id}-${s}`, goal: `part ${s}`, changeRequestId: id })),
        }),
      );
      await until(id, 'AWAITING_APPROVAL');
      return id;
    };
    const approver = await tokenWith(['read', 'approve']);
    const submitter = await tokenWith(['submit', 'cancel']);

    const id = await waiting();
    // Its two tasks wait for a person, not for capacity: the Health page and /metrics say so apart.
    const awaiting = (await (await fetch(`${base}/metrics`)).text()).match(
      /^farm_orchestrator_open_tasks\{state="AWAITING_APPROVAL"\} (\d+)$/m,
    );
    expect(Number(awaiting?.[1])).toBeGreaterThanOrEqual(2);
    const path = `/v1/change-requests/${id}/approve`;
    expect((await call('POST', path, { token: submitter })).status).toBe(403);
    const misfit = await call('POST', path, { token: approver, body: { removeTasks: [`${id}-a`, `${id}-b`] } });
    expect([misfit.status, misfit.json.error.message]).toEqual([400, expect.stringMatching(/at least one task/)]);
    const unknownField = await call('POST', path, { token: approver, body: { force: true } });
    expect([unknownField.status, unknownField.json.error.field]).toEqual([400, 'force']);
    const form = await call('POST', path, {
      token: approver,
      body: 'reason=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect((await call('POST', path, { token: approver, body: { reason: 'x'.repeat(1 << 20) } })).status).toBe(413);
    expect((await call('POST', '/v1/change-requests/no-such-request/approve', { token: approver })).status).toBe(404);
    const approved = await call('POST', path, {
      token: approver,
      body: { removeTasks: [`${id}-b`], goals: { [`${id}-a`]: 'part a, reworded' }, parallelism: 1, reason: 'smaller' },
    });
    expect([approved.status, approved.json]).toEqual([202, { changeRequestId: id, decision: 'approve' }]);
    await until(id, 'CODING');
    const detail = (await call('GET', `/v1/change-requests/${id}`)).json;
    expect(detail.tasks.map((t: { id: string; goal: string }) => [t.id, t.goal])).toEqual([
      [`${id}-a`, 'part a, reworded'],
    ]);
    const again = await call('POST', path, { token: approver });
    expect([again.status, again.json.error.message]).toEqual([409, expect.stringMatching(/is CODING, not waiting/)]);
    expect((await call('POST', `/v1/change-requests/${id}/cancel`)).status).toBe(202);

    const other = await waiting();
    const reject = `/v1/change-requests/${other}/reject`;
    expect((await call('POST', reject, { token: approver, body: {} })).status).toBe(400); // a reason is required
    const rejected = await call('POST', reject, { token: approver, body: { reason: 'too broad' } });
    expect([rejected.status, rejected.json]).toEqual([202, { changeRequestId: other, decision: 'reject' }]);
    await until(other, 'CANCELLED');
    const late = await call('POST', reject, { token: approver, body: { reason: 'again' } });
    expect([late.status, late.json.error.message]).toEqual([409, expect.stringMatching(/is CANCELLED, not waiting/)]);
    const rejectForm = await call('POST', reject, {
      token: approver,
      body: 'reason=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(rejectForm.status).toBe(415);
    expect((await call('POST', reject, { token: approver, body: { reason: 'x'.repeat(1 << 20) } })).status).toBe(413);
    const nobody = await call('POST', '/v1/change-requests/no-such-request/reject', {
      token: approver,
      body: { reason: 'x' },
    });
    expect(nobody.status).toBe(404);
    expect((await call('GET', `/v1/change-requests/${other}`)).json.request.reason).toMatch(
      /^plan rejected by token:.*: too broad$/,
    );
    const audit = (await call('GET', `/v1/audit?changeRequestId=${id}`)).json.events as {
      action: string;
      detail: unknown;
    }[];
    expect(audit.find((e) => e.action === 'approve')?.detail).toEqual({
      reason: 'smaller',
      removeTasks: [`${id}-b`],
      goals: { [`${id}-a`]: 'part a, reworded' },
      parallelism: 1,
    });
  });

  test('every operation asks for a token: none or a bad one is a 401, one without the scope a 403', async () => {
    const reader = await tokenWith(['read']);
    const canceller = await tokenWith(['cancel']);
    const operations: [string, string, string, unknown?][] = [
      ['GET', '/v1/change-requests', canceller],
      ['POST', '/v1/change-requests', reader, request],
      ['GET', `/v1/change-requests/${crId}`, canceller],
      ['GET', `/v1/change-requests/${crId}/events`, canceller],
      ['GET', `/v1/change-requests/${crId}/diff`, canceller],
      ['POST', `/v1/change-requests/${crId}/cancel`, reader],
      ['POST', `/v1/change-requests/${crId}/approve`, canceller],
      ['POST', `/v1/change-requests/${crId}/reject`, canceller, { reason: 'no' }],
      ['GET', '/v1/lessons', canceller],
      ['GET', `/v1/change-requests/${crId}/tasks/t1/trajectory`, canceller],
      ['GET', `/v1/change-requests/${crId}/tasks/t1/checks`, canceller],
      ['GET', `/v1/change-requests/${crId}/tasks/t1/diff`, canceller],
      ['GET', `/v1/change-requests/${crId}/tasks/t1/events`, canceller],
      ['POST', `/v1/change-requests/${crId}/tasks/t1/resubmit`, reader],
      ['POST', '/v1/tokens', reader, { name: 'x', scopes: ['admin'] }],
      ['GET', '/v1/tokens', reader],
      ['POST', '/v1/tokens/x/revoke', reader],
      ['GET', '/v1/audit', reader],
      ['GET', '/v1/forge', canceller],
    ];
    for (const [method, path, withoutScope, body] of operations) {
      const anonymous = await call(method, path, { body, token: null });
      expect([method, path, anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([
        method,
        path,
        401,
        'Bearer realm="agent-farm"',
      ]);
      const forged = await call(method, path, { body, token: 'farm_forged' });
      expect([forged.status, forged.headers.get('www-authenticate')]).toEqual([
        401,
        'Bearer realm="agent-farm", error="invalid_token"',
      ]);
      const unscoped = await call(method, path, { body, token: withoutScope });
      expect([method, path, unscoped.status, unscoped.json.error.message]).toEqual([
        method,
        path,
        403,
        expect.stringMatching(/needs the (read|submit|cancel|approve|admin) scope/),
      ]);
      expect(JSON.stringify(unscoped.json) + JSON.stringify(forged.json)).not.toMatch(/farm_/);
    }
    expect(apiLog.join('\n')).not.toContain(reader);
    // Any valid token may ask who it is and what it may do; none is a 401.
    expect((await call('GET', '/v1/whoami', { token: null })).status).toBe(401);
    expect((await call('GET', '/v1/whoami', { token: canceller })).json.scopes).toEqual(['cancel']);
    // Without a forge configured, nothing to link to.
    expect((await call('GET', '/v1/forge', { token: reader })).json).toEqual({});
    // Probes and scrapers need no token (FARM_METRICS_ACCESS=open, the default).
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
  });

  test('an admin creates, lists and revokes tokens; a revoked token is refused from the next request on', async () => {
    const name = `bot-${randomUUID().slice(0, 8)}`;
    const created = await call('POST', '/v1/tokens', { body: { name, scopes: ['read', 'submit'] } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name,
      scopes: ['read', 'submit'],
      createdBy: expect.stringMatching(/^token:/),
    });
    const bot = created.json.token as string;
    expect((await call('GET', '/v1/change-requests', { token: bot })).status).toBe(200);
    expect((await call('POST', '/v1/tokens', { body: { name, scopes: ['read'] } })).status).toBe(409);
    const badScope = await call('POST', '/v1/tokens', { body: { name: 'y', scopes: ['root'] } });
    expect([badScope.status, badScope.json.error.field]).toEqual([400, 'scopes']);
    expect(
      (await call('POST', '/v1/tokens', { body: 'name=y', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
    expect((await call('POST', '/v1/tokens', { body: { name: 'y'.repeat(5000), scopes: ['read'] } })).status).toBe(413);

    const listed = await call('GET', '/v1/tokens');
    const mine = listed.json.tokens.find((t: { name: string }) => t.name === name);
    expect(mine).toMatchObject({ id: created.json.id, lastUsedAt: expect.any(String) });
    expect(JSON.stringify(listed.json)).not.toContain(bot);
    expect((await call('GET', '/v1/tokens?includeRevoked=perhaps')).status).toBe(400);

    // An event stream the token opened ends once it is revoked (a request that is not going anywhere).
    const quiet = (await call('GET', '/v1/change-requests?limit=10')).json.changeRequests.find(
      (r: { phase: string }) => r.phase === 'PLANNING',
    );
    const stream = await fetch(`${base}/v1/change-requests/${quiet.id}/events`, {
      headers: { authorization: `Bearer ${bot}` },
    });
    const revoked = await call('POST', `/v1/tokens/${name}/revoke`);
    expect([revoked.status, revoked.json.revokedAt]).toEqual([200, expect.any(String)]);
    const refused = await call('GET', '/v1/change-requests', { token: bot });
    expect([refused.status, refused.json.error.message]).toEqual([401, expect.stringMatching(/not valid/)]);
    expect(await stream.text()).toContain('event: transition'); // ended rather than kept open
    expect((await call('POST', `/v1/tokens/${name}/revoke`)).status).toBe(404);
  });

  test('the list pages through the whole history on PostgreSQL: older, then newer, back to the same page', async () => {
    const first = (await call('GET', '/v1/change-requests?limit=1')).json;
    expect(first.older).toBe(first.changeRequests[0].id);
    const next = (await call('GET', `/v1/change-requests?limit=1&before=${encodeURIComponent(first.older)}`)).json;
    expect(next.changeRequests[0].id).not.toBe(first.changeRequests[0].id);
    expect(next.newer).toBe(next.changeRequests[0].id);
    const back = (await call('GET', `/v1/change-requests?limit=1&after=${encodeURIComponent(next.newer)}`)).json;
    expect(back.changeRequests.map((c: { id: string }) => c.id)).toEqual([first.changeRequests[0].id]);
    expect(back.sources[first.changeRequests[0].id].origin).toBe('api');
  });

  test('a request records the token that submitted it, whatever the body says; the audit has who did what', async () => {
    const submitter = `ci-${randomUUID().slice(0, 8)}`;
    const token = await tokenWith(['submit', 'cancel'], submitter);
    const id = `audited-${randomUUID().slice(0, 8)}`;
    const body = { ...request, changeRequestId: id, requestedBy: 'someone-else' };
    expect((await call('POST', '/v1/change-requests', { body, token })).status).toBe(202);
    expect((await call('POST', `/v1/change-requests/${id}/cancel`, { body: { reason: 'oops' }, token })).status).toBe(
      202,
    );
    const [published] = await readOutbox(store, id, Topics.changeRequests.name, 0);
    expect(farm.v1.ChangeRequest.decode(published.payload).requestedBy).toBe(`token:${submitter}`);

    const audit = await call('GET', `/v1/audit?changeRequestId=${id}`);
    expect(audit.json.events.map((e: { action: string; subject: string }) => [e.action, e.subject])).toEqual([
      ['cancel', `token:${submitter}`],
      ['submit', `token:${submitter}`],
    ]);
    expect(audit.json.events[0].detail).toEqual({ reason: 'oops' });
    const tokenEvents = await call('GET', '/v1/audit?action=token.create&limit=500');
    expect(tokenEvents.json.events.some((e: { detail: { name: string } }) => e.detail.name === submitter)).toBe(true);
    expect((await call('GET', '/v1/audit?before=0')).json.error.field).toBe('before');
    expect((await call('GET', '/v1/audit?subject=%00')).json).toEqual({ events: [] });
  });

  test('odd input is a 4xx naming what to fix, never a 500: NUL, bad encodings, huge numbers, repeats', async () => {
    for (const [method, path] of [
      ['GET', '/v1/change-requests/%00'],
      ['GET', '/v1/change-requests/%ff/events'],
      ['POST', '/v1/change-requests/a%00b/cancel'],
    ]) {
      expect([path, (await call(method, path)).status]).toEqual([path, 404]);
    }
    expect((await call('GET', '/v1/lessons?repo=%00')).json).toEqual({ lessons: [] });
    const events = `/v1/change-requests/${crId}/events`;
    for (const [path, headers, field] of [
      ['/v1/change-requests?limit=1&limit=2', {}, 'limit'],
      ['/v1/change-requests?limit=99999999999999999999999', {}, 'limit'],
      ['/v1/change-requests?limit=', {}, 'limit'],
      [`${events}?after=1&after=2`, {}, 'after'],
      [`${events}?after=-1`, { 'last-event-id': '0' }, 'after'],
    ] as const) {
      const res = await call('GET', path, { headers });
      expect([path, res.status, res.json.error.field]).toEqual([path, 400, field]);
    }
    // A sequence number of any size resumes after it: past the last event, the finished stream is empty.
    expect(await readStream(crId, { 'last-event-id': '1234567890123456' })).toEqual([]);
    expect(await readStream(crId, {}, `?after=${'9'.repeat(30)}`)).toEqual([]);
  });
});

describe("the forge's webhook route: signed deliveries only, each taken once, a rate per repository", () => {
  const secret = 'webhook-secret-of-the-test';
  let store: SqlStore;
  let drop: () => Promise<void>;
  let server: { port: number; close(): Promise<void> };
  let bus: EventBus;
  const logLines: string[] = [];

  beforeAll(async () => {
    ({ store, drop } = await storeInOwnSchema('http_api_forge'));
    await migrate(store, orchestratorMigrations);
    bus = await testBuses('http-api-forge')[0]![1]();
    const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
    const { access } = await testApiAccess(store);
    const log = createLogger('forge-webhook-test', { level: 'debug', write: (line) => void logLines.push(line) });
    const api = changeRequestApi({
      store,
      orchestrator,
      log,
      access,
      forgeWebhooks: { webhooks: new GiteaWebhooks({ label: 'agent-farm' }), secret, ratePerMinute: 3 },
    });
    server = await serveMetrics(0, silentLogger, api);
  });
  afterAll(async () => {
    await server.close();
    await bus.close();
    await store.close();
    await drop();
  });

  const deliver = (body: string, headers: Record<string, string>) =>
    checkedFetch(`http://127.0.0.1:${server.port}/v1/forge/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gitea-event': 'issues', ...headers },
      body,
    });
  const sign = (body: string, key = secret) => createHmac('sha256', key).update(body).digest('hex');
  const issueEvent = (repo: string, n: number) =>
    JSON.stringify({
      action: 'label_updated',
      repository: { full_name: repo },
      sender: { login: 'ann' },
      issue: {
        number: n,
        title: 'Fix it',
        body: 'SECRET-BODY-TEXT',
        labels: [{ name: 'agent-farm' }],
        state: 'open',
        html_url: 'x',
        user: { login: 'ann' },
      },
    });

  test('a verified delivery is taken (202) once; a replay is a 409; unverified ones are 401 and logged without the body', async () => {
    const body = issueEvent('team/app', 1);
    const first = await deliver(body, { 'x-gitea-delivery': 'd1', 'x-gitea-signature': sign(body) });
    expect([first.status, await first.json()]).toEqual([202, { deliveryId: 'd1', acted: true, deferredSeconds: 0 }]);
    const again = await deliver(body, { 'x-gitea-delivery': 'd1', 'x-gitea-signature': sign(body) });
    expect(again.status).toBe(409);
    for (const headers of [
      { 'x-gitea-delivery': 'd2' } as Record<string, string>,
      { 'x-gitea-delivery': 'd2', 'x-gitea-signature': sign(body, 'another-secret') },
      { 'x-gitea-delivery': 'd2', 'x-gitea-signature': sign(`${body} `) },
    ]) {
      const refused = await deliver(body, headers);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/not verified/);
    }
    expect(logLines.join('\n')).toContain('webhook delivery refused');
    expect(logLines.join('\n')).not.toContain('SECRET-BODY-TEXT');
    const rows = await store.query('SELECT delivery_id, repo FROM forge_inbox');
    expect(rows.rows).toEqual([{ delivery_id: 'gitea:d1', repo: 'team/app' }]);
  });

  test('a signed body that is not JSON is a 400, one over 5 MiB a 413', async () => {
    const text = 'not json';
    expect((await deliver(text, { 'x-gitea-delivery': 'd3', 'x-gitea-signature': sign(text) })).status).toBe(400);
    const huge = 'x'.repeat(5 * 1024 * 1024 + 1);
    expect((await deliver(huge, { 'x-gitea-delivery': 'd4', 'x-gitea-signature': sign(huge) })).status).toBe(413);
  });

  test("deliveries beyond the repository's rate are kept and due later, never refused; replays count toward nothing", async () => {
    // One delivery and its replays: refused, they take none of team/busy's three places this minute.
    const first = issueEvent('team/busy', 9);
    for (let i = 0; i < 3; i++)
      await deliver(first, { 'x-gitea-delivery': 'busy-9', 'x-gitea-signature': sign(first) });
    const answers: [number, unknown][] = [];
    for (let n = 10; n < 14; n++) {
      const body = issueEvent('team/busy', n);
      const res = await deliver(body, { 'x-gitea-delivery': `busy-${n}`, 'x-gitea-signature': sign(body) });
      answers.push([res.status, ((await res.json()) as { deferredSeconds: number }).deferredSeconds]);
    }
    expect(answers.map(([status, deferred]) => [status, (deferred as number) > 0])).toEqual([
      [202, false],
      [202, false],
      [202, true],
      [202, true],
    ]);
    // Kept in the inbox, due about a minute later: the bridge acts on it then.
    const rows = await store.query<{ delivery_id: string; due_in_s: number }>(
      `SELECT delivery_id, EXTRACT(EPOCH FROM next_attempt_at - now())::float8 AS due_in_s FROM forge_inbox
       WHERE delivery_id LIKE 'gitea:busy-%' AND processed_at IS NULL ORDER BY delivery_id`,
    );
    expect(rows.rows.map((r) => [r.delivery_id, r.due_in_s > 30])).toEqual([
      ['gitea:busy-10', false],
      ['gitea:busy-11', false],
      ['gitea:busy-12', true],
      ['gitea:busy-13', true],
      ['gitea:busy-9', false],
    ]);
    const other = issueEvent('team/quiet', 1);
    const quiet = await deliver(other, { 'x-gitea-delivery': 'quiet-1', 'x-gitea-signature': sign(other) });
    expect([quiet.status, ((await quiet.json()) as { deferredSeconds: number }).deferredSeconds]).toEqual([202, 0]);
  });
});

afterAll(() => {
  // Every answer the document promises was produced by the server at least once (500 aside).
  expect(conformance.unexercised()).toEqual([]);
});

async function waitUntil(check: () => boolean, timeoutMs = 30_000) {
  for (const start = Date.now(); !check(); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
  }
}

/**
 * A fetch whose first event stream breaks after `n` events, as a proxy or a network blip would cut it;
 * records the Last-Event-ID of every stream request.
 */
function droppingAfterEvents(n: number, resumedFrom: (string | null)[]): typeof fetch {
  let dropped = false;
  return async (input, init) => {
    const res = await checkedFetch(input, init);
    if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return res;
    resumedFrom.push(new Headers(init?.headers).get('last-event-id'));
    if (dropped) return res;
    dropped = true;
    const reader = res.body!.getReader();
    let seen = 0;
    let cut = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // Failing right away would discard events still queued for the reader: fail once they are read.
        if (cut) return controller.error(new Error('connection reset'));
        const { value, done } = await reader.read();
        if (done) return controller.close();
        // Pass on whole events up to the n-th, then fail the stream.
        const text = new TextDecoder().decode(value);
        const parts = text.split(/(?<=\n\n)/);
        for (const part of parts) {
          if (part.startsWith('id:')) seen++;
          if (seen > n) {
            cut = true;
            return reader.cancel();
          }
          controller.enqueue(new TextEncoder().encode(part));
        }
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}
