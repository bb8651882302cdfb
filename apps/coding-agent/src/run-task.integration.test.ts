// The coding agent on real git (smart HTTP), the scripted model through the real openai client, the sandbox
// and the srm (PostgreSQL), for a generated Python repo (pytest) and a generated Node repo (jest).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { failedStepName, farm } from '@farm/proto';
import {
  commitAll,
  pushBranch,
  readRemoteBranchCommit,
  remoteBranchSha,
  seedBareRepo,
  startGitHttpServer,
  type GitHttpServer,
} from '@farm/git';
import { createPatchModel } from '@farm/llm';
import { LocalRag, QdrantIndex } from '@farm/rag';
import { startQdrantHttpDouble } from '@farm/rag/testing';
import { cloneAtCommit } from '@farm/git';
import { startGitProxy } from '@farm/git/testing';
import { silentLogger } from '@farm/runtime';
import { startScriptedModelServer, type ModelScript } from '@farm/scripted-llm';
import { PostgresSymbolLeases, SrmUnavailable } from '@farm/srm-client';
import { createPgStore, type SqlStore } from '@farm/store';
import { readFile } from 'node:fs/promises';
import { InProcessBus, Topics } from '@farm/bus';
import type { AgentDeps, AgentServices, AgentSettings } from './agent-deps';
import { runCodingTask } from './run-task';
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
const exec = promisify(execFile);
/** Native git, away from the machine's config. */
const gitCli = async (cwd: string, ...args: string[]) =>
  (
    await exec('git', args, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } })
  ).stdout.trim();

/** A test's own services and settings, over the defaults of `agentDeps`. */
interface DepsOverrides {
  services?: Partial<AgentServices>;
  settings?: Partial<AgentSettings>;
}

/** The agent's dependencies for a test, talking to the scripted model at `baseURL`. */
function agentDeps(baseURL: string, overrides: DepsOverrides = {}): AgentDeps {
  return {
    services: {
      model: createPatchModel({ baseURL, apiKey: 'k', model: 'coder', maxRetries: 0 }),
      // As deployed: the srm records each commit before its push, and a commit found on the branch is adopted
      // only when recorded.
      commits: leases,
      log: silentLogger,
      ...overrides.services,
    },
    settings: {
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
      ...overrides.settings,
    },
  };
}

// Task ids unique to this run: the srm's leases and the lessons live in a database that may outlive a run.
const RUN = Date.now().toString(36);

/** A fresh repo seeded with `files`, and a task on it (dispatch 1). */
async function seedTask(files: Record<string, string>, overrides: Partial<farm.v1.ICodingTask> = {}) {
  const name = `repo-${++n}.git`;
  const url = await git.createBareRepo(name);
  const baseCommit = await seedBareRepo({ url, files, message: 'initial' });
  const task: farm.v1.ICodingTask = {
    id: `task-${RUN}-${n}`,
    changeRequestId: `cr-${RUN}-${n}`,
    goal: 'Add multiply(a, b) to calc.py',
    repo: { url, baseRef: 'main', baseCommit },
    dispatch: 1,
    ...overrides,
  };
  return { url, baseCommit, task };
}

/** Runs `task` against a scripted model; returns the result and what the model was asked. */
async function runSeeded(
  task: farm.v1.ICodingTask,
  script: ModelScript,
  overrides: DepsOverrides | ((baseURL: string) => DepsOverrides) = {},
) {
  const model = await startScriptedModelServer({ script });
  const deps = agentDeps(model.baseURL, typeof overrides === 'function' ? overrides(model.baseURL) : overrides);
  try {
    const result = await runCodingTask(task, deps);
    const prompts = model.requests.map((r) => r.messages.map((m) => m.content).join('\n'));
    return { result, prompts, agentDeps: deps, model };
  } finally {
    await model.close();
  }
}

/** Seeds a repo, runs one task against a scripted model, returns the result and what the model was asked. */
async function runTask(
  files: Record<string, string>,
  script: ModelScript,
  overrides: Partial<farm.v1.ICodingTask> = {},
  overrides2: DepsOverrides = {},
) {
  const { url, task } = await seedTask(files, overrides);
  return { ...(await runSeeded(task, script, overrides2)), url, task };
}

/** Someone else's commit on `branch` (a person, a script, another farm), on top of the base commit. */
async function pushCommitOf(url: string, baseCommit: string, branch: string, message: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmp, 'other-'));
  try {
    await cloneAtCommit({ url, ref: 'main', commit: baseCommit, dir });
    await writeFile(path.join(dir, 'calc.py'), 'def multiply(a, b):\n    return 0  # not the task\n');
    await commitAll({ dir, message, author: { name: 'someone', email: 'someone@else' }, branch });
    return await pushBranch({ dir, url, branch });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A lease on `symbol` held for the task, as the code planner reserves it. */
async function reserveFor(task: farm.v1.ICodingTask, symbol = 'multiply') {
  const [lease] = await leases.reserve({
    repo: task.repo!.url!,
    symbols: [symbol],
    holder: task.id!,
    changeRequestId: task.changeRequestId!,
    ttlSeconds: 60,
  });
  return lease;
}
const leaseRef = (l: { id: string; fencingToken: string; symbol: string }) => ({
  id: l.id,
  fencingToken: l.fencingToken,
  symbol: l.symbol,
});

describe('coding agent on a Python repo (pytest)', () => {
  test('a correct patch passes the first time and is pushed as agt/<task_id>', async () => {
    const { result, url } = await runTask(PYTHON_REPO, { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] });
    expect([S[result.status!], result.attempts, result.branchName]).toEqual(['SUCCESS', 1, `agt/task-${RUN}-${n}`]);
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
      { settings: { trajectoryDir } },
    );
    expect([S[result.status!], result.attempts]).toEqual(['SUCCESS', 2]);
    // The trajectory has each attempt's prompt, model step, answer, check results and reward, then the result.
    const events = (await readFile(path.join(trajectoryDir, `task-${RUN}-${n}.1.jsonl`), 'utf8'))
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
      'verification2',
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

  test('a hunk without context at a wrong line is rejected and asked again, not applied where it says', async () => {
    // multiply belongs at the end (after line 6); the model says after line 2, inside add's body
    const contextFree =
      '--- a/calc.py\n+++ b/calc.py\n@@ -2,0 +3,4 @@\n+\n+\n+def multiply(a, b):\n+    return a * b\n';
    const { result, prompts } = await runTask(PYTHON_REPO, {
      chat: [
        { answer: { diff: contextFree } },
        { match: 'YOUR PREVIOUS ATTEMPT FAILED', answer: { diff: PY_ADD_MULTIPLY } },
      ],
    });
    expect([S[result.status!], result.attempts]).toEqual(['SUCCESS', 2]);
    expect(prompts[1]).toMatch(/no context lines and removes none, so its place \(line 2\) cannot be verified/);
    expect(result.notes!.join('\n')).not.toMatch(/line numbers/);
  });

  test('a patch that cannot apply is rejected with its reason, retried, then SOFT_FAIL and nothing pushed', async () => {
    const { result, prompts, url } = await runTask(PYTHON_REPO, {
      chat: [{ repeat: true, answer: { diff: PY_NOT_APPLYING } }],
    });
    expect([S[result.status!], result.attempts, failedStepName(result.failedStep)]).toEqual([
      'SOFT_FAIL',
      3,
      'attempts',
    ]);
    expect(prompts[1]).toMatch(/rejected.*calc\.py/s);
    expect(await remoteBranchSha(url, `agt/task-${RUN}-${n}`)).toBeUndefined();
  });

  test('redelivering a finished task pushes nothing new and emits the same CommitResult', async () => {
    const first = await runTask(PYTHON_REPO, { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] });
    const model = await startScriptedModelServer({ script: { chat: [] } });
    try {
      const again = await runCodingTask(first.task, {
        ...first.agentDeps,
        services: {
          ...first.agentDeps.services,
          model: createPatchModel({ baseURL: model.baseURL, apiKey: 'k', model: 'coder' }),
        },
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
      const deps = agentDeps(model.baseURL, { settings: { maxRetries: 0 } });

      const [a, b] = await Promise.all([runCodingTask(task, deps), runCodingTask(task, deps)]);
      expect([S[a.status!], S[b.status!]]).toEqual(['SUCCESS', 'SUCCESS']);
      expect(a.commitSha).toBe(b.commitSha);
      expect(await remoteBranchSha(url, 'agt/race-1')).toBe(a.commitSha);
    } finally {
      await model.close();
    }
  });

  test('the agent claims its reserved leases for the pushed commit; a lost lease is a HARD_FAIL and nothing is pushed', async () => {
    const claimed = await seedTask(PYTHON_REPO);
    const held = await reserveFor(claimed.task);
    const ok = await runSeeded(
      { ...claimed.task, reservedLeases: [leaseRef(held)] },
      { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] },
      { services: { leases } },
    );
    expect(S[ok.result.status!]).toBe('SUCCESS');
    expect(await leases.liveLeases({ holder: claimed.task.id! })).toEqual([
      expect.objectContaining({ state: 'CLAIMED', commitSha: ok.result.commitSha }),
    ]);
    expect(await remoteBranchSha(claimed.url, `agt/${claimed.task.id}`)).toBe(ok.result.commitSha);

    const refused = await seedTask(PYTHON_REPO);
    const lost = await reserveFor(refused.task);
    await leases.release(lost.id, lost.fencingToken); // e.g. the request was cancelled meanwhile
    const bad = await runSeeded(
      { ...refused.task, reservedLeases: [leaseRef(lost)] },
      { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] },
      { services: { leases } },
    );
    expect([S[bad.result.status!], failedStepName(bad.result.failedStep)]).toEqual(['HARD_FAIL', 'claim']);
    expect(bad.result.notes!.join('\n')).toMatch(/lease lost/);
    // The claim comes before the push: no branch looks finished without its leases.
    expect(await remoteBranchSha(refused.url, `agt/${refused.task.id}`)).toBeUndefined();
  });

  test('one malformed answer from the model is asked again: the task succeeds and its notes say so', async () => {
    const { task, url } = await seedTask(PYTHON_REPO);
    const { result, model } = await runSeeded(
      task,
      { chat: [{ fault: { malformed: true } }, { answer: { diff: PY_ADD_MULTIPLY } }] },
      (baseURL) => ({ services: { model: createPatchModel({ baseURL, apiKey: 'k', model: 'coder', maxRetries: 2 }) } }),
    );
    expect([S[result.status!], result.attempts]).toEqual(['SUCCESS', 1]);
    expect(result.notes).toContain('model answer malformed, retried 1x');
    expect(model.requests.map((r) => r.outcome)).toEqual(['malformed', 'answer']);
    expect(await remoteBranchSha(url, `agt/${task.id}`)).toBe(result.commitSha);
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
        { services: { rag } },
      );
      expect(S[result.status!]).toBe('SUCCESS');
      expect(prompts[0]).toContain('FILE: utils/strings.py');
    } finally {
      await qdrant.close();
    }
  });
});

describe("a task's branch is its own", () => {
  const script: ModelScript = { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] };

  test('a foreign commit already on agt/<task> is neither reported nor overwritten, even with this task’s trailers', async () => {
    for (const [messageOf, why] of [
      [() => 'hand-made fix\n', /no Farm-Task trailer/],
      [() => 'feat(x): y\n\nFarm-Task: another-task\nFarm-Dispatch: 1\nFarm-Change-Request: cr-x\n', /another-task/],
      // Trailers are text: someone who may push types this task's own, as if an earlier dispatch had pushed it.
      [
        (t: farm.v1.ICodingTask) =>
          `fix(${t.id}): y\n\nFarm-Task: ${t.id}\nFarm-Dispatch: 1\nFarm-Change-Request: ${t.changeRequestId}\n`,
        /trailers name dispatch 1 of this task, but the farm has no record of making it/,
      ],
    ] as const) {
      const { url, baseCommit, task } = await seedTask(PYTHON_REPO);
      const foreign = await pushCommitOf(url, baseCommit, `agt/${task.id}`, messageOf(task));
      const { result, model } = await runSeeded(task, script, { services: { leases } });
      expect([S[result.status!], failedStepName(result.failedStep), result.commitSha ?? '']).toEqual([
        'HARD_FAIL',
        'branch',
        '',
      ]);
      expect(result.notes!.join('\n')).toMatch(
        new RegExp(`holds commit ${foreign.slice(0, 12)}, which this task did not make`),
      );
      expect(result.notes!.join('\n')).toMatch(why);
      expect(model.requests).toHaveLength(0); // no work done for a branch it could not deliver
      expect(await remoteBranchSha(url, `agt/${task.id}`)).toBe(foreign);
    }
  });

  test('a push the remote refuses (its pre-receive hook) ends the task at once with the remote’s words, leases given back', async () => {
    const { url, task } = await seedTask(PYTHON_REPO);
    const lease = await reserveFor(task);
    const hook = path.join(git.gitDirFor(url)!, 'hooks', 'pre-receive');
    await writeFile(hook, '#!/bin/sh\necho "pushes to agt/* are frozen until Monday" >&2\nexit 1\n', { mode: 0o755 });
    const { result } = await runSeeded({ ...task, reservedLeases: [leaseRef(lease)] }, script, {
      services: { leases, commits: leases },
    });
    // Not SOFT_FAIL: another dispatch would be refused the same way.
    expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['HARD_FAIL', 'push']);
    expect(result.notes!.join('\n')).toMatch(/pre-receive hook declined.*\n?.*frozen until Monday/s);
    expect(await remoteBranchSha(url, `agt/${task.id}`)).toBeUndefined();
    expect(await leases.liveLeases({ holder: task.id! })).toEqual([]);
  });

  test('a foreign commit pushed while the agent works makes its push fail, not succeed with that commit', async () => {
    const { url, baseCommit, task } = await seedTask(PYTHON_REPO);
    const lease = await reserveFor(task);
    const model = await startScriptedModelServer({ script });
    try {
      const deps = agentDeps(model.baseURL, { services: { leases } });
      const real = deps.services.model;
      let foreign = '';
      // Someone pushes to the task's branch while the model is thinking.
      deps.services.model = {
        proposePatch: async (messages) => {
          foreign = await pushCommitOf(url, baseCommit, `agt/${task.id}`, 'quick fix by hand\n');
          return real.proposePatch(messages);
        },
      };
      const result = await runCodingTask({ ...task, reservedLeases: [leaseRef(lease)] }, deps);
      expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['HARD_FAIL', 'branch']);
      expect(result.commitSha).not.toBe(foreign);
      expect(await remoteBranchSha(url, `agt/${task.id}`)).toBe(foreign);
      expect(await leases.liveLeases({ holder: task.id! })).toEqual([]); // given back on the HARD_FAIL
    } finally {
      await model.close();
    }
  });

  test('an agent re-run after its own push (later dispatch) completes with that commit and claims the leases', async () => {
    const { url, task } = await seedTask(PYTHON_REPO);
    const lease = await reserveFor(task);
    const withLease = { ...task, reservedLeases: [leaseRef(lease)] };
    // Dispatch 1 recorded and pushed its commit, and died before its claim and its result (no leases service).
    const first = await runSeeded(withLease, script);
    expect(S[first.result.status!]).toBe('SUCCESS');
    const pushed = await readRemoteBranchCommit(url, `agt/${task.id}`);
    expect(pushed!.message).toMatch(
      new RegExp(`Farm-Task: ${task.id}\nFarm-Dispatch: 1\nFarm-Change-Request: ${task.changeRequestId}`),
    );
    expect((await leases.liveLeases({ holder: task.id! }))[0].state).toBe('ACTIVE');

    const again = await runSeeded({ ...withLease, dispatch: 2 }, { chat: [] }, { services: { leases } });
    expect([S[again.result.status!], again.result.commitSha, again.result.dispatch]).toEqual([
      'SUCCESS',
      first.result.commitSha,
      2,
    ]);
    expect(again.result.notes!.join('\n')).toMatch(/already held this task's commit from dispatch 1/);
    expect(again.model.requests).toHaveLength(0); // the work was not redone
    expect(await leases.liveLeases({ holder: task.id! })).toEqual([
      expect.objectContaining({ id: lease.id, state: 'CLAIMED', commitSha: first.result.commitSha }),
    ]);
  });

  test('a re-run whose claim is refused deletes its pushed branch and fails', async () => {
    const { url, task } = await seedTask(PYTHON_REPO);
    const lease = await reserveFor(task);
    const withLease = { ...task, reservedLeases: [leaseRef(lease)] };
    const first = await runSeeded(withLease, script); // pushed, never claimed
    expect(await remoteBranchSha(url, `agt/${task.id}`)).toBe(first.result.commitSha);
    await leases.release(lease.id); // the lease went meanwhile (request cancelled, or expired and re-granted)

    const again = await runSeeded({ ...withLease, dispatch: 2 }, { chat: [] }, { services: { leases } });
    expect([S[again.result.status!], failedStepName(again.result.failedStep)]).toEqual(['HARD_FAIL', 'claim']);
    expect(again.result.notes!.join('\n')).toMatch(new RegExp(`lease lost.*agt/${task.id} deleted`));
    expect(await remoteBranchSha(url, `agt/${task.id}`)).toBeUndefined();
  });
});

describe("a hostile repository's check changes nothing that is delivered", () => {
  /**
   * The repository's check commits a symlink to /etc/passwd and a binary on top of whatever the agent changed,
   * tags that commit, rewrites .git/config, then lets the tests pass.
   */
  const HOSTILE_CHECK = [
    'ln -sf /etc/passwd passwd',
    "printf '\\000\\001\\002\\377' > blob.bin",
    'git add -A',
    'git -c user.name=check -c user.email=check@example.com commit -qm "check: a few more files"',
    'git tag owned',
    'git config user.name evil',
  ].join('\n');

  test('the pushed commit is the base plus the task’s change; what the check committed is named in the notes', async () => {
    const { url, baseCommit, task } = await seedTask(
      { ...PYTHON_REPO, 'check.sh': `${HOSTILE_CHECK}\n` },
      { checkCommand: 'sh check.sh && python3 -m pytest -q -p no:cacheprovider' },
    );
    const { result } = await runSeeded(task, { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] });
    expect([S[result.status!], result.branchName]).toEqual(['SUCCESS', `agt/${task.id}`]);
    expect(await remoteBranchSha(url, `agt/${task.id}`)).toBe(result.commitSha);

    // What anyone fetching the branch gets, read with native git.
    const pushed = path.join(tmp, `pushed-${task.id}`);
    await gitCli(tmp, 'clone', '-q', '-b', `agt/${task.id}`, url, pushed);
    expect(await gitCli(pushed, 'rev-parse', 'HEAD^@')).toBe(baseCommit); // one commit, its parent the base
    expect(await gitCli(pushed, 'log', '-1', '--format=%B')).toMatch(new RegExp(`Farm-Task: ${task.id}$`, 'm'));
    expect(await gitCli(pushed, 'diff', '--name-status', baseCommit, 'HEAD')).toBe('M\tcalc.py');
    expect(await readFile(path.join(pushed, 'calc.py'), 'utf8')).toMatch(/def multiply\(a, b\):\n {4}return a \* b/);
    expect(await gitCli(tmp, 'ls-remote', url)).not.toMatch(/owned/);

    const notes = result.notes!.join('\n');
    expect(notes).toMatch(
      new RegExp(
        `a check moved HEAD from ${baseCommit.slice(0, 12)} to [0-9a-f]{12} \\(1 commit\\); they are not delivered`,
      ),
    );
    expect(notes).toMatch(/a check created refs: refs\/tags\/owned; they are not pushed/);
    expect(notes).toMatch(/a check changed \.git\/config/);
    // The result's diff is the change against the base: the check committed it, and it is still there.
    expect(result.report!.diff).toMatch(/^--- a\/calc\.py\n\+\+\+ b\/calc\.py\n/);
    expect(result.report!.diff).toMatch(/\+def multiply/);
    expect(result.report!.diff).not.toMatch(/passwd|blob\.bin/);
  });
});

describe('a check that destroys its own checkout', () => {
  test.each([
    ['removes .git', 'rm -rf .git', /the checkout's git data \(\.git\) no longer holds the base commit [0-9a-f]{12}/],
    [
      'deletes the files of the change',
      'find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +',
      /it deleted a file of the change: calc\.py/,
    ],
  ])('a check that %s ends the task at once naming the check as the cause', async (_what, destroy, why) => {
    const { url, task } = await seedTask(
      { ...PYTHON_REPO, 'check.sh': `${destroy}\n` },
      { checkCommand: 'sh check.sh' },
    );
    const { result, prompts } = await runSeeded(task, { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] });
    expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['HARD_FAIL', 'check']);
    const notes = result.notes!.join('\n');
    expect(notes).toMatch(/The check "[^"]+" \(`sh check\.sh`\) destroyed the checkout/);
    expect(notes).toMatch(why);
    expect(prompts).toHaveLength(1); // not three patch attempts
    expect(await remoteBranchSha(url, `agt/${task.id}`)).toBeUndefined();
  });

  test('a check that removes HEAD only: the change is delivered as made, the note says HEAD moved', async () => {
    const { url, baseCommit, task } = await seedTask(
      { ...PYTHON_REPO, 'check.sh': 'rm -f .git/HEAD\n' },
      { checkCommand: 'sh check.sh' },
    );
    const { result } = await runSeeded(task, { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] });
    expect(S[result.status!]).toBe('SUCCESS');
    expect(await remoteBranchSha(url, `agt/${task.id}`)).toBe(result.commitSha);
    expect(result.report!.diff).toMatch(/\+def multiply/);
    expect(result.notes!.join('\n')).toContain(`a check moved HEAD from ${baseCommit.slice(0, 12)} to no commit`);
  });
});

test('an srm that cannot answer the claim: SOFT_FAIL (dispatched again), nothing pushed, the leases kept', async () => {
  const { url, task } = await seedTask(PYTHON_REPO);
  const lease = await reserveFor(task);
  // The srm is down: claims fail as the HTTP client reports an outage; what reaches it goes to the real srm.
  const srmDown = {
    claim: async () => Promise.reject(new SrmUnavailable('srm unreachable')),
    release: (id: string, token?: string) => leases.release(id, token),
  };
  const { result } = await runSeeded(
    { ...task, reservedLeases: [leaseRef(lease)] },
    { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] },
    { services: { leases: srmDown } },
  );
  expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SOFT_FAIL', 'claim']);
  expect(await remoteBranchSha(url, `agt/${task.id}`)).toBeUndefined();
  // The next dispatch claims with the same fencing token, so the lease must still be held.
  expect(await leases.liveLeases({ holder: task.id! })).toEqual([expect.objectContaining({ state: 'ACTIVE' })]);
});

test('a git host that fails the push (503): SOFT_FAIL (dispatched again), not a hard failure', async () => {
  const { url, task } = await seedTask(PYTHON_REPO);
  // Clones pass through; every push is answered 503, as a host in trouble answers.
  const flaky = await startGitProxy(git.url, (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/git-receive-pack')) return false;
    req.resume();
    res.writeHead(503).end('busy\n');
    return true;
  });
  try {
    const { result } = await runSeeded(
      { ...task, repo: { ...task.repo, url: flaky.url(url) } },
      { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] },
    );
    expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SOFT_FAIL', 'push']);
    expect(result.notes?.join('\n')).toMatch(/push failed: .*503/);
    expect(await remoteBranchSha(url, `agt/${task.id}`)).toBeUndefined();
  } finally {
    flaky.close();
  }
});

test('a git host in trouble at clone time (500): SOFT_FAIL (dispatched again); a missing base ref is HARD_FAIL', async () => {
  const { task } = await seedTask(PYTHON_REPO);
  const broken = await startGitProxy(git.url, (req, res) => {
    req.resume();
    res.writeHead(500).end('internal error\n');
    return true;
  });
  try {
    const { result } = await runSeeded(
      { ...task, repo: { ...task.repo, url: broken.url(task.repo!.url!) } },
      { chat: [] },
    );
    expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SOFT_FAIL', 'clone']);
    expect(result.notes?.[0]).toMatch(/^clone failed: .*500/);
  } finally {
    broken.close();
  }
  const { result } = await runSeeded({ ...task, repo: { ...task.repo, baseRef: 'no-such-branch' } }, { chat: [] });
  expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['HARD_FAIL', 'clone']);
});

test('a pool worker consumes a task from the task topic and publishes its CommitResult', async () => {
  const url = await git.createBareRepo('pool.git');
  const baseCommit = await seedBareRepo({ url, files: PYTHON_REPO, message: 'initial' });
  const model = await startScriptedModelServer({ script: { chat: [{ answer: { diff: PY_ADD_MULTIPLY } }] } });
  const bus = new InProcessBus();
  try {
    const results: farm.v1.CommitResult[] = [];
    await bus.subscribe(Topics.commitResults, 'test', async (r) => void results.push(r));
    await startAgentWorker(bus, agentDeps(model.baseURL, { settings: { maxRetries: 0 } }));

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
