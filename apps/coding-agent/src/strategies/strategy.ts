import { farm } from '@farm/proto';
import type { AgentDeps, StrategyName } from '../agent-deps';
import { hardFail, type StrategyOutcome } from '../task-outcome';
import { diffStrategy } from './diff-strategy';
import type { StrategyInput, TaskStrategy } from './task-strategy';
import { toolStrategy } from './tool-strategy';

const Strategy = farm.v1.AgentStrategy;
const F = farm.v1.FailedStep;

/** The task's own choice, else the operator's; the tool strategy only with a tool model. */
export function chooseStrategy(task: farm.v1.ICodingTask, deps: AgentDeps): TaskStrategy {
  const tools = deps.services.toolModel ? toolStrategy : diffStrategy;
  if (task.strategy === Strategy.DIFF) return diffStrategy;
  if (task.strategy === Strategy.TOOLS) return tools;
  if (deps.settings.strategy === 'diff') return diffStrategy;
  return tools;
}

/**
 * Runs the chosen strategy. `auto` on an endpoint without tool calling (its first request is refused) runs the
 * task as a diff; a strategy the task or the operator asked for by name is not replaced.
 */
export async function runStrategy(input: StrategyInput): Promise<{ strategy: StrategyName; outcome: StrategyOutcome }> {
  const { task, deps, run } = input;
  const chosen = chooseStrategy(task, deps);
  const { plan } = input.workspace;
  run.observer.record('checks', { steps: plan.steps, skipped: plan.skipped, strategy: chosen.name });
  const outcome = await chosen.run(input);
  if (outcome.kind !== 'unsupported') return { strategy: chosen.name, outcome };
  if (deps.settings.strategy === 'tools' || task.strategy) {
    return { strategy: chosen.name, outcome: hardFail(F.STEP_LLM, `model unavailable: ${outcome.reason}`) };
  }
  run.log.warn('the endpoint refused tool calls; running the task with the diff strategy', { reason: outcome.reason });
  run.observer.record('fallback', { from: chosen.name, to: 'diff', reason: outcome.reason });
  return { strategy: 'diff', outcome: await diffStrategy.run(input) };
}
