export { checkCommand, PROTECTED_BRANCHES, type CommandVerdict } from './denylist';
export {
  runSandboxed,
  detectIsolation,
  confinementStatus,
  describeStatus,
  reportConfinement,
  watchConfinement,
  type ConfinementWatch,
  sandboxEnv,
  ADDRESS_SPACE_FACTOR,
  type ConfinementStatus,
} from './sandbox';
export {
  DEFAULT_LIMITS,
  type SandboxRequest,
  type SandboxResult,
  type SandboxLimits,
  type KilledBy,
} from './sandbox-request';
export {
  startSandboxRunner,
  sandboxRunnerConfigSchema,
  type SandboxRunner,
  type SandboxRunnerOptions,
} from './remote-runner';
export { sandboxRunnerClient, type SandboxRunnerClient, type RunnerStatus } from './runner-client';
export type { Isolation } from './isolation';
export {
  confinementGaps,
  unacceptedGaps,
  describeGaps,
  acceptedRisksFromEnv,
  sandboxRunnerFromEnv,
  ConfinementUnavailable,
  sandboxRiskConfigSchema,
  RISKS,
  type Risk,
  type ConfinementGap,
} from './confinement';
export {
  detectChecks,
  planChecks,
  checkPlanFor,
  loadChecksConfig,
  runChecks,
  CHECKOUT_DESTROYED,
  describeFailure,
  refusedCheckNote,
  declaresFastMarker,
  planInputs,
  CHECKS_CONFIG,
  type CheckPlan,
  type CheckStepResult,
  type ChecksResult,
  type RunChecksOptions,
  type DetectOptions,
} from './checks';
export type { CheckStep } from './check-step';
export { shellQuote } from './shell-quote';
export { dirFiles, snapshotFiles, UnplannedRepoPath, type RepoFiles } from './repo-files';
export { explainFailure, headAndTail } from './output';
export { firstUnrunnableStep, whyNotRunnable } from './runnable';
export { CommandDenied, SandboxError, ChecksConfigInvalid, SandboxRunnerUnavailable, ProbeTimedOut } from './errors';
export type { Network } from './isolation';
export {
  checkSandboxConfigSchema,
  checkCeilingsFromConfig,
  settleStep,
  DEFAULT_CHECK_CEILINGS,
  type CheckCeilings,
  type CheckSandboxConfig,
  type HostNetworkPolicy,
} from './check-policy';
export {
  EnvironmentStore,
  linkEnvironment,
  linkedEnvironmentDirs,
  nodeEnvironmentOf,
  LINK_MARKER,
  type EnvironmentSpec,
} from './environments';
