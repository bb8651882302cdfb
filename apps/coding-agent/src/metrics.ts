import { Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import type { farm } from '@farm/proto';
import { metricsRegistry } from '@farm/runtime';

/**
 * The agent's metrics, apart from the process's registry: most agents are not scraped (a process or Job per
 * task, farm up's pool), so what each task added travels with its CommitResult (agentMetricSamples) and the
 * orchestrator serves the fleet's sum; a worker deployable that serves /metrics itself registers them there
 * (registerAgentMetrics). A process that only reads the agent's schemas (the orchestrator) exports none of them.
 */
const agentRegistry = new Registry();

export const agentMetrics = {
  environments: new Counter({
    name: 'farm_agent_environments_total',
    help: 'Dependency installs of the checks, by how the shared environment came (built, waited, reused, failed)',
    labelNames: ['how'],
    registers: [agentRegistry],
  }),
  environmentSeconds: new Histogram({
    name: 'farm_agent_environment_duration_seconds',
    help: 'Time the checks spent on their shared environment (setting it up, waiting for it, or linking it), by how it came',
    labelNames: ['how'],
    buckets: [0.05, 0.25, 1, 5, 15, 60, 180, 600],
    registers: [agentRegistry],
  }),
  snippetSearchSeconds: new Histogram({
    name: 'farm_agent_snippet_search_duration_seconds',
    help: "Searches of the agent's own index of its checkout (no rag-service configured)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [agentRegistry],
  }),
  chunksIndexed: new Counter({
    name: 'farm_agent_index_chunks_total',
    help: 'Chunks the agent indexed of its own checkout (no rag-service configured; a checkout indexed before is not counted)',
    registers: [agentRegistry],
  }),
  inFlight: new Gauge({
    name: 'farm_agent_tasks_in_flight',
    help: 'Tasks this agent process is working on now',
    registers: [agentRegistry],
  }),
  tasks: new Counter({
    name: 'farm_agent_tasks_total',
    help: 'Tasks finished, by status',
    labelNames: ['status'],
    registers: [agentRegistry],
  }),
  patches: new Counter({
    name: 'farm_agent_patches_total',
    help: 'Model patches, by result (applied, rejected, check_failed)',
    labelNames: ['result'],
    registers: [agentRegistry],
  }),
  attempts: new Histogram({
    name: 'farm_agent_attempts',
    help: 'Attempts a task took',
    buckets: [1, 2, 3, 4, 5],
    registers: [agentRegistry],
  }),
  stepSeconds: new Histogram({
    name: 'farm_agent_step_duration_seconds',
    help: 'Duration of each agent step',
    labelNames: ['step'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [agentRegistry],
  }),
  tokens: new Counter({
    name: 'farm_agent_llm_tokens_total',
    help: 'LLM tokens used, by kind (prompt, completion, cached_prompt: of prompt, served by the prompt cache) and model',
    labelNames: ['kind', 'model'],
    registers: [agentRegistry],
  }),
  costUsd: new Counter({
    name: 'farm_agent_cost_usd_total',
    help: 'Model cost in US dollars from the price table, by model',
    labelNames: ['model'],
    registers: [agentRegistry],
  }),
  toolCalls: new Counter({
    name: 'farm_agent_tool_calls_total',
    help: 'Tool calls of the tool strategy, by tool and outcome (ok, error)',
    labelNames: ['tool', 'outcome'],
    registers: [agentRegistry],
  }),
  editMatches: new Counter({
    name: 'farm_agent_edit_matches_total',
    help: 'edit_file calls that found old_text, by tier (exact, trailing-whitespace, indentation, unicode-punctuation)',
    labelNames: ['tier'],
    registers: [agentRegistry],
  }),
  reviews: new Counter({
    name: 'farm_agent_reviews_total',
    help: 'Reviewer verdicts on final diffs (approved, objected)',
    labelNames: ['verdict'],
    registers: [agentRegistry],
  }),
  budgetStops: new Counter({
    name: 'farm_agent_budget_stops_total',
    help: 'Tasks ended by a budget, by budget (steps, tokens, cost) and cause (task; environment: its checks timed out meanwhile, so it runs again)',
    labelNames: ['budget', 'cause'],
    registers: [agentRegistry],
  }),
};

/** Serves the agent's metrics on `registry`'s /metrics: for an agent process that is scraped (the worker deployable). */
export function registerAgentMetrics(registry: Registry = metricsRegistry): void {
  for (const m of Object.values(agentMetrics)) {
    const { name } = m as unknown as { name: string };
    // The agent's own, not a sum of others' results, where both were loaded (the farm's list of exported metrics).
    if (registry.getSingleMetric(name) !== m) registry.removeSingleMetric(name);
    registry.registerMetric(m as Metric);
  }
}

export interface AgentMetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
}

/** Name, help and type of each counter and histogram of the agent: what the orchestrator serves summed. */
export function agentMetricFamilies(): AgentMetricFamily[] {
  return Object.values(agentMetrics).flatMap((m): AgentMetricFamily[] => {
    const { name, help } = m as unknown as { name: string; help: string };
    if (m instanceof Counter) return [{ name, help, type: 'counter' }];
    if (m instanceof Histogram) return [{ name, help, type: 'histogram' }];
    return [];
  });
}

let sentSoFar = new Map<string, number>();

/**
 * What the agent's counters and histograms gained since the last call (since the process started, on the first),
 * as samples for CommitResult.agent_metrics. A histogram's label set comes whole (every bucket, its sum and
 * count) whenever it gained an observation, so the buckets summed elsewhere stay a histogram. Gauges stay out: they
 * say what one process does now.
 */
export async function agentMetricSamples(): Promise<farm.v1.IMetricSample[]> {
  const now = new Map<string, number>();
  const out: farm.v1.IMetricSample[] = [];
  for (const family of await agentRegistry.getMetricsAsJSON()) {
    const type = String(family.type);
    if (type !== 'counter' && type !== 'histogram') continue;
    const sets = new Map<string, { samples: farm.v1.IMetricSample[]; changed: boolean }>();
    for (const v of family.values as {
      metricName?: string;
      labels: Record<string, string | number>;
      value: number;
    }[]) {
      const name = v.metricName ?? family.name;
      const labels = Object.fromEntries(Object.entries(v.labels).map(([k, l]) => [k, String(l)]));
      const key = `${name}${JSON.stringify(labels)}`;
      now.set(key, v.value);
      const before = sentSoFar.get(key);
      const gained = v.value - (before ?? 0);
      const { le, ...rest } = labels;
      void le;
      const setKey = JSON.stringify(rest);
      const set = sets.get(setKey) ?? { samples: [], changed: false };
      sets.set(setKey, set);
      set.samples.push({ name, labels, value: gained });
      // A series seen for the first time is sent even at 0: it exists (a tool offered, an unpriced model).
      if (gained !== 0 || before === undefined) set.changed = true;
    }
    for (const set of sets.values()) {
      if (!set.changed) continue;
      out.push(
        ...(type === 'histogram'
          ? set.samples
          : set.samples.filter((s) => s.value !== 0 || !sentSoFar.has(`${s.name}${JSON.stringify(s.labels)}`))),
      );
    }
  }
  sentSoFar = now;
  return out;
}
