// The Grafana dashboard loads, and every query (and alert rule) names only metrics the apps export.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PENDING_METRICS, PROMETHEUS_SERIES, exportedMetrics } from './exported-metrics';

const ROOT = path.resolve(__dirname, '../..');
const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'deploy/grafana/dashboards/agent-farm.json'), 'utf8'));
const alerts = readFileSync(path.join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8');

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'Inf', 'NaN']);

/** Metric names a PromQL expression selects: identifiers outside label matchers, ranges, groupings and calls. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w.$])[a-zA-Z_:][\w:]*/g)) {
    const isCall = /^\s*\(/.test(bare.slice(m.index! + m[0].length));
    if (!isCall && !KEYWORDS.has(m[0])) names.add(m[0]);
  }
  return [...names];
}

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos?: object;
  datasource?: { uid?: string };
  targets?: { expr: string; refId: string }[];
  panels?: Panel[];
}
const panels: Panel[] = (dashboard.panels as Panel[]).flatMap((p) => [p, ...(p.panels ?? [])]);
const queryPanels = panels.filter((p) => p.type !== 'row');

let exported: Map<string, string>;
beforeAll(async () => {
  exported = await exportedMetrics();
});

/** Why a name is not acceptable, or undefined when an app exports it (histograms: _bucket/_sum/_count too). */
function problemWith(name: string): string | undefined {
  const base = name.replace(/_(bucket|sum|count)$/, '');
  if (exported.has(name) || ['histogram', 'summary'].includes(exported.get(base) ?? '')) return undefined;
  if (PROMETHEUS_SERIES.includes(name)) return undefined;
  if (PENDING_METRICS.some((p) => p.name === name || p.name === base)) return undefined;
  return `${name} is exported by no app (and is not in PENDING_METRICS)`;
}

test('the dashboard is a Grafana dashboard with unique panel ids, each placed on the grid', () => {
  expect(dashboard).toMatchObject({ uid: 'agent-farm', title: expect.any(String), schemaVersion: expect.any(Number) });
  const ids = panels.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const p of panels)
    expect(p.gridPos).toEqual(expect.objectContaining({ w: expect.any(Number), h: expect.any(Number) }));
  expect(queryPanels.length).toBeGreaterThanOrEqual(15);
});

test('every panel queries Prometheus through the dashboard’s datasource variable', () => {
  for (const p of queryPanels) {
    expect({ panel: p.title, uid: p.datasource?.uid }).toEqual({ panel: p.title, uid: '${datasource}' });
    expect({ panel: p.title, hasQueries: (p.targets?.length ?? 0) > 0 }).toEqual({ panel: p.title, hasQueries: true });
  }
});

test('every panel names only metrics the apps export', () => {
  const problems = queryPanels.flatMap((p) =>
    p.targets!.flatMap((t) => {
      const names = metricNamesIn(t.expr);
      if (!names.length) return [`${p.title}: query ${t.refId} names no metric`];
      return names.map(problemWith).flatMap((why) => (why ? [`${p.title}: ${why}`] : []));
    }),
  );
  expect(problems).toEqual([]);
});

test('every alert rule names only metrics the apps export', () => {
  const exprs = [...alerts.matchAll(/^\s*expr:\s*(.+)$/gm)].map((m) => m[1]);
  expect(exprs.length).toBeGreaterThan(0);
  const problems = exprs.flatMap((e) => metricNamesIn(e).flatMap((n) => problemWith(n) ?? []));
  expect(problems).toEqual([]);
});

test('the dashboard covers what operators watch', () => {
  const covered = new Set(queryPanels.flatMap((p) => p.targets!.flatMap((t) => metricNamesIn(t.expr))));
  for (const name of [
    'farm_orchestrator_change_requests', // requests by phase
    'farm_orchestrator_phase_duration_seconds_bucket', // phase durations
    'farm_orchestrator_task_results_total', // task outcomes
    'farm_agent_attempts_bucket', // attempts
    'farm_agent_llm_tokens_total', // tokens per model
    'farm_srm_lease_conflicts_total', // lease conflicts
    'farm_bus_consumer_lag', // consumer lag
    'farm_launcher_jobs_running', // Jobs running
  ])
    expect(covered).toContain(name);
});

test('a pending metric leaves the pending list once an app exports it', () => {
  expect(PENDING_METRICS.filter((p) => exported.has(p.name)).map((p) => p.name)).toEqual([]);
});

test('metric names are read from PromQL as Prometheus would', () => {
  expect(
    metricNamesIn(
      'histogram_quantile(0.95, sum by (le, step) (rate(farm_agent_step_duration_seconds_bucket{job=~"$job"}[$__rate_interval])))',
    ),
  ).toEqual(['farm_agent_step_duration_seconds_bucket']);
  expect(metricNamesIn('sum(farm_a) > 0 and sum(farm_b offset 5m) == 0')).toEqual(['farm_a', 'farm_b']);
  expect(metricNamesIn('sum by (group, topic) (farm_bus_consumer_lag) > 100')).toEqual(['farm_bus_consumer_lag']);
});
