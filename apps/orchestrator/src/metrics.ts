import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';

let stateSource: SqlExecutor | undefined;

/** Lets the state gauges read the orchestrator's store at scrape time (one query per scrape). */
export function measureStateFrom(store: SqlExecutor): void {
  stateSource = store;
}

async function readState(): Promise<{ phase: string; n: number; oldest: number }[]> {
  if (!stateSource) return [];
  const { rows } = await stateSource.query<{ phase: string; n: string; oldest: string }>(
    `SELECT phase, count(*) AS n, EXTRACT(EPOCH FROM (now() - min(updated_at))) AS oldest
     FROM change_requests GROUP BY phase`,
  );
  return rows.map((r) => ({ phase: r.phase, n: Number(r.n), oldest: Number(r.oldest) }));
}

export const orchestratorMetrics = {
  transitions: new Counter({
    name: 'farm_orchestrator_phase_transitions_total',
    help: 'Phase transitions of change requests, by target phase',
    labelNames: ['to'],
    registers: [metricsRegistry],
  }),
  taskResults: new Counter({
    name: 'farm_orchestrator_task_results_total',
    help: 'Commit results received, by status',
    labelNames: ['status'],
    registers: [metricsRegistry],
  }),
  phaseSeconds: new Histogram({
    name: 'farm_orchestrator_phase_duration_seconds',
    help: 'Time change requests spent in a phase, observed when they leave it',
    labelNames: ['phase'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
    registers: [metricsRegistry],
  }),
  requests: new Gauge({
    name: 'farm_orchestrator_change_requests',
    help: 'Change requests by current phase',
    labelNames: ['phase'],
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const s of await readState()) this.set({ phase: s.phase }, s.n);
    },
  }),
  oldestAge: new Gauge({
    name: 'farm_orchestrator_oldest_request_age_seconds',
    help: 'How long the longest-waiting change request has been in its phase, by phase (stuck-phase alerts)',
    labelNames: ['phase'],
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const s of await readState()) this.set({ phase: s.phase }, s.oldest);
    },
  }),
};
