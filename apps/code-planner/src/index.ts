export { bundlePlan } from './bundle-plan';
export { startCodePlanner } from './code-planner';
