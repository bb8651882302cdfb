// Planning and orchestration on real Kafka and PostgreSQL (started by the jest global set-up unless
// KAFKA_BROKERS / DATABASE_URL are given), with the git server, the scripted model and agent processes.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { failedStepName, farm, taskStateName } from '@farm/proto';
import { DEAD_LETTER_TOPIC, KafkaBus, Topics, type EventBus, type PublishOptions } from '@farm/bus';
import { silentLogger } from '@farm/runtime';
import { getRequest } from '@farm/orchestrator';
import { remoteBranchSha, seedBareRepo } from '@farm/git';
import { createPgStore, type SqlStore } from '@farm/store';
import { cancelChangeRequest } from '@farm/cli';
import { startFarmHarness, type FarmHarness } from './farm-harness';
import {
  ADD_DIVIDE_AFTER_MULTIPLY,
  ADD_LOWER,
  ADD_MULTIPLY,
  ADD_POWER,
  MULTI_REPO_FILES,
  agentStep,
  planStep,
} from '@farm/cli/testing';
import { startPostgres } from '../../../../scripts/local-services/postgres';

const exec = promisify(execFile);
const phasesOf = (ts: farm.v1.PhaseTransition[]) => ts.filter((t) => !t.taskId).map((t) => farm.v1.Phase[t.toPhase]);
const taskEvents = (ts: farm.v1.PhaseTransition[]) =>
  ts.filter((t) => t.taskId).map((t) => `${t.taskId.split('-').at(-1)}:${taskStateName(t.taskState)}`);

const THREE_ITEMS = [
  { id: 'mul', goal: 'Add multiply to the calculator', symbols: ['calculatorExports'] },
  { id: 'str', goal: 'Add lower to the strings module', symbols: ['upper'] },
  { id: 'div', goal: 'Add divide to the calculator', symbols: ['calculatorExports'] },
];

describe('planning and orchestration on Kafka and PostgreSQL', () => {
  let bus: KafkaBus;
  let store: SqlStore;
  let h: FarmHarness | undefined;

  beforeAll(async () => {
    bus = await KafkaBus.connect({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      clientId: 'orchestration-test',
      topicPrefix: `orch-${Date.now()}.`,
    });
    store = createPgStore(process.env.DATABASE_URL!);
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  afterAll(async () => {
    await bus.close();
    await store.close();
  });

  const threeItemScript = (delayMs = 0) => ({
    chat: [
      planStep(THREE_ITEMS),
      agentStep('Add multiply', ADD_MULTIPLY, delayMs),
      agentStep('Add divide', ADD_DIVIDE_AFTER_MULTIPLY, delayMs),
      agentStep('Add lower', ADD_LOWER, delayMs),
    ],
  });

  async function expectIntegrated(repoUrl: string, id: string) {
    const dir = `${process.env.TMPDIR ?? '/tmp'}/farm-review-${id}`;
    await exec('git', ['clone', '-q', '--branch', `farm/${id}`, repoUrl, dir]);
    const { stdout } = await exec('cat', ['src/calculator.js', 'src/strings.js'], { cwd: dir });
    expect(stdout).toContain('function multiply');
    expect(stdout).toContain('function divide');
    expect(stdout).toContain('function lower');
    await exec('node', ['--test'], { cwd: dir });
    await exec('rm', ['-rf', dir]);
  }

  test('three items, two on the same symbol: those run in order, the third alongside; all merge; DONE', async () => {
    h = await startFarmHarness(bus, store, threeItemScript());
    const repo = await h.seed('three.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the library' });
    const ts = await h.watch(id);

    expect(phasesOf(ts)).toEqual(['RECEIVED', 'PLANNING', 'CODING', 'BUILD', 'DONE']);
    expect(ts.map((t) => Number(t.sequence))).toEqual(ts.map((_, i) => i + 1));
    const events = taskEvents(ts);
    // div waits for mul (shared symbol); str starts with mul.
    expect(events.indexOf('div:DISPATCHED')).toBeGreaterThan(events.indexOf('mul:SUCCESS'));
    expect(events.indexOf('str:DISPATCHED')).toBeLessThan(events.indexOf('mul:SUCCESS'));
    expect(events.filter((e) => e.endsWith(':DISPATCHED'))).toHaveLength(3);
    await expectIntegrated(repo.url, id);
    expect(h.builds.find((b) => b.changeRequestId === id)?.status).toBe(farm.v1.BuildStatus.BUILD_PASSED);
    // The build integrated the work: the request's leases are released (right after the DONE transition).
    await waitUntil(async () => (await h!.leases.liveLeases({ changeRequestId: id })).length === 0);
  });

  test('the orchestrator killed during CODING resumes from PostgreSQL, dispatches nothing twice, reaches DONE', async () => {
    h = await startFarmHarness(bus, store, threeItemScript(2500));
    const repo = await h.seed('restart.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the library' });
    let restarted: Promise<void> | undefined;
    const ts = await h.watch(id, (t) => {
      if (!restarted && t.taskState === farm.v1.TaskState.TASK_DISPATCHED) restarted = h!.restartOrchestrator();
    });
    await restarted;
    expect(phasesOf(ts).at(-1)).toBe('DONE');
    expect(
      taskEvents(ts)
        .filter((e) => e.endsWith(':DISPATCHED'))
        .sort(),
    ).toEqual(['div:DISPATCHED', 'mul:DISPATCHED', 'str:DISPATCHED']);
    expect(ts.map((t) => Number(t.sequence))).toEqual(ts.map((_, i) => i + 1));
    await expectIntegrated(repo.url, id);
  });

  test('every event published twice: the same final state and branches as once', async () => {
    h = await startFarmHarness(duplicating(bus), store, threeItemScript());
    const repo = await h.seed('twice.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the library' });
    const ts = await h.watch(id);
    expect(phasesOf(ts)).toEqual(['RECEIVED', 'PLANNING', 'CODING', 'BUILD', 'DONE']);
    const state = await getRequest(store, id);
    expect(state!.tasks.map((t) => [t.id.split('-').at(-1), t.status, t.dispatch])).toEqual([
      ['div', 'SUCCESS', 1],
      ['mul', 'SUCCESS', 1],
      ['str', 'SUCCESS', 1],
    ]);
    for (const t of state!.tasks) expect(await remoteBranchSha(repo.url, t.branch)).toBe(t.commitSha);
    await expectIntegrated(repo.url, id);
  });

  test('a HARD_FAIL task fails the request at once and the srm holds no live lease of it', async () => {
    h = await startFarmHarness(bus, store, {
      chat: [
        planStep(THREE_ITEMS),
        { match: 'TASK GOAL:\nAdd multiply', repeat: true, fault: { status: 401 } }, // bad key: nothing to fix
        agentStep('Add lower', ADD_LOWER, 1500),
        agentStep('Add divide', ADD_DIVIDE_AFTER_MULTIPLY),
      ],
    });
    const repo = await h.seed('hard.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the library' });
    const ts = await h.watch(id);
    const last = ts.filter((t) => !t.taskId).at(-1)!;
    expect(farm.v1.Phase[last.toPhase]).toBe('FAILED');
    expect(last.reason).toMatch(/HARD_FAIL/);
    const hardFail = h.results.find((r) => r.changeRequestId === id && r.status === farm.v1.CommitStatus.HARD_FAIL);
    expect(failedStepName(hardFail?.failedStep)).toBe('llm');
    await waitUntil(async () => (await h!.leases.liveLeases({ changeRequestId: id })).length === 0);
    const state = await getRequest(store, id);
    expect(state!.tasks.find((t) => t.id.endsWith('-div'))?.status).toBe('CANCELLED');
  });

  test('two branches that conflict: the BuildResult names the conflicting paths and the request FAILED', async () => {
    h = await startFarmHarness(bus, store, {
      chat: [
        planStep([
          { id: 'mul', goal: 'Add multiply to the calculator' },
          { id: 'pow', goal: 'Add power to the calculator' },
        ]),
        agentStep('Add multiply', ADD_MULTIPLY),
        agentStep('Add power', ADD_POWER),
      ],
    });
    const repo = await h.seed('conflict.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Two ways to change one line' });
    const ts = await h.watch(id);
    expect(phasesOf(ts)).toEqual(['RECEIVED', 'PLANNING', 'CODING', 'BUILD', 'FAILED']);
    const build = h.builds.find((b) => b.changeRequestId === id)!;
    expect(build.status).toBe(farm.v1.BuildStatus.MERGE_CONFLICT);
    expect(build.conflictingPaths).toEqual(['src/calculator.js']);
    expect(ts.at(-1)!.reason).toContain('src/calculator.js');
  });

  test('farm cancel during CODING stops the running tasks, releases the leases, ends CANCELLED', async () => {
    h = await startFarmHarness(bus, store, threeItemScript(30_000));
    const repo = await h.seed('cancel.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the library' });
    let cancelled: Promise<void> | undefined;
    const ts = await h.watch(id, (t) => {
      if (!cancelled && t.taskState === farm.v1.TaskState.TASK_DISPATCHED)
        cancelled = cancelChangeRequest(bus, id, 'changed my mind');
    });
    await cancelled;
    expect(phasesOf(ts).at(-1)).toBe('CANCELLED');
    await waitUntil(async () => h!.launcher.inFlight === 0);
    await waitUntil(async () => (await h!.leases.liveLeases({ changeRequestId: id })).length === 0);
    const state = await getRequest(store, id);
    expect(state!.tasks.every((t) => t.status === 'CANCELLED')).toBe(true);
  });

  test('farm cancel during BUILD: farm/<id> that a push already under way leaves is deleted once the build has stopped, also by the next orchestrator', async () => {
    h = await startFarmHarness(bus, store, threeItemScript(), undefined, {
      orchestrator: { retractAfterCancelMs: 3_000 },
    });
    const repo = await h.seed('cancel-build.git', MULTI_REPO_FILES);
    // The tests, then slow in the build only (its checkout is on farm/<id>), so the cancel comes while it runs.
    const checkCommand = `node --test && case "$(git rev-parse --abbrev-ref HEAD)" in farm/*) sleep 60;; esac`;
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the library', checkCommand });
    let cancelled: Promise<void> | undefined;
    const ts = await h.watch(id, (t) => {
      if (cancelled || t.taskId || t.toPhase !== farm.v1.Phase.BUILD) return;
      cancelled = (async () => {
        await cancelChangeRequest(bus, id, 'not now');
        // The build's push was already on its way: the branch appears after the cancel.
        await seedBareRepo({ url: repo.url, branch: `farm/${id}`, files: { 'late.txt': 'late\n' }, message: 'late' });
        // The orchestrator that scheduled the deletion stops before it is due (its timer with it): the next one
        // takes the branch back.
        await h!.restartOrchestrator();
      })();
    });
    await cancelled;
    expect(phasesOf(ts).slice(-2)).toEqual(['BUILD', 'CANCELLED']);
    expect(await remoteBranchSha(repo.url, `farm/${id}`)).toMatch(/^[0-9a-f]{40}$/);
    await waitUntil(async () => (await remoteBranchSha(repo.url, `farm/${id}`)) === undefined);
    expect(await remoteBranchSha(repo.url, 'main')).toBe(repo.baseCommit); // nothing else touched
  });

  test('PostgreSQL away while a request arrives: its message waits in place (no copy, no dead letter), then DONE', async () => {
    const pg = await startPostgres({ log: silentLogger }); // the test's own server: it is stopped and started
    const own = createPgStore(pg.url);
    try {
      h = await startFarmHarness(bus, own, {
        chat: [planStep([THREE_ITEMS[0]]), agentStep('Add multiply', ADD_MULTIPLY)],
      });
      const repo = await h.seed('outage.git', MULTI_REPO_FILES);
      await pg.halt('fast');
      const id = await h.submit({ repoUrl: repo.url, title: 'Add multiply' });
      // Long enough for the orchestrator's redeliveries to have copied the message a few times (one every ~2 s).
      await new Promise((r) => setTimeout(r, 10_000));
      await pg.resume();
      const ts = await h.watch(id);
      expect(phasesOf(ts)).toEqual(['RECEIVED', 'PLANNING', 'CODING', 'BUILD', 'DONE']);
      expect(await keyedMessages(bus, Topics.changeRequests.name, id)).toBe(1); // the one submitted
      expect(await keyedMessages(bus, DEAD_LETTER_TOPIC, id)).toBe(0);
    } finally {
      await h?.close();
      h = undefined;
      await own.close();
      await pg.stop();
    }
  });
});

/** How many messages keyed `key` a topic holds, read from its start by a group of its own. */
async function keyedMessages(bus: EventBus, topic: string, key: string): Promise<number> {
  const marker = `marker-${randomUUID()}`;
  await bus.publishRaw(topic, Buffer.from('marker'), { key: marker });
  const keys: (string | null)[] = [];
  const sub = await bus.subscribeRaw(topic, `count-${randomUUID()}`, async (m) => void keys.push(m.key));
  await waitUntil(async () => keys.includes(marker));
  await sub.stop();
  return keys.filter((k) => k === key).length;
}

/** A producer that sends everything twice (as a retrying producer may): a stand-in for duplicate delivery. */
function duplicating(inner: EventBus): EventBus {
  return Object.assign(Object.create(inner) as EventBus, {
    async publishRaw(topic: string, value: Buffer, options?: PublishOptions) {
      await inner.publishRaw(topic, value, options);
      await inner.publishRaw(topic, value, options);
    },
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 30_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
