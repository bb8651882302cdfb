export { planRequest } from './plan-request';
export { planWithModel, validatePlanAnswer, PLAN_JSON_SCHEMA } from './plan-with-model';
export { startRequestPlanner, planningUsage, type PlannerPricing } from './request-planner';
export {
  requestPlannerConfigSchema,
  loadRequestPlannerConfig,
  plannerModelFrom,
  plannerPricingFrom,
  type RequestPlannerConfig,
} from './config';
