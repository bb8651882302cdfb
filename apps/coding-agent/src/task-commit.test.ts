import { farm } from '@farm/proto';
import { commitOwner, taskCommitMessage } from './task-commit';

const task = (more: Partial<farm.v1.ICodingTask> = {}): farm.v1.ICodingTask => ({
  id: 'cr-1-a',
  changeRequestId: 'cr-1',
  goal: 'Add multiply(a, b)\nwith tests',
  kind: farm.v1.TaskKind.FIX,
  dispatch: 2,
  ...more,
});

describe("a task's commit", () => {
  it('carries trailers naming the task, its dispatch and its change request', () => {
    expect(taskCommitMessage(task())).toBe(
      'fix(cr-1-a): Add multiply(a, b)\n\nFarm-Task: cr-1-a\nFarm-Dispatch: 2\nFarm-Change-Request: cr-1\n',
    );
  });

  it('is recognised as the task’s own from any dispatch of the task', () => {
    const earlier = taskCommitMessage(task({ dispatch: 1 }));
    expect(commitOwner(task({ dispatch: 3 }), earlier)).toEqual({ kind: 'this-task', dispatch: 1 });
  });

  it('is foreign without trailers, from another task, or from another change request', () => {
    expect(commitOwner(task(), 'quick fix\n\nSigned-off-by: someone <s@e>\n')).toEqual({
      kind: 'foreign',
      reason: 'it has no Farm-Task trailer',
    });
    expect(commitOwner(task(), taskCommitMessage(task({ id: 'cr-1-b' })))).toEqual({
      kind: 'foreign',
      reason: 'it was made by task cr-1-b',
    });
    expect(commitOwner(task(), taskCommitMessage(task({ changeRequestId: 'cr-0' })))).toEqual({
      kind: 'foreign',
      reason: 'it was made for change request cr-0',
    });
    // The subject naming the task is not enough: only the trailers count.
    expect(commitOwner(task(), 'fix(cr-1-a): Add multiply\n\n[agent:cr-1-a]\n').kind).toBe('foreign');
  });
});
