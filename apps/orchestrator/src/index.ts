export {
  Orchestrator,
  NotReady,
  DEFAULT_ORCHESTRATOR_OPTIONS,
  type OrchestratorDeps,
  type OrchestratorOptions,
  type LeaseReleaser,
} from './orchestrator';
export { TaskTopicLauncher, type TaskLauncher } from './launcher';
export { ChildProcessLauncher, type ChildProcessLauncherConfig } from './child-process-launcher';
export { orchestratorMigrations } from './schema';
export { resumeLaunches } from './resume-launches';
export { codingOutcome, canMove, readyTasks } from './phases';
export { runBuild, startBuildRunner, integrationBranchFor } from './build-runner';
export { listRequests, getRequest, stateRoutes, type RequestSummary, type TaskSummary } from './state-queries';
export {
  orchestratorConfigSchema,
  loadOrchestratorConfig,
  orchestratorOptionsFrom,
  stateLayout,
  type OrchestratorConfig,
} from './config';
export { createTaskLauncher } from './launcher-from-config';
export { jobsLauncherConfigSchema } from './kubernetes-launcher-config';
export {
  costCapConfigSchema,
  costCapMigrations,
  mayStartTask,
  requestCostSoFar,
  formatCostUsd,
  type CostCapDecision,
} from './cost-cap';
export { lessonsRoutes } from './lessons-routes';
export {
  beforeDispatch,
  afterResult,
  taskAccountingConfigSchema,
  taskAccountingMigrations,
  taskAccountingSettingsFrom,
  type TaskAccountingSettings,
  type DispatchGate,
} from './task-accounting';
