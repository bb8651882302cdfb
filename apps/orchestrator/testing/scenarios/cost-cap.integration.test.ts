// The request cost cap, enforced by the orchestrator across tasks, on Kafka and PostgreSQL with real agents.
import { farm } from '@farm/proto';
import { KafkaBus } from '@farm/bus';
import { getRequest } from '@farm/orchestrator';
import { createPgStore, type SqlStore } from '@farm/store';
import { startFarmHarness, type FarmHarness } from './farm-harness';
import { ADD_DIVIDE_AFTER_MULTIPLY, ADD_MULTIPLY, MULTI_REPO_FILES, agentStep, planStep } from '@farm/cli/testing';

describe('the request cost cap', () => {
  let bus: KafkaBus;
  let store: SqlStore;
  let h: FarmHarness | undefined;

  beforeAll(async () => {
    bus = await KafkaBus.connect({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      clientId: 'cost-cap-test',
      topicPrefix: `cost-cap-${Date.now()}.`,
    });
    store = createPgStore(process.env.DATABASE_URL!);
  });
  afterAll(async () => {
    await h?.close();
    await bus.close();
    await store.close();
  });

  test('once the first task spent the cap, the second one does not start and the request fails saying why', async () => {
    const script = {
      chat: [
        // Both items touch the same symbol, so the second waits for the first.
        planStep([
          { id: 'mul', goal: 'Add multiply to the calculator', symbols: ['calculatorExports'] },
          { id: 'div', goal: 'Add divide to the calculator', symbols: ['calculatorExports'] },
        ]),
        agentStep('Add multiply', ADD_MULTIPLY),
        agentStep('Add divide', ADD_DIVIDE_AFTER_MULTIPLY),
      ],
    };
    // A cap the first task's model calls (priced as gpt-4o-mini, the agents' default model) go past.
    h = await startFarmHarness(bus, store, script, undefined, {
      orchestrator: { accounting: { requestMaxCostUsd: 0.000001, lessons: true, lessonsPerTask: 3 } },
    });
    const repo = await h.seed('capped.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the calculator' });
    const seen = await h.watch(id);

    expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('FAILED');
    expect(seen.at(-1)!.reason).toMatch(/cost/i);
    const mul = h.results.find((r) => r.taskId.endsWith('-mul'))!;
    expect(mul.status).toBe(farm.v1.CommitStatus.SUCCESS);
    expect(mul.costUsd).toBeGreaterThan(0.000001);
    // The second task never ran: no agent asked the model about it, and its result is the cap's, not an agent's.
    expect(h.model.requests.some((r) => JSON.stringify(r.messages).includes('TASK GOAL:\\nAdd divide'))).toBe(false);
    // The orchestrator decided the refusal itself (no CommitResult on the bus): the task is recorded HARD_FAIL
    // with the cost cap's reason, and its transition says so.
    expect(h.results.some((r) => r.taskId.endsWith('-div'))).toBe(false);
    const status = await getRequest(store, id);
    const div = status!.tasks.find((t) => t.id.endsWith('-div'))!;
    expect([div.status, div.notes]).toEqual(['HARD_FAIL', expect.stringMatching(/^cost cap reached: .* not started$/)]);
    expect(seen).toContainEqual(
      expect.objectContaining({
        taskId: div.id,
        taskState: farm.v1.TaskState.TASK_HARD_FAIL,
        taskStatus: farm.v1.CommitStatus.HARD_FAIL,
        reason: expect.stringContaining('cost cap reached'),
      }),
    );
    expect(status!.request.costUsd).toBeCloseTo(mul.costUsd, 8);
  });
});
