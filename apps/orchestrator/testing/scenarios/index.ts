// The orchestrator's end-to-end scenarios: a whole farm on the given bus and store (farm-harness), and the
// walking-skeleton scenarios both buses run (farm-scenarios).
export * from './farm-harness';
export { defineFarmScenarios } from './farm-scenarios';
