// The Prometheus metrics the farm's apps export, read from the shared registry after loading each app's metrics
// modules: the dashboard test checks every panel against this list, and print-metrics.ts feeds promtool.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { collectProcessMetrics, metricsRegistry } from '@farm/runtime';

const ROOT = path.resolve(__dirname, '../..');

/** Metrics modules of each deployable (relative to the repository root); missing files are skipped. */
export const APP_METRIC_MODULES: Record<string, string[]> = {
  orchestrator: [
    'apps/orchestrator/src/metrics.ts',
    'apps/orchestrator/src/kubernetes-metrics.ts',
    'apps/orchestrator/src/fleet-agent-metrics.ts',
    'clients/bus/src/metrics.ts',
  ],
  builder: ['apps/builder/src/metrics.ts', 'clients/bus/src/metrics.ts'],
  'request-planner': ['apps/request-planner/src/metrics.ts'],
  'code-planner': ['apps/code-planner/src/metrics.ts'],
  'coding-agent': ['apps/coding-agent/src/metrics.ts'],
  srm: ['apps/srm/src/metrics.ts', 'clients/srm/src/metrics.ts'],
  'rag-service': ['apps/rag-service/src/metrics.ts', 'clients/rag/src/metrics.ts'],
};

/**
 * Loads the modules of the given apps (default: all) into the process-wide registry. Metrics created lazily
 * (e.g. srmMetrics(), so that HTTP clients of srm do not export them) are created by calling their factory, and
 * those registered only where the app serves them (registerAgentMetrics) by registering them.
 */
export function loadAppMetrics(apps: string[] = Object.keys(APP_METRIC_MODULES)): void {
  collectProcessMetrics(); // farm_process_*, farm_nodejs_*: every app serves them through runService
  for (const app of apps) {
    const modules = APP_METRIC_MODULES[app];
    if (!modules) throw new Error(`unknown app ${app}; known: ${Object.keys(APP_METRIC_MODULES).join(', ')}`);
    for (const rel of modules) {
      const file = path.join(ROOT, rel);
      if (!existsSync(file)) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- which modules exist is known only at run time
      const mod = require(file) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod))
        if (typeof value === 'function' && value.length === 0 && /^([a-z]+|register[A-Z]\w*)Metrics$/.test(name))
          (value as () => unknown)();
    }
  }
}

/** Name → type of every metric the apps export (histograms also expose _bucket, _sum and _count series). */
export async function exportedMetrics(): Promise<Map<string, string>> {
  loadAppMetrics();
  const all = await metricsRegistry.getMetricsAsJSON();
  return new Map(all.map((m) => [m.name, String(m.type)]));
}

/** Series Prometheus itself adds to every scrape. */
export const PROMETHEUS_SERIES = ['up', 'scrape_duration_seconds', 'scrape_samples_scraped'];

/**
 * Metrics the dashboard and alerts already use but no app exports yet: each is a to-do for its app. The
 * dashboard test fails when a panel names a metric that is in neither list, and when one of these starts being
 * exported (so the entry is removed here and the check becomes strict for it).
 */
export const PENDING_METRICS: { name: string; type: string; labels: string[]; app: string; meaning: string }[] = [];
