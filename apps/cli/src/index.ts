// What other packages' tests use of the CLI's library: the farm in one process, and the bus-level client
// (submit, watch, cancel over the topics). The `farm` binary is main.ts.
export { agentProcessLauncher, farmLeases, startFarm, type FarmParts } from './local-farm';
export { cancelChangeRequest, submitChangeRequest, watchChangeRequest, type SubmitInput } from './submit';
export * from './sample-repo';
