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
    help: 'LLM tokens used, by kind (prompt, completion, cached_prompt: of prompt, served by the prompt cache) and model',
    labelNames: ['kind', 'model'],
    registers: [metricsRegistry],
  }),
  costUsd: new Counter({
    name: 'farm_agent_cost_usd_total',
    help: 'Model cost in US dollars from the price table, by model',
    labelNames: ['model'],
    registers: [metricsRegistry],
  }),
  toolCalls: new Counter({
    name: 'farm_agent_tool_calls_total',
    help: 'Tool calls of the tool strategy, by tool and outcome (ok, error)',
    labelNames: ['tool', 'outcome'],
    registers: [metricsRegistry],
  }),
  editMatches: new Counter({
    name: 'farm_agent_edit_matches_total',
    help: 'edit_file calls that found old_text, by tier (exact, trailing-whitespace, indentation, unicode-punctuation)',
    labelNames: ['tier'],
    registers: [metricsRegistry],
  }),
  reviews: new Counter({
    name: 'farm_agent_reviews_total',
    help: 'Reviewer verdicts on final diffs (approved, objected)',
    labelNames: ['verdict'],
    registers: [metricsRegistry],
  }),
  budgetStops: new Counter({
    name: 'farm_agent_budget_stops_total',
    help: 'Tasks ended by a budget, by budget (steps, tokens, cost) and cause (task; environment: its checks timed out meanwhile, so it runs again)',
    labelNames: ['budget', 'cause'],
    registers: [metricsRegistry],
  }),
};
