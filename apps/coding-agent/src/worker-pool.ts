import { farm } from '@farm/proto';
import { Topics, type EventBus, type Subscription } from '@farm/bus';
import type { AgentDeps } from './agent-deps';
import { runCodingTask } from './run-task';

/**
 * Worker-pool mode: consumes the task topic in one consumer group, one task at a time per worker. The bus
 * commits a task's offset only after this handler returned, i.e. after its CommitResult was published.
 */
export function startAgentWorker(bus: EventBus, deps: AgentDeps, group = 'coding-agent'): Promise<Subscription> {
  return bus.subscribe(Topics.codingTasks, group, async (task) => {
    const result = await runCodingTask(task, { ...deps, services: { steps: bus, ...deps.services } });
    await bus.publish(Topics.commitResults, farm.v1.CommitResult.fromObject(result));
  });
}
