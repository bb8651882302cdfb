import { type farm } from '@farm/proto';
import type { TopicSpec } from '@farm/bus';
import { silentLogger } from '@farm/runtime';
import { LiveSteps, liveStepLine, type StepBus } from './live-steps';
import { openTrajectory } from './trajectory';

const ids = { changeRequestId: 'cr-1', taskId: 'cr-1-a', dispatch: 2 };
const redact = (text: string) => text.replaceAll('sk-secret', '[secret redacted]');

/** A bus that keeps what is published, in order; `refuse` makes it fail. */
function recordingBus(refuse?: (step: farm.v1.TaskStep) => boolean) {
  const published: { topic: string; step: farm.v1.TaskStep }[] = [];
  const bus: StepBus = {
    publish: async <T>(topic: TopicSpec<T>, message: T) => {
      const step = message as farm.v1.TaskStep;
      if (refuse?.(step)) throw new Error('broker away');
      published.push({ topic: topic.name, step });
    },
  };
  return { bus, published };
}

test("a task's trajectory lines are published as they are recorded, in order, redacted, prompts left out", async () => {
  const { bus, published } = recordingBus();
  const live = new LiveSteps(bus, ids, redact, silentLogger, 'run-1');
  const trajectory = openTrajectory(undefined, ids.taskId, ids.dispatch, redact, live);
  trajectory.record('prompt', { system: 'long rules' });
  trajectory.record('tool', { tool: 'read_file', result: 'key = sk-secret' });
  trajectory.record('check', { attempt: 1, ok: false, steps: [{ name: 'test', output: 'x'.repeat(5_000) }] });
  await trajectory.close();

  expect(published.map((p) => p.topic)).toEqual(['farm.task-steps.v1', 'farm.task-steps.v1']);
  expect(published.map((p) => [p.step.runId, p.step.seq, p.step.dispatch, p.step.taskId])).toEqual([
    ['run-1', 1, 2, 'cr-1-a'],
    ['run-1', 2, 2, 'cr-1-a'],
  ]);
  const [tool, check] = published.map((p) => JSON.parse(p.step.line));
  expect(tool).toMatchObject({ event: 'tool', tool: 'read_file', result: 'key = [secret redacted]', taskId: 'cr-1-a' });
  expect(check.steps[0].output).toMatch(/characters cut/);
  expect(check.steps[0].output.length).toBeLessThan(2_100);
});

test('a line too long even with its strings cut is published as a note of its event; after the run limit one line says the rest is in the report', async () => {
  const { bus, published } = recordingBus();
  const limits = { stringChars: 100, lineChars: 2_000, stepsPerRun: 3, pending: 10 };
  const live = new LiveSteps(bus, ids, redact, silentLogger, 'run-1', limits);
  live.add({ ts: 't', event: 'tool', args: Array.from({ length: 400 }, (_, i) => `arg ${i}`) });
  for (let i = 0; i < 5; i++) live.add({ ts: 't', event: 'step', step: i });
  await live.flush();

  const lines = published.map((p) => JSON.parse(p.step.line));
  expect(lines[0]).toEqual({ ts: 't', event: 'tool', cut: expect.stringMatching(/^a \d+-character line/) });
  expect(lines.map((l) => l.event)).toEqual(['tool', 'step', 'step', 'steps_cut']);
  expect(published.map((p) => p.step.seq)).toEqual([1, 2, 3, 4]);
});

test('a bus that refuses a step does not fail the task: the next steps go on', async () => {
  const { bus, published } = recordingBus((step) => step.seq === 1);
  const live = new LiveSteps(bus, ids, redact, silentLogger, 'run-1');
  live.add({ ts: 't', event: 'step', step: 1 });
  live.add({ ts: 't', event: 'step', step: 2 });
  await live.flush();
  expect(published.map((p) => p.step.seq)).toEqual([2]);
});

test('liveStepLine redacts a secret that only the cut line still holds whole', () => {
  const line = liveStepLine({ ts: 't', event: 'tool', result: `${'a'.repeat(10)}sk-secret` }, redact);
  expect(line).not.toContain('sk-secret');
});
