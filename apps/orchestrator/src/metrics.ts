import { Counter, Gauge, Histogram } from 'prom-client';
import { farm, phaseName, taskStateName } from '@farm/proto';
import { metricsRegistry, type Logger } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';
import type { Decision } from './decider';
import { openTasksByState, requestsByPhase, type WrittenMove } from './request-store';

let stateSource: SqlExecutor | undefined;

/** Lets the state gauges read the orchestrator's store at scrape time (one query per scrape). */
export function measureStateFrom(store: SqlExecutor): void {
  stateSource = store;
}

/** Every phase a request can be in, by name. */
const REQUEST_PHASES = Object.keys(farm.v1.Phase).filter((p) => p !== 'PHASE_UNSPECIFIED');
const readState = () => (stateSource ? requestsByPhase(stateSource) : Promise.resolve([]));

export const orchestratorMetrics = {
  taskSteps: new Counter({
    name: 'farm_orchestrator_task_steps_total',
    help: "Running tasks' steps consumed for following them live, by outcome: kept, or skipped (invalid, an unknown task, a redelivery)",
    labelNames: ['outcome'],
    registers: [metricsRegistry],
  }),
  forgeWebhooks: new Counter({
    name: 'farm_forge_webhook_deliveries_total',
    help: 'Forge webhook deliveries by answer: accepted, deferred (over the repository pace, kept for later), unverified, replayed, malformed',
    labelNames: ['forge', 'answer'],
    registers: [metricsRegistry],
  }),
  forgeCalls: new Counter({
    name: 'farm_forge_updates_total',
    help: 'What the forge bridge did on the forge (comment, status, pull request) and whether it worked',
    labelNames: ['forge', 'effect', 'outcome'],
    registers: [metricsRegistry],
  }),
  forgeEvents: new Counter({
    name: 'farm_forge_events_total',
    help: 'Forge events handled by the bridge, by result: request, follow-up, ignored, failed',
    labelNames: ['forge', 'result'],
    registers: [metricsRegistry],
  }),
  transitions: new Counter({
    name: 'farm_orchestrator_phase_transitions_total',
    help: 'Phase transitions of change requests, by target phase',
    labelNames: ['to'],
    registers: [metricsRegistry],
  }),
  planningTokens: new Counter({
    name: 'farm_orchestrator_planning_tokens_total',
    help: "The planner model's tokens, by kind (prompt, completion) and configured model, counted once per request's plan",
    labelNames: ['kind', 'model'],
    registers: [metricsRegistry],
  }),
  planningCostUsd: new Counter({
    name: 'farm_orchestrator_planning_cost_usd_total',
    help: "The planner model's cost in US dollars from the price table, by configured model",
    labelNames: ['model'],
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
      // Every phase, 0 when no request is in it: a dashboard shows an idle farm as 0, not as no data.
      for (const phase of REQUEST_PHASES) this.set({ phase }, 0);
      for (const s of await readState()) this.set({ phase: s.phase }, s.n);
    },
  }),
  openTasks: new Gauge({
    name: 'farm_orchestrator_open_tasks',
    help: 'Open tasks: running an agent (DISPATCHED), waiting to start (PENDING), or waiting for a person to approve their plan (AWAITING_APPROVAL)',
    labelNames: ['state'],
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      const counts = stateSource ? await openTasksByState(stateSource) : {};
      for (const state of ['PENDING', 'DISPATCHED', 'AWAITING_APPROVAL']) this.set({ state }, counts[state] ?? 0);
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

/** What committed decisions did, as metrics and log lines (after commit: a rolled-back one counts nothing). */
export function recordCommitted(decisions: readonly Decision[], moves: readonly WrittenMove[], log: Logger): void {
  for (const m of moves) {
    if (m.from !== farm.v1.Phase.PHASE_UNSPECIFIED)
      orchestratorMetrics.phaseSeconds.observe({ phase: phaseName(m.from) }, m.secondsInPhase);
    orchestratorMetrics.transitions.inc({ to: phaseName(m.to) });
    const { changeRequestId, reason } = m;
    log.info('phase transition', { changeRequestId, from: phaseName(m.from), to: phaseName(m.to), reason });
  }
  for (const status of decisions.flatMap((d) => d.results))
    orchestratorMetrics.taskResults.inc({ status: taskStateName(status) });
  for (const u of decisions.flatMap((d) => d.updates)) {
    if (u.kind !== 'set-planning-usage') continue;
    const model = u.usage.model || 'unknown';
    orchestratorMetrics.planningTokens.inc({ kind: 'prompt', model }, u.usage.promptTokens ?? 0);
    orchestratorMetrics.planningTokens.inc({ kind: 'completion', model }, u.usage.completionTokens ?? 0);
    orchestratorMetrics.planningCostUsd.inc({ model }, u.usage.costUsd ?? 0);
  }
}
