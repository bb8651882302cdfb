import { farm, parseTaskState, taskStateForCommitStatus, taskStateName } from './index';

const T = farm.v1.TaskState;
const S = farm.v1.CommitStatus;

describe('task state names', () => {
  it('are the enum names without TASK_, and empty when unset', () => {
    expect([T.TASK_PENDING, T.TASK_DISPATCHED, T.TASK_SUCCESS].map(taskStateName)).toEqual([
      'PENDING',
      'DISPATCHED',
      'SUCCESS',
    ]);
    expect([T.TASK_SOFT_FAIL, T.TASK_HARD_FAIL, T.TASK_CANCELLED].map(taskStateName)).toEqual([
      'SOFT_FAIL',
      'HARD_FAIL',
      'CANCELLED',
    ]);
    expect(taskStateName(T.TASK_STATE_UNSPECIFIED)).toBe('');
  });

  it('parse back to every state of the enum', () => {
    const states = Object.values(T).filter((v): v is farm.v1.TaskState => typeof v === 'number');
    expect(states).toHaveLength(7);
    for (const state of states) expect(parseTaskState(taskStateName(state))).toBe(state);
  });

  it('refuse what is not a short name, saying which are', () => {
    expect(() => parseTaskState('TASK_SUCCESS')).toThrow(/unknown task state "TASK_SUCCESS".*PENDING, DISPATCHED/);
    expect(() => parseTaskState('success')).toThrow(/unknown task state/);
    expect(() => taskStateName(99 as farm.v1.TaskState)).toThrow(/unknown task state 99/);
  });

  it('follow from a commit status: its final state, unset without one', () => {
    expect([S.SUCCESS, S.SOFT_FAIL, S.HARD_FAIL].map(taskStateForCommitStatus)).toEqual([
      T.TASK_SUCCESS,
      T.TASK_SOFT_FAIL,
      T.TASK_HARD_FAIL,
    ]);
    expect(taskStateForCommitStatus(S.COMMIT_STATUS_UNSPECIFIED)).toBe(T.TASK_STATE_UNSPECIFIED);
  });
});
