import type { farm } from '@farm/proto';
import { agentMetricFamilies, type AgentMetricFamily } from '@farm/coding-agent';
import { metricsRegistry } from '@farm/runtime';

interface Sample {
  metricName: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * One farm_agent_* counter or histogram as the sum of what the agents' results carried
 * (CommitResult.agent_metrics): a metric prom-client's registry serves like its own (`get`), whose samples are
 * only added to. A histogram's label set arrives whole (agentMetricSamples), so its buckets stay in order.
 */
class SummedFamily {
  readonly aggregator = 'sum';
  private readonly samples = new Map<string, Sample>();

  constructor(private readonly family: AgentMetricFamily) {}

  get name(): string {
    return this.family.name;
  }

  add(sample: Sample): void {
    const key = `${sample.metricName}${JSON.stringify(sample.labels)}`;
    const known = this.samples.get(key);
    if (known) known.value += sample.value;
    else this.samples.set(key, { ...sample, labels: { ...sample.labels } });
  }

  get() {
    const { name, help, type } = this.family;
    return { name, help, type, aggregator: this.aggregator, values: [...this.samples.values()] };
  }

  reset(): void {
    this.samples.clear();
  }
}

/**
 * The agents' metrics as the orchestrator serves them on /metrics: most agents live for one task (a process or a
 * Job) or in farm up's pool, where nobody scrapes them, so each result brings what its task added, and the sum is
 * here. An applied result is added once (the orchestrator's exactly-once apply); samples of names the agent does
 * not export are left out.
 */
export class FleetAgentMetrics {
  private readonly families = new Map<string, SummedFamily>();

  constructor(registry = metricsRegistry) {
    for (const family of agentMetricFamilies()) {
      const summed = new SummedFamily(family);
      this.families.set(family.name, summed);
      // A process that also runs agents and serves their metrics itself keeps its own.
      if (!registry.getSingleMetric(family.name)) registry.registerMetric(summed as never);
    }
  }

  add(samples: farm.v1.IMetricSample[] | null | undefined): void {
    for (const s of samples ?? []) {
      const name = s.name ?? '';
      const family = this.families.get(name) ?? this.families.get(name.replace(/_(bucket|sum|count)$/, ''));
      if (!family || !Number.isFinite(s.value ?? NaN)) continue;
      family.add({ metricName: name, labels: { ...(s.labels ?? {}) }, value: s.value ?? 0 });
    }
  }
}

/** The orchestrator process's one sum (its /metrics). */
export const fleetAgentMetrics = new FleetAgentMetrics();
