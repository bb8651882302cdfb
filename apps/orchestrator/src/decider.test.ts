import { farm } from '@farm/proto';
import {
  decide,
  expireDeadlines,
  IllegalMove,
  type Decision,
  type DeciderEvent,
  type DeciderOptions,
  type RequestRecord,
  type RequestState,
  type TaskRecord,
} from './decider';
import { canMove } from './phases';

const P = farm.v1.Phase;
const S = farm.v1.CommitStatus;
const T = farm.v1.TaskState;
const options: DeciderOptions = { parallelism: 4, maxDispatches: 2, taskDeadlineMs: 60_000 };

function request(phase: farm.v1.Phase, tasks: TaskRecord[] = []): RequestState {
  return {
    request: {
      id: 'cr',
      phase,
      repoUrl: 'git://r',
      baseRef: 'main',
      baseCommit: 'base0',
      checkCommand: 'make',
      integrationBranch: '',
    },
    tasks,
  };
}

function task(id: string, status: farm.v1.TaskState, more: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    status,
    dispatch: status === T.TASK_PENDING ? 0 : 1,
    dependsOn: [],
    task: { id, changeRequestId: 'cr', goal: `do ${id}`, repo: { url: 'git://r', baseRef: 'main' } },
    branch: status === T.TASK_SUCCESS ? `farm/${id}` : '',
    commitSha: status === T.TASK_SUCCESS ? `sha-${id}` : '',
    costUsd: 0,
    ...more,
  };
}

/** One event, decided in one pass: what it made ready is started in the same decision. */
const run = (state: RequestState, event: DeciderEvent, opts = options): Decision[] => [decide(state, event, opts)];

const result = (taskId: string, status: farm.v1.CommitStatus, more: Partial<farm.v1.ICommitResult> = {}) => ({
  kind: 'commit-result' as const,
  result: { taskId, changeRequestId: 'cr', status, dispatch: 1, notes: ['why'], ...more },
});
const launched = (ds: Decision[]) => ds.flatMap((d) => d.effects).flatMap((e) => (e.kind === 'launch' ? [e.task] : []));
const phases = (ds: Decision[]) => ds.flatMap((d) => d.updates).flatMap((u) => (u.kind === 'move' ? [u.to] : []));
const statusOf = (ds: Decision[], id: string) => ds.at(-1)!.state.tasks.find((t) => t.id === id)!.status;

describe('the orchestrator decider', () => {
  it('receives a change request once and starts planning', () => {
    const event: DeciderEvent = {
      kind: 'change-request',
      changeRequest: { changeRequestId: 'cr', title: ' t ', repo: { url: 'https://git.example/r.git' } },
    };
    const first = decide({ tasks: [] }, event, options);
    expect(first.updates[0]).toMatchObject({ kind: 'insert-request' });
    expect(phases([first])).toEqual([P.RECEIVED, P.PLANNING]);
    // The planners get the request as admitted: trimmed, defaults filled in.
    const accepted = first.events.flatMap((e) => (e.kind === 'accepted-request' ? [e.request] : []));
    expect(accepted).toEqual([
      expect.objectContaining({
        changeRequestId: 'cr',
        title: 't',
        repo: expect.objectContaining({ baseRef: 'main' }),
      }),
    ]);
    expect(decide(first.state, event, options).updates).toEqual([]);
  });

  it('admits what the HTTP API admits: a title "0", a description "0"', () => {
    const changeRequest = { changeRequestId: 'cr', title: '0', description: '0', repo: { url: 'https://h.example/r' } };
    const d = decide({ tasks: [] }, { kind: 'change-request', changeRequest }, options);
    expect(phases([d])).toEqual([P.RECEIVED, P.PLANNING]);
  });

  it.each([
    ['without a title', { changeRequestId: 'cr', repo: { url: 'https://git.example/r.git' } }, 'title is required'],
    ['with an empty repo.url', { changeRequestId: 'cr', title: 't', repo: { url: '' } }, 'repo.url is required'],
    ['with only an id', { changeRequestId: 'cr' }, 'title is required'],
    ['with an ftp:// repository', { changeRequestId: 'cr', title: 't', repo: { url: 'ftp://h/r' } }, 'http(s)'],
    [
      'with a local path (only the HTTP API of farm up may map those)',
      { changeRequestId: 'cr', title: 't', repo: { url: '/srv/r' } },
      'repo.url',
    ],
  ])('refuses a change request %s: FAILED with the reason, never planned', (_name, changeRequest, reason) => {
    const d = decide({ tasks: [] }, { kind: 'change-request', changeRequest }, options);
    expect(phases([d])).toEqual([P.RECEIVED, P.FAILED]);
    const failed = d.updates.find((u) => u.kind === 'move' && u.to === P.FAILED);
    expect(failed).toMatchObject({ reason: expect.stringContaining(reason) });
    expect(d.events.some((e) => e.kind === 'accepted-request')).toBe(false);
    expect(d.effects).toContainEqual({ kind: 'release-leases', changeRequestId: 'cr', phase: P.FAILED });
  });

  it('dead-letters a change request without a usable id: there is nothing to record it under', () => {
    for (const changeRequest of [
      { title: 't', repo: { url: 'https://h/r' } },
      { changeRequestId: 'a/../b', title: 't' },
    ]) {
      expect(() => decide({ tasks: [] }, { kind: 'change-request', changeRequest }, options)).toThrow(/refused/);
    }
  });

  it('fails a request whose planning or build message was dead-lettered, and only then', () => {
    const letter = (sourceTopic: string) => ({
      kind: 'dead-letter' as const,
      letter: { sourceTopic, group: 'code-planner', error: 'connect ECONNREFUSED 10.0.0.1:443\nstack' },
    });
    const planning = decide(request(P.PLANNING), letter('farm.plans.v1'), options);
    expect(phases([planning])).toEqual([P.FAILED]);
    expect(planning.updates).toContainEqual(
      expect.objectContaining({
        kind: 'move',
        reason: 'planning failed: code-planner gave up on farm.plans.v1: connect ECONNREFUSED 10.0.0.1:443',
      }),
    );
    expect(phases([decide(request(P.BUILD), letter('farm.build-requests.v1'), options)])).toEqual([P.FAILED]);
    // A request that moved on, or waits for another topic, is left alone.
    expect(decide(request(P.CODING), letter('farm.plans.v1'), options).updates).toEqual([]);
    expect(decide(request(P.DONE), letter('farm.build-requests.v1'), options).updates).toEqual([]);
    expect(decide(request(P.PLANNING), letter('farm.commit-results.v1'), options).updates).toEqual([]);
  });

  it('fails a request that outlived its phase, unless it moved on meanwhile', () => {
    const expired = decide(
      request(P.PLANNING),
      { kind: 'phase-expired', phase: P.PLANNING, limitMs: 900_000 },
      options,
    );
    expect(expired.updates).toContainEqual(
      expect.objectContaining({ kind: 'move', to: P.FAILED, reason: 'PLANNING did not end within 900 s' }),
    );
    const moved = decide(request(P.CODING), { kind: 'phase-expired', phase: P.PLANNING, limitMs: 900_000 }, options);
    expect(moved.updates).toEqual([]);
  });

  it('orders tasks by their dependencies and starts a dependent task from its dependency commit', () => {
    const bundle = {
      kind: 'task-bundle' as const,
      bundle: {
        changeRequestId: 'cr',
        repo: { url: 'git://r', baseCommit: 'base0' },
        tasks: [
          { id: 'b', dependsOn: ['a'], repo: { url: 'git://r', baseRef: 'main' } },
          { id: 'a', repo: { url: 'git://r', baseRef: 'main' } },
        ],
      },
    };
    const planned = run(request(P.PLANNING), bundle);
    expect(phases(planned)).toEqual([P.CODING]);
    expect(launched(planned).map((t) => t.id)).toEqual(['a']);

    const afterA = run(planned.at(-1)!.state, result('a', S.SUCCESS, { branchName: 'farm/a', commitSha: 'sha-a' }));
    const [b] = launched(afterA);
    expect(b).toMatchObject({ id: 'b', dispatch: 1, repo: { baseRef: 'farm/a', baseCommit: 'sha-a' } });
  });

  it('never runs more tasks at once than the parallelism allows', () => {
    const state = request(P.CODING, [
      task('a', T.TASK_DISPATCHED),
      task('b', T.TASK_PENDING),
      task('c', T.TASK_PENDING),
    ]);
    const d = decide(state, { kind: 'dispatch-ready' }, { ...options, parallelism: 2 });
    expect(launched([d]).map((t) => t.id)).toEqual(['b']);
  });

  it('re-dispatches a SOFT_FAIL with its notes until maxDispatches, then fails the request', () => {
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED)]);
    const retried = run(state, result('a', S.SOFT_FAIL, { notes: ['tests red'] }));
    const [again] = launched(retried);
    expect(again).toMatchObject({ id: 'a', dispatch: 2, priorNotes: ['dispatch 1: tests red'] });

    const final = run(retried.at(-1)!.state, result('a', S.SOFT_FAIL, { dispatch: 2, notes: ['still red'] }));
    expect(phases(final)).toEqual([P.FAILED]);
    expect(final[0].updates.find((u) => u.kind === 'move')).toMatchObject({ reason: 'task a SOFT_FAIL: still red' });
  });

  it('re-dispatches an unverified change (STEP_VERIFY) with its reason, and keeps what verified it for the API', () => {
    const verification = {
      testsOnly: true,
      unverifiedReason: 'the goal asks for behaviour, but the change only adds or changes tests',
      differential: { testFiles: ['t_test.py'], base: farm.v1.TestRunOutcome.TEST_RUN_PASSED },
    };
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED)]);
    const notes = ['not verified: tests only'];
    const [d] = run(
      state,
      result('a', S.SOFT_FAIL, { failedStep: farm.v1.FailedStep.STEP_VERIFY, notes, verification }),
    );
    expect(launched([d])).toEqual([
      expect.objectContaining({ id: 'a', dispatch: 2, priorNotes: ['dispatch 1: not verified: tests only'] }),
    ]);
    expect(d.updates.find((u) => u.kind === 'set-verification')).toEqual({
      kind: 'set-verification',
      taskId: 'a',
      verification: { ...verification, differential: { testFiles: ['t_test.py'], base: 'TEST_RUN_PASSED' } },
    });
  });

  it('re-dispatches a task whose agent died (agent-died) while dispatches are left, then fails the request', () => {
    const died = (dispatch: number) =>
      result('a', S.SOFT_FAIL, {
        dispatch,
        failedStep: farm.v1.FailedStep.STEP_AGENT_DIED,
        notes: ['agent process killed by SIGKILL'],
      });
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED), task('b', T.TASK_DISPATCHED)]);
    const retried = run(state, died(1));
    expect(launched(retried)).toEqual([
      expect.objectContaining({ id: 'a', dispatch: 2, priorNotes: ['dispatch 1: agent process killed by SIGKILL'] }),
    ]);
    expect(phases(retried)).toEqual([]);

    const final = run(retried.at(-1)!.state, died(2));
    expect(launched(final)).toEqual([]);
    expect(phases(final)).toEqual([P.FAILED]);
  });

  it.each([farm.v1.FailedStep.STEP_BUDGET, farm.v1.FailedStep.STEP_REVIEW])(
    'does not re-dispatch a SOFT_FAIL of the %s step',
    (failedStep) => {
      const state = request(P.CODING, [task('a', T.TASK_DISPATCHED), task('b', T.TASK_DISPATCHED)]);
      const d = run(state, result('a', S.SOFT_FAIL, { failedStep }));
      expect(launched(d)).toEqual([]);
      expect(phases(d)).toEqual([P.FAILED]);
    },
  );

  it('re-dispatches a budget stop the environment caused (its checks timed out), with the reason', () => {
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED), task('b', T.TASK_DISPATCHED)]);
    const reason =
      'step budget used up: 40 model calls, the limit is 40; meanwhile check test timed out after 600 s: run again';
    const d = run(
      state,
      result('a', S.SOFT_FAIL, { failedStep: farm.v1.FailedStep.STEP_BUDGET_ENVIRONMENT, notes: [reason] }),
    );
    expect(launched(d)).toEqual([
      expect.objectContaining({ id: 'a', dispatch: 2, priorNotes: [`dispatch 1: ${reason}`] }),
    ]);
    expect(phases(d)).toEqual([]);
  });

  it('fails the request on a HARD_FAIL and cancels the other tasks', () => {
    const state = request(P.CODING, [
      task('a', T.TASK_DISPATCHED),
      task('b', T.TASK_DISPATCHED),
      task('c', T.TASK_PENDING),
    ]);
    const [d] = run(state, result('a', S.HARD_FAIL, { notes: ['broken'] }));
    expect(phases([d])).toEqual([P.FAILED]);
    expect(d.updates.filter((u) => u.kind === 'cancel-task').map((u) => u.kind === 'cancel-task' && u.taskId)).toEqual([
      'b',
      'c',
    ]);
    expect(d.effects).toEqual([
      { kind: 'cancel-launcher', changeRequestId: 'cr' },
      { kind: 'release-leases', changeRequestId: 'cr', phase: P.FAILED },
    ]);
  });

  it('ignores a late result of an earlier dispatch', () => {
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED, { dispatch: 2 })]);
    const d = decide(state, result('a', S.HARD_FAIL, { dispatch: 1 }), options);
    expect([d.updates, d.events, d.effects]).toEqual([[], [], []]);
  });

  it('turns a task past its deadline into a failed attempt of the running dispatch', () => {
    const running = [
      { id: 'late', changeRequestId: 'cr', dispatch: 1, deadlineAtMs: 1_000 },
      { id: 'on-time', changeRequestId: 'cr', dispatch: 1, deadlineAtMs: 5_000 },
    ];
    expect(expireDeadlines(running, 2_000).map((t) => t.id)).toEqual(['late']);
    const state = request(P.CODING, [task('late', T.TASK_DISPATCHED), task('on-time', T.TASK_DISPATCHED)]);
    const d = decide(state, { kind: 'task-expired', taskId: 'late', dispatch: 1 }, options);
    // Stopped first, then counted as a SOFT_FAIL deadline of dispatch 1 and started again with that note.
    expect(d.effects.map((e) => e.kind)).toEqual(['stop-task', 'launch']);
    expect(d.effects[0]).toEqual({ kind: 'stop-task', taskId: 'late', changeRequestId: 'cr' });
    expect(d.results).toEqual([T.TASK_SOFT_FAIL]);
    expect(launched([d])).toEqual([
      expect.objectContaining({
        id: 'late',
        dispatch: 2,
        priorNotes: ['dispatch 1: no result within the task deadline of 60 s'],
      }),
    ]);
    // A later dispatch, or a task that reported meanwhile, is left alone.
    const stale = decide(state, { kind: 'task-expired', taskId: 'late', dispatch: 2 }, options);
    expect([stale.updates, stale.events, stale.effects]).toEqual([[], [], []]);
  });

  it('fails the request when the launcher could not start a task (HARD_FAIL launch), decided at once', () => {
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED), task('b', T.TASK_DISPATCHED)]);
    const d = decide(state, { kind: 'launch-failed', taskId: 'a', dispatch: 1, error: 'no such image' }, options);
    expect(statusOf([d], 'a')).toBe(T.TASK_HARD_FAIL);
    expect(d.updates).toContainEqual(
      expect.objectContaining({ kind: 'finish-task', taskId: 'a', notes: 'launcher failed: no such image' }),
    );
    expect(d.updates.find((u) => u.kind === 'move')).toMatchObject({
      to: P.FAILED,
      reason: 'task a HARD_FAIL: launcher failed: no such image',
    });
    expect(statusOf([d], 'b')).toBe(T.TASK_CANCELLED);
  });

  it('cancels a running request: CANCELLED, running tasks stopped, leases released', () => {
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED), task('b', T.TASK_SUCCESS)]);
    const cancel = {
      kind: 'cancel' as const,
      command: { changeRequestId: 'cr', action: farm.v1.ControlAction.CANCEL, requestedBy: 'ann', reason: 'no' },
    };
    const d = decide(state, cancel, options);
    expect(d.updates[0]).toMatchObject({ kind: 'move', to: P.CANCELLED, reason: 'cancelled by ann: no' });
    expect(statusOf([d], 'a')).toBe(T.TASK_CANCELLED);
    expect(statusOf([d], 'b')).toBe(T.TASK_SUCCESS);
    expect(d.effects.map((e) => e.kind)).toEqual(['cancel-launcher', 'release-leases']);

    const again = decide(d.state, cancel, options);
    expect([again.updates, again.events, again.effects]).toEqual([[], [], []]);
  });

  it('moves to BUILD with a build request of every branch once all tasks succeeded', () => {
    const state = request(P.CODING, [task('a', T.TASK_SUCCESS), task('b', T.TASK_DISPATCHED)]);
    const [d] = run(state, result('b', S.SUCCESS, { branchName: 'farm/b', commitSha: 'sha-b' }));
    expect(phases([d])).toEqual([P.BUILD]);
    expect(d.events.at(-1)).toEqual({
      kind: 'build-request',
      request: {
        changeRequestId: 'cr',
        repo: { url: 'git://r', baseRef: 'main', baseCommit: 'base0' },
        branches: ['farm/a', 'farm/b'],
        commits: ['sha-a', 'sha-b'], // what each task reported: the build merges these
        checkCommand: 'make',
      },
    });
  });

  it("a one-task request's build request carries what the task passed, and on which tree", () => {
    const verification = { checks: [{ name: 'check', run: 'make', ok: true }], treeSha: 'tree-a' };
    const [d] = run(
      request(P.CODING, [task('a', T.TASK_DISPATCHED)]),
      result('a', S.SUCCESS, { branchName: 'agt/a', commitSha: 'sha-a', verification }),
    );
    expect(d.events.at(-1)).toMatchObject({
      kind: 'build-request',
      request: { branches: ['agt/a'], verifications: [verification], taskIds: ['a'] },
    });
    // two tasks: the build checks a merge neither ran on
    const [two] = run(
      request(P.CODING, [task('a', T.TASK_SUCCESS, { verification }), task('b', T.TASK_DISPATCHED)]),
      result('b', S.SUCCESS, { branchName: 'agt/b', commitSha: 'sha-b', verification }),
    );
    const build = two.events.at(-1) as { request: farm.v1.IBuildRequest };
    expect([build.request.verifications, build.request.taskIds]).toEqual([undefined, undefined]);
  });

  it("a follow-up's build pushes to the branch the request named", () => {
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED)]);
    state.request!.integrationBranch = 'farm/pr-1';
    const [d] = run(state, result('a', S.SUCCESS, { branchName: 'agt/a', commitSha: 'sha-a' }));
    expect(d.events.at(-1)).toMatchObject({ kind: 'build-request', request: { integrationBranch: 'farm/pr-1' } });
  });

  it.each([
    [{ status: farm.v1.BuildStatus.BUILD_PASSED, integrationBranch: 'farm/int' }, P.DONE, 'build passed on farm/int'],
    [{ status: farm.v1.BuildStatus.BUILD_FAILED, notes: ['\nlint red'] }, P.FAILED, 'build failed: lint red'],
    [
      { status: farm.v1.BuildStatus.MERGE_CONFLICT, conflictingPaths: ['a.ts', 'b.ts'] },
      P.FAILED,
      'merge conflict in a.ts, b.ts',
    ],
  ])('ends the request on its build result %#', (build, phase, reason) => {
    const d = decide(
      request(P.BUILD, [task('a', T.TASK_SUCCESS)]),
      { kind: 'build-result', build: { changeRequestId: 'cr', ...build } },
      options,
    );
    expect(d.updates.find((u) => u.kind === 'move')).toMatchObject({ to: phase, reason });
    expect(d.effects).toEqual([{ kind: 'release-leases', changeRequestId: 'cr', phase }]);
  });

  it('takes back the farm’s branch a build pushed after its request was cancelled; a branch the user named stays', () => {
    const build = {
      kind: 'build-result' as const,
      build: {
        changeRequestId: 'cr',
        status: farm.v1.BuildStatus.BUILD_PASSED,
        integrationBranch: 'farm/cr',
        commitSha: 'sha-int',
      },
    };
    const cancelled = request(P.CANCELLED, [task('a', T.TASK_SUCCESS)]);
    const d = decide(cancelled, build, options);
    expect([d.updates, d.events]).toEqual([[], []]);
    expect(d.effects).toEqual([
      {
        kind: 'retract-integration-branch',
        changeRequestId: 'cr',
        repoUrl: cancelled.request!.repoUrl,
        branch: 'farm/cr',
        commitSha: 'sha-int',
      },
    ]);
    cancelled.request!.integrationBranch = 'farm/pr-7';
    expect(decide(cancelled, build, options).effects).toEqual([]);
    // Nothing to take back when the build pushed nothing, or the request ended otherwise.
    cancelled.request!.integrationBranch = '';
    expect(decide(cancelled, { ...build, build: { ...build.build, commitSha: '' } }, options).effects).toEqual([]);
    expect(decide(request(P.FAILED, [task('a', T.TASK_SUCCESS)]), build, options).effects).toEqual([]);
  });

  it('a cancel during BUILD takes back farm/<id> once the build has stopped; a branch the user named stays', () => {
    const cancel = {
      kind: 'cancel' as const,
      command: { changeRequestId: 'cr', action: farm.v1.ControlAction.CANCEL },
    };
    const building = request(P.BUILD, [task('a', T.TASK_SUCCESS)]);
    const d = decide(building, cancel, options);
    expect(d.updates[0]).toMatchObject({ kind: 'move', to: P.CANCELLED });
    expect(d.effects).toContainEqual({
      kind: 'retract-integration-branch',
      changeRequestId: 'cr',
      repoUrl: building.request!.repoUrl,
      branch: 'farm/cr',
    });
    building.request!.integrationBranch = 'farm/pr-7';
    expect(decide(building, cancel, options).effects.map((e) => e.kind)).not.toContain('retract-integration-branch');
    const coding = request(P.CODING, [task('a', T.TASK_DISPATCHED)]);
    expect(decide(coding, cancel, options).effects.map((e) => e.kind)).not.toContain('retract-integration-branch');
  });

  it('refuses illegal moves: events that do not fit the phase change nothing', () => {
    expect(canMove(P.DONE, P.RECEIVED)).toBe(false);
    expect(canMove(P.PLANNING, P.BUILD)).toBe(false);
    const coding = request(P.CODING, [task('a', T.TASK_DISPATCHED)]);
    const staleBuild = { kind: 'build-result' as const, build: { status: farm.v1.BuildStatus.BUILD_PASSED } };
    const staleBundle = { kind: 'task-bundle' as const, bundle: { changeRequestId: 'cr', tasks: [{ id: 'x' }] } };
    for (const event of [staleBuild, staleBundle]) {
      const d = decide(coding, event, options);
      expect([d.updates, d.events, d.effects]).toEqual([[], [], []]);
    }
    expect(new IllegalMove('cr', P.DONE, P.RECEIVED)).toMatchObject({ retryable: false });
  });

  it('fails a task the cost cap refuses as HARD_FAIL cost-cap instead of launching it, in the same decision', () => {
    const capped = { ...options, accounting: { requestMaxCostUsd: 0.5, lessons: false, lessonsPerTask: 0 } };
    const state = request(P.CODING, [task('a', T.TASK_DISPATCHED), task('b', T.TASK_PENDING, { dependsOn: ['a'] })]);
    const d = decide(state, result('a', S.SUCCESS, { costUsd: 0.6, branchName: 'farm/a', commitSha: 'sha-a' }), capped);
    expect(launched([d])).toEqual([]);
    expect(d.updates).toContainEqual({ kind: 'add-cost', taskId: 'a', costUsd: 0.6 });
    const reason = 'cost cap reached: the request has spent $0.6000 of its $0.5000 cap; task b not started';
    expect(d.updates).toContainEqual(
      expect.objectContaining({ kind: 'finish-task', taskId: 'b', status: T.TASK_HARD_FAIL, notes: reason }),
    );
    expect(d.events).toContainEqual({
      kind: 'transition',
      fields: expect.objectContaining({ taskId: 'b', taskState: T.TASK_HARD_FAIL, taskStatus: S.HARD_FAIL }),
    });
    expect(d.updates.find((u) => u.kind === 'move')).toMatchObject({
      to: P.FAILED,
      reason: `task b HARD_FAIL: ${reason}`,
    });
    expect(d.results).toEqual([T.TASK_SUCCESS, T.TASK_HARD_FAIL]);
    // Under the cap the same task starts.
    const roomy = { ...capped, accounting: { ...capped.accounting, requestMaxCostUsd: 1 } };
    expect(launched(run(state, result('a', S.SUCCESS, { costUsd: 0.6 }), roomy)).map((t) => t.id)).toEqual(['b']);
  });

  it("counts planning's cost once: kept with the request and part of its spend under the cost cap", () => {
    const planning = { calls: 2, promptTokens: 2200, completionTokens: 310, totalTokens: 2510, costUsd: 0.6 };
    const bundle = {
      kind: 'task-bundle' as const,
      bundle: { changeRequestId: 'cr', repo: { url: 'git://r', baseCommit: 'b0' }, tasks: [{ id: 'a' }], planning },
    };
    const capped = { ...options, accounting: { requestMaxCostUsd: 0.5, lessons: false, lessonsPerTask: 0 } };
    const [planned] = run(request(P.PLANNING), bundle, capped);
    expect(planned.updates).toContainEqual({ kind: 'set-planning-usage', usage: planning });
    expect(planned.state.request?.planningCostUsd).toBe(0.6);
    expect(launched([planned])).toEqual([]);
    expect(planned.updates).toContainEqual(
      expect.objectContaining({
        kind: 'finish-task',
        taskId: 'a',
        status: T.TASK_HARD_FAIL,
        notes: 'cost cap reached: the request has spent $0.6000 of its $0.5000 cap; task a not started',
      }),
    );
    // Under the cap the task starts; a bundle delivered again (the request has moved on) counts nothing more.
    const roomy = { ...capped, accounting: { ...capped.accounting, requestMaxCostUsd: 1 } };
    const started = run(request(P.PLANNING), bundle, roomy);
    expect(launched(started).map((t) => t.id)).toEqual(['a']);
    const again = decide(started.at(-1)!.state, bundle, roomy);
    expect(again.updates.filter((u) => u.kind === 'set-planning-usage')).toEqual([]);
  });

  it('gives a launched task the lessons of its repository most like it, the one just learned included', () => {
    const withLessons = { ...options, accounting: { requestMaxCostUsd: 0, lessons: true, lessonsPerTask: 3 } };
    const stored = { repoUrl: 'git://r', files: [], firstFailure: '', createdAt: '' };
    const state: RequestState = {
      ...request(P.CODING, [
        task('a', T.TASK_DISPATCHED),
        task('b', T.TASK_PENDING, {
          dependsOn: ['a'],
          task: { id: 'b', goal: 'lint the parser', repo: { url: 'git://r' } },
        }),
      ]),
      lessonCandidates: [
        { ...stored, taskId: 'old', goal: 'lint the parser module', fix: 'run the linter first' },
        { ...stored, taskId: 'other', goal: 'write docs', fix: 'none' },
      ],
    };
    const lesson = { taskId: 'a', repoUrl: 'git://r', goal: 'fix the parser', fix: 'read the grammar' };
    const d = decide(state, result('a', S.SUCCESS, { lesson }), withLessons);
    expect(d.lessons).toEqual([lesson]);
    const [t] = launched([d]);
    expect(t.lessons?.map((l) => l.fix)).toEqual(['run the linter first', 'read the grammar']);
    // A failed task's lesson is not kept; with lessons off none is kept or given.
    expect(decide(state, result('a', S.SOFT_FAIL, { lesson }), withLessons).lessons).toEqual([]);
    const off = decide(state, result('a', S.SUCCESS, { lesson }), options);
    expect([off.lessons, launched([off])[0].lessons]).toEqual([[], []]);
  });
});

describe("the decision's state", () => {
  // Every field set, to a value of its own: a field added to these types must be added here (the type check
  // says so), and one the decider then drops fails below.
  const everyRequestField: Required<RequestRecord> = {
    id: 'cr',
    phase: P.CODING,
    repoUrl: 'git://r-every-field',
    baseRef: 'release-7',
    baseCommit: 'base-every-field',
    checkCommand: 'make every-field',
    integrationBranch: 'farm/every-field',
    requireApproval: true,
    parallelism: 3,
    planningCostUsd: 0.0123,
  };
  const everyTaskField: Required<TaskRecord> = {
    ...task('a', T.TASK_DISPATCHED),
    branch: 'agt/a-every-field',
    commitSha: 'sha-every-field',
    costUsd: 0.4242,
    verification: { checks: [{ name: 'every-field', run: 'make every-field', ok: true }] },
  };
  const everyField: Required<RequestState> = {
    request: everyRequestField,
    tasks: [everyTaskField],
    lessonCandidates: [
      {
        taskId: 'old-task',
        repoUrl: 'git://r-every-field',
        goal: 'an old goal',
        files: ['src/every-field.ts'],
        firstFailure: 'it failed once',
        fix: 'and was fixed',
        createdAt: '2025-01-02T03:04:05.000Z',
      },
    ],
    taskCostHistory: { meanUsd: 0.1234, tasks: 17, of: 'farm' },
  };
  const events: [string, DeciderEvent][] = [
    ['nothing to start', { kind: 'dispatch-ready' }],
    ['a stale result', result('a', S.SUCCESS, { dispatch: 9 })],
    ['a cancel', { kind: 'cancel', command: { changeRequestId: 'cr', action: farm.v1.ControlAction.CANCEL } }],
  ];

  it.each(events)('keeps every field of the state it was given (%s)', (_what, event) => {
    const given = structuredClone(everyField);
    const { state } = decide(everyField, event, options);
    expect(Object.keys(state).sort()).toEqual(Object.keys(everyField).sort());
    expect(Object.keys(state.request!).sort()).toEqual(Object.keys(everyRequestField).sort());
    expect(Object.keys(state.tasks[0]).sort()).toEqual(Object.keys(everyTaskField).sort());
    expect([state.lessonCandidates, state.taskCostHistory]).toEqual([
      everyField.lessonCandidates,
      everyField.taskCostHistory,
    ]);
    expect(everyField).toEqual(given); // and leaves the caller's as it was
  });

  it('changes only what the event changes', () => {
    expect(decide(everyField, { kind: 'dispatch-ready' }, options).state).toEqual(everyField);
  });
});
