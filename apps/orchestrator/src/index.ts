export { Orchestrator, NotReady, type OrchestratorDeps } from './orchestrator';
export { TaskTopicLauncher, type TaskLauncher } from './launcher';
export { ChildProcessLauncher, type ChildProcessLauncherConfig } from './child-process-launcher';
export { orchestratorMigrations } from './schema';
export { codingOutcome, canMove } from './phases';
