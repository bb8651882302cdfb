import { Counter } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';

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
};
