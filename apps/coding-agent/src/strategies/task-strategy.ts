/**
 * What a strategy is (one way of turning the goal into a checked change) and what it works on: the contract
 * between the strategies (diff-strategy.ts, tool-strategy.ts) and what chooses and runs them (strategy.ts).
 */
import type { farm } from '@farm/proto';
import type { AgentDeps, StrategyName } from '../agent-deps';
import type { StrategyOutcome } from '../task-outcome';
import type { TaskRun } from '../task-run';
import type { TaskWorkspace } from '../task-setup';

/** What a strategy works on: the task as the model may see it, its workspace, the agent's deps, the run. */
export interface StrategyInput {
  task: farm.v1.ICodingTask;
  workspace: TaskWorkspace;
  deps: AgentDeps;
  run: TaskRun;
}

/** A strategy could not run at all on this endpoint (it refused tool calls): another strategy may. */
export interface StrategyUnsupported {
  kind: 'unsupported';
  reason: string;
}

/** One way of turning the goal into a checked change in the workspace's tree. */
export interface TaskStrategy {
  readonly name: StrategyName;
  run(input: StrategyInput): Promise<StrategyOutcome | StrategyUnsupported>;
}
