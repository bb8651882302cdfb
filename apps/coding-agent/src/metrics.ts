import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';

export const agentMetrics = {
  inFlight: new Gauge({
    name: 'farm_agent_tasks_in_flight',
    help: 'Tasks this agent process is working on now',
    registers: [metricsRegistry],
  }),
  tasks: new Counter({
    name: 'farm_agent_tasks_total',
    help: 'Tasks finished, by status',
    labelNames: ['status'],
    registers: [metricsRegistry],
  }),
  patches: new Counter({
    name: 'farm_agent_patches_total',
    help: 'Model patches, by result (applied, rejected, check_failed)',
    labelNames: ['result'],
    registers: [metricsRegistry],
  }),
  attempts: new Histogram({
    name: 'farm_agent_attempts',
    help: 'Attempts a task took',
    buckets: [1, 2, 3, 4, 5],
    registers: [metricsRegistry],
  }),
  stepSeconds: new Histogram({
    name: 'farm_agent_step_duration_seconds',
    help: 'Duration of each agent step',
    labelNames: ['step'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [metricsRegistry],
  }),
  tokens: new Counter({
    name: 'farm_agent_llm_tokens_total',
    help: 'LLM tokens used, by kind (prompt, completion) and model',
    labelNames: ['kind', 'model'],
    registers: [metricsRegistry],
  }),
};
