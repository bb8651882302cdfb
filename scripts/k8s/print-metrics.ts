// Prints what an app serves on /metrics, through the same server (serveMetrics), with one sample in every
// metric so that labelled series appear too: `node --import tsx scripts/k8s/print-metrics.ts orchestrator | promtool check metrics`.
import { metricsRegistry, serveMetrics } from '@farm/runtime';
import { APP_METRIC_MODULES, loadAppMetrics } from './exported-metrics';

async function main(): Promise<void> {
  const app = process.argv[2];
  if (!app || !APP_METRIC_MODULES[app])
    throw new Error(`usage: print-metrics.ts <${Object.keys(APP_METRIC_MODULES).join('|')}>`);
  loadAppMetrics([app]);
  // By shape rather than class: prom-client is the apps' dependency, not this package's.
  type Sampled = { labelNames?: string[]; observe?: Function; set?: Function; inc?: Function }; // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  for (const m of metricsRegistry.getMetricsAsArray() as unknown as Sampled[]) {
    const labels = Object.fromEntries((m.labelNames ?? []).map((l) => [l, 'sample']));
    if (m.observe) m.observe(labels, 1);
    else if (m.set) m.set(labels, 1);
    else if (m.inc) m.inc(labels, 1);
  }
  const server = await serveMetrics(0);
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    process.stdout.write(await res.text());
  } finally {
    await server.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.message ?? err}\n`);
  process.exit(1);
});
