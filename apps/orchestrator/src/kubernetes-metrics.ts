import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';

/** Outcomes of coding-agent Jobs, the `outcome` label of farm_launcher_jobs_total. */
export type JobOutcome =
  | 'succeeded' // Complete
  | 'agent_failed' // the agent reported SOFT/HARD_FAIL itself and exited 2/3
  | 'bad_input' // exit 64: the agent rejected its task or configuration
  | 'oom_killed'
  | 'deadline_exceeded'
  | 'image_pull_failed'
  | 'cannot_start' // CreateContainerConfigError and the like, e.g. a missing Secret
  | 'crashed' // BackoffLimitExceeded after other exits
  | 'lost' // deleted by someone else before it finished
  | 'cancelled'
  | 'create_failed';

export const launcherMetrics = {
  running: new Gauge({
    name: 'farm_launcher_jobs_running',
    help: 'Coding-agent Jobs created and not yet finished',
    registers: [metricsRegistry],
  }),
  cap: new Gauge({
    name: 'farm_launcher_jobs_cap',
    help: 'The cap on running coding-agent Jobs (maxRunningJobs, as last read)',
    registers: [metricsRegistry],
  }),
  queued: new Gauge({
    name: 'farm_launcher_jobs_queued',
    help: 'Coding tasks waiting for a free Job slot (maxRunningJobs)',
    registers: [metricsRegistry],
  }),
  jobs: new Counter({
    name: 'farm_launcher_jobs_total',
    help: 'Coding-agent Jobs finished, by outcome',
    labelNames: ['outcome'],
    registers: [metricsRegistry],
  }),
};
