// The whole farm driven through the orchestrator's HTTP API, as the CLI and users' services drive it: real
// agent processes with the scripted model, the git smart-HTTP server, PostgreSQL, and both buses (the
// in-process one and Kafka, started by the jest global set-up unless KAFKA_BROKERS is given).
import { farm } from '@farm/proto';
import { testBuses } from '@farm/bus/testing';
import type { EventBus } from '@farm/bus';
import { remoteBranchSha } from '@farm/git';
import { ChangeRequestClient } from '@farm/farm-api';
import { changeRequestApi, transitionToJson } from '@farm/orchestrator';
import { startFarmHarness, testLog, type FarmHarness } from './farm-harness';
import { ADD_MULTIPLY, MULTI_REPO_FILES, agentStep, planStep } from '@farm/cli/testing';
import { OpenApiConformance, conformingFetch, testApiAccess } from '@farm/orchestrator/testing';
import { serveMetrics } from '@farm/runtime';
import { createPgStore, type SqlStore } from '@farm/store';

const conformance = new OpenApiConformance();

const modes = testBuses('http-farm');

describe.each(modes)('the farm through its HTTP API on %s and PostgreSQL', (_mode, openBus) => {
  let bus: EventBus;
  let store: SqlStore;
  let h: FarmHarness;
  let server: { port: number; close(): Promise<void> };
  let client: ChangeRequestClient;
  let token: string;

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
    const api = changeRequestApi({ store, orchestrator: h.farm.orchestrator, log: testLog, access });
    server = await serveMetrics(0, testLog, api);
    client = new ChangeRequestClient({
      baseUrl: `http://127.0.0.1:${server.port}`,
      token: (token = await tokenWith(['read', 'submit', 'cancel'])),
      fetch: conformingFetch(conformance),
    });
  });
  afterAll(async () => {
    await server.close();
    await h.close();
    await bus.close();
    await store.close();
  });

  test('a request submitted over HTTP runs on real agents to DONE; its stream, status, branches and tokens say so', async () => {
    const repo = await h.seed('over-http.git', MULTI_REPO_FILES);
    const submitted = await client.submit({ title: 'Add multiply', repo: { url: repo.url } });
    expect(submitted.created).toBe(true);
    const id = submitted.changeRequestId;

    const transitions: farm.v1.PhaseTransition[] = [];
    for await (const t of client.events(id)) {
      conformance.checkEvent('/v1/change-requests/{id}/events', transitionToJson(t));
      transitions.push(t);
    }
    expect(transitions.map((t) => Number(t.sequence))).toEqual(transitions.map((_, i) => i + 1));
    const phases = transitions.filter((t) => !t.taskId).map((t) => farm.v1.Phase[t.toPhase]);
    expect(phases).toEqual(['RECEIVED', 'PLANNING', 'CODING', 'BUILD', 'DONE']);
    expect(transitions.filter((t) => t.taskId).map((t) => t.taskState)).toEqual([
      farm.v1.TaskState.TASK_DISPATCHED,
      farm.v1.TaskState.TASK_SUCCESS,
    ]);

    const { request, tasks } = await client.get(id);
    expect(request).toMatchObject({ phase: 'DONE', tasksDone: 1, tasksTotal: 1, attempts: 1 });
    expect(request.integrationBranch).toBe(`farm/${id}`);
    expect(await remoteBranchSha(repo.url, request.integrationBranch)).toBeDefined();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ status: 'SUCCESS', branch: `agt/${tasks[0].id}`, dispatch: 1 });
    expect(await remoteBranchSha(repo.url, tasks[0].branch)).toBe(tasks[0].commitSha);
    // The tokens are the agent's own report of what the model used.
    const reported = h.results.find((r) => r.taskId === tasks[0].id)!.tokenUsage!;
    expect(reported.totalTokens).toBeGreaterThan(0);
    expect(tasks[0].tokens).toEqual({
      prompt: reported.promptTokens,
      completion: reported.completionTokens,
      total: reported.totalTokens,
    });
    // The request's tokens are its planning's (the planner model's one call here) and its task's.
    expect(request.planning.calls).toBe(1);
    expect(request.planning.totalTokens).toBeGreaterThan(0);
    expect(request.tokens.total).toBe(tasks[0].tokens.total + request.planning.totalTokens);
    expect(request.tokens.prompt + request.tokens.completion).toBe(request.tokens.total);

    // The request's change as the build merged it into farm/<id>, against the base.
    const diff = await conformingFetch(conformance)(`http://127.0.0.1:${server.port}/v1/change-requests/${id}/diff`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(diff.status).toBe(200);
    expect(await diff.json()).toMatchObject({
      branch: `farm/${id}`,
      commitSha: await remoteBranchSha(repo.url, `farm/${id}`),
      buildStatus: 'BUILD_PASSED',
      diff: expect.stringContaining('+function multiply(a, b) {'),
      truncated: false,
    });

    expect((await client.list(500)).map((r) => r.id)).toContain(id);
    await expect(client.cancel(id, 'too late')).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/DONE/),
    });
    // Submitting it again changes nothing.
    expect(await client.submit({ changeRequestId: id, title: 'Add multiply', repo: { url: repo.url } })).toEqual({
      changeRequestId: id,
      created: false,
    });
  });
});
