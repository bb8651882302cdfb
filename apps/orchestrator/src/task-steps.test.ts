import http from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { farm } from '@farm/proto';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { silentLogger } from '@farm/runtime';
import { orchestratorMigrations } from './schema';
import { streamTaskSteps } from './task-step-events';
import { invalidStep, readTaskSteps, recordTaskStep } from './task-steps';

let store: SqlStore;
let server: http.Server;
let base: string;

beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ('cr', 'CODING', 'r', 'main', 't')`,
  );
  for (const id of ['cr-a', 'cr-b', 'cr-c'])
    await store.query(
      `INSERT INTO tasks (id, change_request_id, goal, status, task) VALUES ($1, 'cr', 'g', 'DISPATCHED', '')`,
      [id],
    );
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    void streamTaskSteps({
      db: store,
      changeRequestId: 'cr',
      taskId: url.searchParams.get('task')!,
      afterId: Number(url.searchParams.get('after') ?? 0),
      res,
      log: silentLogger,
      options: { pollMs: 20, heartbeatMs: 60_000, settleMs: 50 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

const step = (taskId: string, seq: number, fields: Record<string, unknown> = {}, runId = 'run-1', dispatch = 1) =>
  farm.v1.TaskStep.create({
    changeRequestId: 'cr',
    taskId,
    dispatch,
    runId,
    seq,
    line: JSON.stringify({ event: 'step', step: seq, ...fields }),
  });

/** Reads a whole stream (it ends once the task ended), as an SSE parser yields its events. */
async function readStream(
  url: string,
  onEvent?: (e: EventSourceMessage) => Promise<void>,
): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const pending: Promise<void>[] = [];
  const parser = createParser({ onEvent: (e) => (events.push(e), pending.push(onEvent?.(e) ?? Promise.resolve())) });
  const res = await fetch(url);
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  await Promise.all(pending);
  return events;
}

test('a step is kept once, only for a task the farm has, and only as a bounded JSON object', async () => {
  expect(await recordTaskStep(store, step('cr-a', 1), silentLogger)).toBe(true);
  expect(await recordTaskStep(store, step('cr-a', 1), silentLogger)).toBe(false); // redelivered
  expect(await recordTaskStep(store, step('cr-unknown', 1), silentLogger)).toBe(false);
  expect(invalidStep({ ...step('cr-a', 2), line: 'not json' })).toBe('the line is not JSON');
  expect(invalidStep({ ...step('cr-a', 2), line: '[1]' })).toBe('the line is not a JSON object');
  expect(invalidStep({ ...step('cr-a', 2), line: `{"x":"${'y'.repeat(20_000)}"}` })).toMatch(/more than 16000/);
  expect(invalidStep({ ...step('cr-a', 2), runId: '' })).toBe('no run id or sequence number');
  expect(await recordTaskStep(store, { ...step('cr-a', 2), line: 'not json' }, silentLogger)).toBe(false);
  expect((await readTaskSteps(store, 'cr', 'cr-a', 0)).map((s) => s.seq)).toEqual([1]);
});

test('a dispatch keeps its latest steps only: the oldest are trimmed as new ones come', async () => {
  const limits = { lineChars: 16_000, perDispatch: 4, trimEvery: 2 };
  for (let seq = 1; seq <= 10; seq++) await recordTaskStep(store, step('cr-b', seq), silentLogger, limits);
  // Another dispatch of the task keeps its own.
  await recordTaskStep(store, step('cr-b', 1, {}, 'run-2', 2), silentLogger, limits);
  const kept = await readTaskSteps(store, 'cr', 'cr-b', 0);
  expect(kept.map((s) => `${s.dispatch}:${s.seq}`)).toEqual(['1:7', '1:8', '1:9', '1:10', '2:1']);
});

test("a task's stream sends its stored steps, then new ones as they come, across agent runs, and ends after the task ended", async () => {
  await recordTaskStep(store, step('cr-c', 1, { tool: 'read_file' }), silentLogger);
  let more = true;
  const events = await readStream(`${base}/?task=cr-c`, async (e) => {
    if (e.event !== 'step' || !more) return;
    more = false;
    // The agent was restarted: its next run starts its numbering again; then the task ends.
    await recordTaskStep(store, step('cr-c', 1, { tool: 'run_checks' }, 'run-2'), silentLogger);
    await store.query(`UPDATE tasks SET status = 'SUCCESS' WHERE id = 'cr-c'`);
  });
  const steps = events.filter((e) => e.event === 'step').map((e) => JSON.parse(e.data));
  expect(steps.map((s) => [s.runId, s.seq, s.step.tool])).toEqual([
    ['run-1', 1, 'read_file'],
    ['run-2', 1, 'run_checks'],
  ]);
  expect(events.at(-1)).toMatchObject({ event: 'end', data: JSON.stringify({ status: 'SUCCESS' }) });

  // Resumed after the first step's id, only what came after it.
  const resumed = await readStream(`${base}/?task=cr-c&after=${events[0].id}`);
  expect(resumed.filter((e) => e.event === 'step').map((e) => JSON.parse(e.data).runId)).toEqual(['run-2']);
});
