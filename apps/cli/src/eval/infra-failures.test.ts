import { farmInfraFailure, isNetworkTrouble, type TaskEnd } from './infra-failures';

const failed = (reason = 'task item-1 HARD_FAIL: ...') => ({
  phase: 'FAILED',
  reason,
  integrationBranch: '',
  costUsd: 0,
  tokens: { prompt: 0, completion: 0, total: 0 },
});

const task = (failedStep: string, note: string, over: Partial<TaskEnd> = {}): TaskEnd => ({
  taskId: 'item-1',
  status: 'HARD_FAIL',
  notes: note,
  reports: [{ status: 'HARD_FAIL', failedStep, notes: [note] }],
  ...over,
});

describe("the farm's or the environment's failures, told apart from the agent's", () => {
  test('the model server unreachable: the farm could not ask the model, so nothing was judged', () => {
    expect(farmInfraFailure(failed(), [task('llm', 'model unavailable: connect ECONNREFUSED 127.0.0.1:8080')])).toBe(
      'task item-1 failed at llm (the model server could not be reached): model unavailable: connect ECONNREFUSED 127.0.0.1:8080',
    );
  });

  test('the sandbox not ready, its probe timed out on a busy machine, a check that cannot run here', () => {
    expect(farmInfraFailure(failed(), [task('check', 'the sandbox runner did not answer')])).toMatch(
      /failed at check \(the sandbox is not ready\)/,
    );
    expect(
      farmInfraFailure(failed(), [
        task(
          'check',
          'the sandbox probe did not answer in time (attempts of 10 s, 30 s): unshare --user true; the machine is busy; waited 10 min for it',
        ),
      ]),
    ).toMatch(/failed at check \(the sandbox probe timed out\)/);
  });

  test("a clone, a push, the agent's process dying, a launch that failed (no report: the orchestrator decided)", () => {
    for (const step of ['clone', 'push', 'claim', 'agent-died', 'agent', 'budget-environment']) {
      expect(farmInfraFailure(failed(), [task(step, `${step} went wrong`)])).toMatch(`failed at ${step} (`);
    }
    const launch = task('', 'launcher failed: no slot', { reports: [] });
    expect(farmInfraFailure(failed(), [launch])).toBe('task item-1 was never started: launcher failed: no slot');
  });

  test('a message the farm gave up on (dead-lettered) is the farm failing', () => {
    expect(farmInfraFailure(failed('planning failed: code-planner gave up on farm.plans.v1: ECONNRESET'), [])).toBe(
      'the farm failed: planning failed: code-planner gave up on farm.plans.v1: ECONNRESET',
    );
  });

  test("the agent's own failures stay the agent's: its budget, its reviewer, its diffs, a model that answered badly", () => {
    for (const [step, note] of [
      ['budget', 'the step budget ran out'],
      ['review', 'the reviewer did not approve within 2 rounds'],
      ['attempts', 'the diff does not apply after 3 attempts'],
      ['verify', 'no test verifies the change'],
      ['llm', 'the model server context (8192 tokens) cannot hold the conversation'],
      ['deadline', 'no result within 1800 s'],
    ]) {
      expect(farmInfraFailure(failed(), [task(step, note)])).toBeUndefined();
    }
    expect(farmInfraFailure(failed('merge conflict in a.py'), [])).toBeUndefined();
    expect(farmInfraFailure(failed('build failed: 2 tests fail'), [])).toBeUndefined();
  });

  test("the last dispatch decides: an earlier one's outage, then the agent's own budget, is the agent's", () => {
    const retried = task('budget', 'the step budget ran out', {
      reports: [
        { status: 'SOFT_FAIL', failedStep: 'clone', notes: ['clone failed: the git server did not answer'] },
        { status: 'HARD_FAIL', failedStep: 'budget', notes: ['the step budget ran out'] },
      ],
    });
    expect(farmInfraFailure(failed(), [retried])).toBeUndefined();
    // a task that succeeded is not looked at; another that failed for its environment is
    const ok = task('clone', 'clone failed', { taskId: 'item-1', status: 'SUCCESS' });
    const second = task('llm', 'model unavailable: 503 Service Unavailable', { taskId: 'item-2' });
    expect(farmInfraFailure(failed(), [ok, second])).toMatch(/^task item-2 failed at llm/);
    expect(farmInfraFailure({ ...failed(), phase: 'DONE' }, [second])).toBeUndefined();
  });
});

test("the network's failures (a host that does not answer) are told from a wrong address", () => {
  expect(
    isNetworkTrouble(
      "fatal: unable to access 'https://github.com/pallets/flask.git/': Could not resolve host: github.com",
    ),
  ).toBe(true);
  expect(isNetworkTrouble('error: RPC failed; curl 56 GnuTLS recv error (-9)\nfatal: early EOF')).toBe(true);
  expect(isNetworkTrouble("fatal: repository 'https://github.com/a/nope.git/' not found")).toBe(false);
  expect(isNetworkTrouble("fatal: '--upload-pack=touch x' does not appear to be a git repository")).toBe(false);
});
