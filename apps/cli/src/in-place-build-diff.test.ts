// `farm up`'s one-task build done in place, as the farm wires it: the builder's in-place launcher publishes the
// result on the bus, the orchestrator (on PGlite) records it and ends the request DONE, and the HTTP API serves
// the request's change for review (GET /v1/change-requests/{id}/diff), as it does for a build process's.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InPlaceBuildLauncher } from '@farm/builder';
import { oneTaskBuild } from '@farm/builder/testing';
import { InProcessBus } from '@farm/bus';
import { Orchestrator, TaskTopicLauncher, changeRequestApi } from '@farm/orchestrator';
import { testApiAccess } from '@farm/orchestrator/testing';
import { serveMetrics, silentLogger } from '@farm/runtime';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';

let tmp: string;
let store: SqlStore;
let bus: InProcessBus;
let orchestrator: Orchestrator;
let server: { port: number; close(): Promise<void> };
let reader: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'in-place-diff-'));
  store = await testPgliteStore();
  bus = new InProcessBus();
  orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  await orchestrator.start();
  const { access, tokenWith } = await testApiAccess(store);
  reader = await tokenWith(['read']);
  server = await serveMetrics(0, silentLogger, changeRequestApi({ store, orchestrator, log: silentLogger, access }));
});
afterAll(async () => {
  await orchestrator.stop();
  await server.close();
  await bus.close();
  await store.close();
  await rm(tmp, { recursive: true, force: true });
});

test("a one-task request built in place is DONE with its change reviewable: the request's diff is served", async () => {
  const { gitDir, request } = await oneTaskBuild(
    tmp,
    { 'calc.js': 'exports.add = (a, b) => a + b;\n' },
    { 'calc.js': 'exports.add = (a, b) => a + b;\nexports.multiply = (a, b) => a * b;\n' },
  );
  const id = request.changeRequestId!;
  // The request as the orchestrator holds it once its one task succeeded: in BUILD, waiting for the result.
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, base_commit, title) VALUES ($1, 'BUILD', $2, 'main', $3, 't')`,
    [id, request.repo!.url, request.repo!.baseCommit],
  );
  const processes: unknown[] = [];
  const builds = new InPlaceBuildLauncher(
    {
      launch: async (r) => void processes.push(r),
      cancel: async () => undefined,
      resume: async () => undefined,
      close: async () => undefined,
    },
    { bus, log: silentLogger, gitDirFor: () => gitDir },
  );
  await builds.launch(request);
  const get = async (route: string) =>
    (await fetch(`http://127.0.0.1:${server.port}/v1/change-requests/${id}${route}`, {
      headers: { authorization: `Bearer ${reader}` },
    }).then((r) => r.json())) as Record<string, unknown> & { request?: { phase: string } };
  for (let i = 0; i < 200 && (await get('')).request?.phase !== 'DONE'; i++)
    await new Promise((r) => setTimeout(r, 20));
  expect(processes).toEqual([]);
  expect((await get('')).request?.phase).toBe('DONE');
  expect(await get('/diff')).toMatchObject({
    changeRequestId: id,
    branch: `farm/${id}`,
    buildStatus: 'BUILD_PASSED',
    diff: expect.stringContaining('+exports.multiply = (a, b) => a * b;'),
    truncated: false,
  });
});
