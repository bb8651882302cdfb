import { farm } from '@farm/proto';
import { transitionFromJson } from '@farm/farm-api';
import { transitionToJson } from './transition-json';

const P = farm.v1.Phase;
const T = farm.v1.TaskState;

describe('a phase transition as JSON', () => {
  it('reads as the example in docs/api.md: every field, taskState empty on a request-level event', () => {
    const t = farm.v1.PhaseTransition.create({
      changeRequestId: 'retry-1',
      fromPhase: P.PLANNING,
      toPhase: P.CODING,
      sequence: 3,
      reason: '1 task(s) at 4f2a...',
      atMs: 1700000000000,
    });
    expect(JSON.stringify(transitionToJson(t))).toBe(
      '{"changeRequestId":"retry-1","fromPhase":"PLANNING","toPhase":"CODING","sequence":3,"reason":"1 task(s) at 4f2a...","atMs":1700000000000,"taskId":"","taskStatus":"COMMIT_STATUS_UNSPECIFIED","branchName":"","taskState":""}',
    );
  });

  it('names a task state by its short name and reads it back', () => {
    const t = farm.v1.PhaseTransition.create({
      changeRequestId: 'cr',
      fromPhase: P.CODING,
      toPhase: P.CODING,
      sequence: 5,
      taskId: 'cr-a',
      taskStatus: farm.v1.CommitStatus.SUCCESS,
      branchName: 'agt/cr-a',
      taskState: T.TASK_SUCCESS,
    });
    const json = transitionToJson(t);
    expect(json).toMatchObject({ taskId: 'cr-a', taskStatus: 'SUCCESS', taskState: 'SUCCESS' });
    const back = transitionFromJson(JSON.parse(JSON.stringify(json)) as Record<string, unknown>);
    expect(back.taskState).toBe(T.TASK_SUCCESS);
    expect(transitionToJson(back)).toEqual(json);
  });

  it('refuses a task state that is not a short name', () => {
    expect(() => transitionFromJson({ changeRequestId: 'cr', taskState: 'TASK_SUCCESS' })).toThrow(
      /unknown task state "TASK_SUCCESS"/,
    );
  });
});
