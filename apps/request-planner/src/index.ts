export { planRequest } from './plan-request';
export { planWithModel, validatePlanAnswer, PLAN_JSON_SCHEMA } from './plan-with-model';
export { startRequestPlanner } from './request-planner';
export {
  requestPlannerConfigSchema,
  loadRequestPlannerConfig,
  plannerModelFrom,
  type RequestPlannerConfig,
} from './config';
