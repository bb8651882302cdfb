import { farm } from '@farm/proto';
import { advance, newProgress, statusLine } from './progress';

const P = farm.v1.Phase;
const T = farm.v1.TaskState;
const t = (fields: Partial<farm.v1.IPhaseTransition>) => farm.v1.PhaseTransition.create(fields);

describe('progress of a request', () => {
  it('follows the phase and counts tasks done out of all, with the running ones and the elapsed time', () => {
    let p = newProgress(0);
    p = advance(p, t({ sequence: 1, toPhase: P.PLANNING }));
    p = advance(p, t({ sequence: 2, toPhase: P.CODING }));
    p = advance(p, t({ sequence: 3, toPhase: P.CODING, taskId: 'a', taskState: T.TASK_DISPATCHED }));
    p = advance(p, t({ sequence: 4, toPhase: P.CODING, taskId: 'b', taskState: T.TASK_PENDING }));
    expect(statusLine(p, 5_000)).toBe('CODING  tasks 0/2 done, 1 running  5s');
    p = advance(p, t({ sequence: 5, toPhase: P.CODING, taskId: 'a', taskState: T.TASK_SUCCESS }));
    p = advance(p, t({ sequence: 6, toPhase: P.BUILD }));
    expect(statusLine(p, 125_000)).toBe('BUILD  tasks 1/2 done  2m05s');
  });
});
