export { runCodingTask } from './run-task';
export { branchFor } from './task-branch';
export { agentDepsFromConfig, type AgentDeps, type AgentServices, type AgentSettings } from './agent-deps';
export { agentConfigSchema, agentWorkerConfigSchema, loadAgentConfig, type AgentConfig } from './config';
export { buildPrompt } from './prompt';
export { readTask, BadTaskInput } from './read-task';

export { startAgentWorker } from './worker-pool';
export {
  agentMetricFamilies,
  agentMetricSamples,
  agentMetrics,
  registerAgentMetrics,
  type AgentMetricFamily,
} from './metrics';
export { poolMessageSchema, poolReplySchema, type PoolMessage, type PoolReply } from './pool-protocol';
// The tool loop's parts, for benchmarks and embedders that drive it themselves.
export { runToolLoop } from './tool-loop';
export { AgentToolBox } from './tools/agent-tools';
export { TaskBudget } from './task-budget';
export { TaskObserver } from './task-observer';
export { TrajectoryReport } from './trajectory-report';
export { openTrajectory } from './trajectory';
export { instructionTokens } from './instruction-size';
export { priceOf, type ModelPrices } from '@farm/llm';
