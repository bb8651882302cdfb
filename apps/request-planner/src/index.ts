export { planRequest } from './plan-request';
export { startRequestPlanner } from './request-planner';
