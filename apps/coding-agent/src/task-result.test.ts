import { farm } from '@farm/proto';
import { hardFail, softFail } from './task-outcome';
import { assembleResult, resultRecord, type TaskUsage } from './task-result';

const S = farm.v1.CommitStatus;
const F = farm.v1.FailedStep;
const task: farm.v1.ICodingTask = { id: 't-7', changeRequestId: 'cr-1', dispatch: 2 };
const usage: TaskUsage = {
  strategy: 'tools',
  attempts: 2,
  steps: 5,
  tokens: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
  costUsd: 0.01,
  model: 'coder',
  reviews: [{ round: 1, approved: true, objections: [] }],
  stepDurations: [{ step: 'clone', attempt: 0, seconds: 0.5 }],
  malformedRetries: 0,
};
const redact = (text: string) => text.replaceAll('sk-secret', '[redacted]');

describe('the result of a task', () => {
  test('a delivered commit: SUCCESS on agt/<task> with the notes, the lesson and what the task used', () => {
    const lesson = { taskId: 't-7', goal: 'g' };
    const result = assembleResult(
      task,
      { kind: 'delivered', commitSha: 'abc', notes: ['summary: used sk-secret'], lesson },
      usage,
      redact,
    );
    expect(result).toEqual({
      taskId: 't-7',
      changeRequestId: 'cr-1',
      dispatch: 2,
      status: S.SUCCESS,
      commitSha: 'abc',
      branchName: 'agt/t-7',
      lesson,
      attempts: 2,
      steps: 5,
      tokenUsage: usage.tokens,
      costUsd: 0.01,
      model: 'coder',
      strategy: farm.v1.AgentStrategy.TOOLS,
      reviews: usage.reviews,
      stepDurations: usage.stepDurations,
      notes: ['summary: used [redacted]'],
    });
  });

  test('a failure: its status and step, the reason first in the notes, then its notes and the malformed answers', () => {
    const result = assembleResult(
      task,
      softFail(F.STEP_ATTEMPTS, 'no passing patch after 3 attempt(s)', ['last: a check failed']),
      { ...usage, strategy: 'diff', malformedRetries: 2 },
      redact,
    );
    expect(result).toMatchObject({
      status: S.SOFT_FAIL,
      failedStep: F.STEP_ATTEMPTS,
      strategy: farm.v1.AgentStrategy.DIFF,
    });
    expect(result.notes).toEqual([
      'no passing patch after 3 attempt(s)',
      'last: a check failed',
      'model answer malformed, retried 2x',
    ]);
    expect(result.commitSha).toBeUndefined();
  });

  test("the trajectory's result line names the failed step", () => {
    const outcome = hardFail(F.STEP_CLONE, 'clone failed: 404');
    const record = resultRecord(assembleResult(task, outcome, usage, redact), outcome);
    expect(record).toMatchObject({
      status: 'HARD_FAIL',
      failedStep: 'clone',
      notes: ['clone failed: 404'],
      attempts: 2,
    });
  });
});
