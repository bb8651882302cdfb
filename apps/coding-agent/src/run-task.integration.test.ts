// The coding agent on real git (smart HTTP), the scripted model through the real openai client, the sandbox
// and the srm (PostgreSQL), for a generated Python repo (pytest) and a generated Node repo (jest).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { farm } from '@farm/proto';
import { remoteBranchSha, seedBareRepo, startGitHttpServer, type GitHttpServer } from '@farm/git';
import { createPatchModel } from '@farm/llm';
import { LocalRag, QdrantIndex } from '@farm/rag';
import { startQdrantHttpDouble } from '@farm/rag/testing';
import { cloneAtCommit } from '@farm/git';
import { silentLogger } from '@farm/runtime';
import { startScriptedModelServer, type ModelScript } from '@farm/scripted-llm';
import { PostgresSymbolLeases } from '@farm/srm-client';
import { createPgStore, type SqlStore } from '@farm/store';
import { readFile } from 'node:fs/promises';
import { InProcessBus, Topics } from '@farm/bus';
import { runCodingTask, type AgentDeps } from './run-task';
import { startAgentWorker } from './worker-pool';
import {
  NODE_ADD_FAREWELL,
  NODE_BREAK_GREET,
  NODE_JEST_REPO,
  PYTHON_REPO,
  PY_ADD_MULTIPLY,
  PY_ADD_MULTIPLY_BREAKING_ADD,
  PY_ADD_MULTIPLY_WRONG_LINES,
  PY_NOT_APPLYING,
  PY_SHOUT_QUIETER,
} from '../testing/agent-repos';

const S = farm.v1.CommitStatus;
let tmp: string;
let git: GitHttpServer;
let store: SqlStore;
let leases: PostgresSymbolLeases;
let n = 0;

beforeAll(async () => {
  await mkdir(NPM_CACHE, { recursive: true });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agent-it-'));
  git = await startGitHttpServer({ root: path.join(tmp, 'git') });
  store = createPgStore(process.env.DATABASE_URL!);
  leases = await PostgresSymbolLeases.open(store);
});
afterAll(async () => {
  await git.close();
  await store.close();
  await rm(tmp, { recursive: true, force: true });
});

const NPM_CACHE = path.join(os.homedir(), '.npm');

/** The agent's dependencies for a test, talking to the scripted model at `baseURL`. */
function agentDeps(baseURL: string, overrides: Partial<AgentDeps> = {}): AgentDeps {
  return {
    model: createPatchModel({ baseURL, apiKey: 'k', model: 'coder', maxRetries: 0 }),
    log: silentLogger,
    workRoot: path.join(tmp, 'work'),
    maxRetries: 2,
    checkTimeoutMs: 120_000,
    contextBudgetTokens: 4000,
    author: { name: 'agent', email: 'agent@test' },
    // Node repos install their devDependencies from the registry in the check's install step (which this
    // operator allows the network); they share a cache, which the sandbox must then let them write.
    checkEnv: { npm_config_cache: NPM_CACHE, npm_config_prefer_offline: 'true' },
    checkWritableDirs: [NPM_CACHE],
    checkCeilings: { hostNetwork: 'install' },
    ...overrides,
  };
}

/** Seeds a repo, runs one task against a scripted model, returns the result and what the model was asked. */
async function runTask(
  files: Record<string, string>,
  script: ModelScript,
  overrides: Partial<farm.v1.ICodingTask> = {},
  overrides2: Partial<AgentDeps> = {},
) {
  const name = `repo-${++n}.git`;
  const url = await git.createBareRepo(name);
  const baseCommit = await seedBareRepo({ url, files, message: 'initial' });
  const model = await startScriptedModelServer({ script });
  const task: farm.v1.ICodingTask = {
    id: `task-${n}`,
    changeRequestId: `cr-${n}`,
    goal: 'Add multiply(a, b) to calc.py',
    repo: { url, baseRef: 'main', baseCommit },
    dispatch: 1,
    ...overrides,
  };
  const deps = agentDeps(model.baseURL, overrides2);
  try {
    const result = await runCodingTask(task, deps);
    const prompts = model.requests.map((r) => r.messages.map((m) => m.content).join('\n'));
    return { result, prompts, url, task, agentDeps: deps, model };
  } finally {
    await model.close();
  }
}

describe('coding agent on a Python repo (pytest)', () => {
  test('a correct patch passes the first time and is pushed as agt/<task_id>', async () => {
    const { result, url } = await runTask(PYTHON_REPO, { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] });
    expect([S[result.status!], result.attempts, result.branchName]).toEqual(['SUCCESS', 1, `agt/task-${n}`]);
    expect(await remoteBranchSha(url, result.branchName!)).toBe(result.commitSha);
    expect(result.stepDurations!.map((d) => d.step)).toEqual(
      expect.arrayContaining(['clone', 'retrieve', 'llm', 'apply', 'check', 'commit', 'push']),
    );
  });

  test('a patch that breaks a test is fixed on the retry, with the failure in the second prompt', async () => {
    const trajectoryDir = path.join(tmp, 'trajectories');
    const { result, prompts } = await runTask(
      PYTHON_REPO,
      {
        chat: [
          { answer: { diff: PY_ADD_MULTIPLY_BREAKING_ADD } },
          { match: 'YOUR PREVIOUS ATTEMPT FAILED', answer: { diff: PY_ADD_MULTIPLY } },
        ],
      },
      {},
      { trajectoryDir },
    );
    expect([S[result.status!], result.attempts]).toEqual(['SUCCESS', 2]);
    // The trajectory has each attempt's prompt, model step, answer, check results and reward, then the result.
    const events = (await readFile(path.join(trajectoryDir, `task-${n}.1.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; attempt?: number; ok?: boolean });
    expect(
      events
        .filter((e) => e.event !== 'context' && e.event !== 'checks')
        .map((e) => `${e.event}${e.attempt ?? ''}${e.ok === undefined ? '' : `:${e.ok}`}`),
    ).toEqual([
      'prompt1',
      'step1',
      'answer1',
      'check1:false',
      'reward1',
      'prompt2',
      'step2',
      'answer2',
      'check2:true',
      'reward2',
      'result',
    ]);
    expect(prompts[1]).toMatch(/test_add/);
    expect(prompts[1]).toMatch(/assert/);
  });

  test('a patch with wrong line numbers still applies', async () => {
    const { result } = await runTask(PYTHON_REPO, { chat: [{ answer: { diff: PY_ADD_MULTIPLY_WRONG_LINES } }] });
    expect(S[result.status!]).toBe('SUCCESS');
    expect(result.notes!.join('\n')).toMatch(/line numbers/);
  });

  test('a patch that cannot apply is rejected with its reason, retried, then SOFT_FAIL and nothing pushed', async () => {
    const { result, prompts, url } = await runTask(PYTHON_REPO, {
      chat: [{ repeat: true, answer: { diff: PY_NOT_APPLYING } }],
    });
    expect([S[result.status!], result.attempts, result.failedStep]).toEqual(['SOFT_FAIL', 3, 'attempts']);
    expect(prompts[1]).toMatch(/rejected.*calc\.py/s);
    expect(await remoteBranchSha(url, `agt/task-${n}`)).toBeUndefined();
  });

  test('redelivering a finished task pushes nothing new and emits the same CommitResult', async () => {
    const first = await runTask(PYTHON_REPO, { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] });
    const model = await startScriptedModelServer({ script: { chat: [] } });
    try {
      const again = await runCodingTask(first.task, {
        ...first.agentDeps,
        model: createPatchModel({ baseURL: model.baseURL, apiKey: 'k', model: 'coder' }),
      });
      expect([S[again.status!], again.commitSha, again.branchName]).toEqual([
        'SUCCESS',
        first.result.commitSha,
        first.result.branchName,
      ]);
      expect(model.requests).toHaveLength(0); // the model was not asked again
      expect(await remoteBranchSha(first.url, first.result.branchName!)).toBe(first.result.commitSha);
    } finally {
      await model.close();
    }
  });

  test('two agents given the same task never both push: both report the one pushed commit', async () => {
    const url = await git.createBareRepo('race.git');
    const baseCommit = await seedBareRepo({ url, files: PYTHON_REPO, message: 'initial' });
    const model = await startScriptedModelServer({
      script: { chat: [{ repeat: true, answer: { diff: PY_ADD_MULTIPLY } }] },
    });
    try {
      const task = {
        id: 'race-1',
        changeRequestId: 'cr-race',
        goal: 'Add multiply',
        repo: { url, baseRef: 'main', baseCommit },
      };
      const deps = agentDeps(model.baseURL, { maxRetries: 0 });

      const [a, b] = await Promise.all([runCodingTask(task, deps), runCodingTask(task, deps)]);
      expect([S[a.status!], S[b.status!]]).toEqual(['SUCCESS', 'SUCCESS']);
      expect(a.commitSha).toBe(b.commitSha);
      expect(await remoteBranchSha(url, 'agt/race-1')).toBe(a.commitSha);
    } finally {
      await model.close();
    }
  });

  test('the agent claims its reserved leases after the push; a lost lease is a HARD_FAIL', async () => {
    const [held] = await leases.reserve({
      repo: 'r-claim',
      symbols: ['multiply'],
      holder: 'cr-claim',
      changeRequestId: 'cr-claim',
      ttlSeconds: 60,
    });
    const ok = await runTask(
      PYTHON_REPO,
      { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] },
      { reservedLeases: [{ id: held.id, fencingToken: held.fencingToken, symbol: held.symbol }] },
      { leases },
    );
    expect(S[ok.result.status!]).toBe('SUCCESS');
    expect((await leases.liveLeases({ changeRequestId: 'cr-claim' }))[0]).toMatchObject({
      state: 'CLAIMED',
      commitSha: ok.result.commitSha,
    });

    const [lost] = await leases.reserve({
      repo: 'r-lost',
      symbols: ['multiply'],
      holder: 'cr-lost',
      changeRequestId: 'cr-lost',
      ttlSeconds: 60,
    });
    await leases.release(lost.id, lost.fencingToken);
    const bad = await runTask(
      PYTHON_REPO,
      { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] },
      { reservedLeases: [{ id: lost.id, fencingToken: lost.fencingToken, symbol: lost.symbol }] },
      { leases },
    );
    expect([S[bad.result.status!], bad.result.failedStep]).toEqual(['HARD_FAIL', 'claim']);
    expect(bad.result.notes!.join('\n')).toMatch(/lease lost/);
  });

  test('retrieval puts the file defining the symbol named in the goal in the prompt (embedded index)', async () => {
    const { prompts } = await runTask(
      PYTHON_REPO,
      { chat: [{ answer: { diff: PY_SHOUT_QUIETER } }] },
      { goal: 'Make shout() end with a period instead of an exclamation mark' },
    );
    expect(prompts[0]).toContain('FILE: utils/strings.py');
  });

  test('retrieval puts the file defining the symbol named in the goal in the prompt (Qdrant backend, REST double)', async () => {
    const qdrant = await startQdrantHttpDouble({});
    try {
      const rag = new LocalRag({
        index: new QdrantIndex({ url: qdrant.url }),
        checkout: cloneAtCommit,
        workDir: path.join(tmp, 'rag'),
      });
      const { prompts, result } = await runTask(
        PYTHON_REPO,
        { chat: [{ answer: { diff: PY_SHOUT_QUIETER } }] },
        { goal: 'Make shout() end with a period instead of an exclamation mark' },
        { rag },
      );
      expect(S[result.status!]).toBe('SUCCESS');
      expect(prompts[0]).toContain('FILE: utils/strings.py');
    } finally {
      await qdrant.close();
    }
  });
});

test('a pool worker consumes a task from the task topic and publishes its CommitResult', async () => {
  const url = await git.createBareRepo('pool.git');
  const baseCommit = await seedBareRepo({ url, files: PYTHON_REPO, message: 'initial' });
  const model = await startScriptedModelServer({ script: { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] } });
  const bus = new InProcessBus();
  try {
    const results: farm.v1.CommitResult[] = [];
    await bus.subscribe(Topics.commitResults, 'test', async (r) => void results.push(r));
    await startAgentWorker(bus, agentDeps(model.baseURL, { maxRetries: 0 }));

    await bus.publish(
      Topics.codingTasks,
      farm.v1.CodingTask.fromObject({
        id: 'pool-1',
        changeRequestId: 'cr-pool',
        goal: 'Add multiply',
        repo: { url, baseRef: 'main', baseCommit },
      }),
    );
    await bus.drain();
    expect(results.map((r) => [r.taskId, S[r.status]])).toEqual([['pool-1', 'SUCCESS']]);
  } finally {
    await bus.close();
    await model.close();
  }
});

describe('coding agent on a Node repo (jest)', () => {
  const goal = { goal: 'Add farewell(name) to src/greet.js' };
  test('a correct patch passes jest the first time', async () => {
    const { result } = await runTask(NODE_JEST_REPO, { chat: [{ answer: { diff: NODE_ADD_FAREWELL } }] }, goal);
    expect([S[result.status!], result.attempts]).toEqual(['SUCCESS', 1]);
  });

  test('a patch that breaks a jest test is fixed on the retry, with the failure in the second prompt', async () => {
    const { result, prompts } = await runTask(
      NODE_JEST_REPO,
      {
        chat: [
          { answer: { diff: NODE_BREAK_GREET } },
          { match: 'YOUR PREVIOUS ATTEMPT FAILED', answer: { diff: NODE_ADD_FAREWELL } },
        ],
      },
      goal,
    );
    expect([S[result.status!], result.attempts]).toEqual(['SUCCESS', 2]);
    expect(prompts[1]).toMatch(/greets by name/);
  });
});
