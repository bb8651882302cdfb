export {
  Orchestrator,
  NotReady,
  DEFAULT_ORCHESTRATOR_OPTIONS,
  type OrchestratorDeps,
  type OrchestratorOptions,
  type LeaseReleaser,
  type OutboxWriter,
} from './orchestrator';
export { TaskTopicLauncher, type TaskLauncher } from './launcher';
export { ChildProcessLauncher, type ChildProcessLauncherConfig } from './child-process-launcher';
export { LocalAgentPool, LocalPoolLauncher, type LocalAgentPoolConfig } from './local-agent-pool';
export { orchestratorMigrations } from './schema';
export { resumeLaunches } from './resume-launches';
export { codingOutcome, canMove, readyTasks } from './phases';
export {
  orchestratorConfigSchema,
  loadOrchestratorConfig,
  orchestratorOptionsFrom,
  stateLayout,
  type OrchestratorConfig,
} from './config';
export { createTaskLauncher } from './launcher-from-config';
export { jobsLauncherConfigSchema, kubernetesJobLauncherFromEnv } from './kubernetes-launcher-config';
/** FARM_SANDBOX_*: the sandbox sidecar of the Job pods (the builder reads the same). */
export { sandboxPodConfigSchema } from '@farm/kube';
export {
  listRequests,
  getRequest,
  SUBMITTED,
  type RequestSummary,
  type TaskSummary,
  type TokenTotals,
} from './request-store';
export { changeRequestApi, type ChangeRequestApiDeps } from './http-api';
export { taskReports, type DispatchReport } from './task-reports';
export { readTaskSteps, type StoredStep } from './task-steps';
export {
  openApiAccess,
  apiAccessConfigSchema,
  authorizeByRoute,
  type ApiAccess,
  type ApiAccessConfig,
} from './api-access';
export { ROUTE_SCOPES, scopeFor } from './api-scopes';
export { parseChangeRequestInput, type ChangeRequestInput } from './change-request-input';
export { apiSubmitter, type ApiSubmitterDeps } from './submissions';
export { readTransitions, isFinalTransition } from './change-request-events';
export { Outbox } from './outbox';
export { transitionToJson } from './transition-json';
export {
  costCapConfigSchema,
  costCapMigrations,
  mayStartTask,
  requestCostSoFar,
  formatCostUsd,
  type CostCapDecision,
} from './cost-cap';
export {
  gateDispatch,
  lessonToKeep,
  taskAccountingConfigSchema,
  taskAccountingMigrations,
  taskAccountingSettingsFrom,
  type TaskAccountingSettings,
  type DispatchGate,
} from './task-accounting';
export { KubernetesJobLauncher, type KubernetesJobLauncherConfig } from './kubernetes-launcher';
export { approvalConfigSchema, approvalPolicyFrom, type ApprovalPolicy } from './approval-policy';
export { forgeSetupConfigSchema, startForge, type ForgeSetup } from './forge/forge-setup';
export { ForgeBridge } from './forge/forge-bridge';
