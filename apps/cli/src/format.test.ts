import { farm } from '@farm/proto';
import { formatRequest, formatTransition } from './format';

const P = farm.v1.Phase;
const t = (fields: Partial<farm.v1.IPhaseTransition>) => farm.v1.PhaseTransition.create(fields);

describe('a transition for people', () => {
  it("says a task's result and why, also when it goes back to PENDING to be re-dispatched", () => {
    const retried = {
      sequence: 9,
      toPhase: P.CODING,
      taskId: 'cr-a',
      taskState: farm.v1.TaskState.TASK_PENDING,
      taskStatus: farm.v1.CommitStatus.SOFT_FAIL,
      reason: 'task cr-a: SOFT_FAIL, re-dispatching with its notes (not verified after 3 attempt(s))',
    };
    expect(formatTransition(t(retried))).toBe(
      '  9    task cr-a: SOFT_FAIL, re-dispatching with its notes (not verified after 3 attempt(s))',
    );
    // a dispatch is not a result: its state name stays
    const dispatched = { ...retried, taskState: farm.v1.TaskState.TASK_DISPATCHED, taskStatus: 0 };
    expect(formatTransition(t({ ...dispatched, reason: 'task cr-a: dispatched (2)' }))).toBe(
      '  9    task cr-a: DISPATCHED',
    );
  });

  it('names a task state by its short name, else the commit status', () => {
    const task = { sequence: 7, toPhase: P.CODING, taskId: 'cr-a', branchName: 'agt/cr-a' };
    expect(formatTransition(t({ ...task, taskState: farm.v1.TaskState.TASK_SOFT_FAIL }))).toBe(
      '  7    task cr-a: SOFT_FAIL  agt/cr-a',
    );
    expect(formatTransition(t({ ...task, taskStatus: farm.v1.CommitStatus.HARD_FAIL }))).toBe(
      '  7    task cr-a: HARD_FAIL  agt/cr-a',
    );
  });

  it('shows a request-level move with its reason', () => {
    expect(formatTransition(t({ sequence: 12, toPhase: P.BUILD, reason: 'every task succeeded' }))).toBe(
      ' 12  BUILD     every task succeeded',
    );
  });
});

describe('formatRequest', () => {
  it("shows the request's pull request and the issue it came from", () => {
    const request = {
      id: 'cr-1',
      phase: 'DONE',
      title: 'Add multiply',
      repoUrl: 'https://gitea.example.com/team/app.git',
      baseRef: 'main',
      baseCommit: '',
      reason: 'build passed on farm/cr-1',
      integrationBranch: 'farm/cr-1',
      tasksDone: 1,
      tasksTotal: 1,
      attempts: 1,
      tokens: { prompt: 10, completion: 5, total: 15 },
      costUsd: 0,
      planning: { calls: 0, totalTokens: 0, costUsd: 0 },
      createdAt: '2026-11-24T00:00:00Z',
      updatedAt: '2026-11-24T00:00:00Z',
    };
    const text = formatRequest(request, [], {
      repo: 'team/app',
      issue: 7,
      pullRequest: { url: 'https://gitea.example.com/team/app/pulls/9' },
    });
    expect(text).toContain('pull:    https://gitea.example.com/team/app/pulls/9');
    expect(text).toContain('issue:   team/app#7');
    expect(formatRequest(request, [])).not.toContain('pull:');
    expect(formatRequest(request, [])).not.toContain('planning');
    const planned = { ...request, planning: { calls: 2, totalTokens: 900, costUsd: 0.0004 } };
    expect(formatRequest(planned, [])).toMatch(/effort: .*15 tokens .*; planning 2 call\(s\), 900 tokens, \$0\.0004/);
  });
});
