import { farm } from '@farm/proto';
import { formatTransition } from './format';

const P = farm.v1.Phase;
const t = (fields: Partial<farm.v1.IPhaseTransition>) => farm.v1.PhaseTransition.create(fields);

describe('a transition for people', () => {
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
