export { bundlePlan } from './bundle-plan';
export { serializeSharedTouches } from './serialize-shared';
export {
  planBundle,
  startCodePlanner,
  type CodePlannerDeps,
  type SymbolLocator,
  type SymbolReserver,
} from './code-planner';
export { srmReserver } from './srm-reserver';
export { cloneAndLocateSymbols } from './locate-symbols';
export { codePlannerConfigSchema, loadCodePlannerConfig, type CodePlannerConfig } from './config';
