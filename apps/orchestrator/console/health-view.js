// The farm's health from /healthz and /metrics: consumers and their lag, running agents and builds, the cap.
import { text } from '/console/api.js';
import { h, show } from '/console/dom.js';

/** Prometheus text format to samples: { name, labels, value }. */
export function parseMetrics(body) {
  const samples = [];
  for (const line of body.split('\n')) {
    const m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/);
    if (!m) continue;
    const labels = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

export async function healthView({ main, signal }) {
  const body = h('div');
  show(main, h('h1', {}, 'Health'), body);
  while (!signal.aborted) {
    const [health, metrics] = await Promise.all([text('/healthz'), text('/metrics')]);
    const samples = parseMetrics(metrics.text);
    const one = (name) => samples.find((s) => s.name === name)?.value;
    const lag = samples.filter((s) => s.name === 'farm_bus_consumer_lag');
    const phases = samples.filter((s) => s.name === 'farm_orchestrator_change_requests' && s.value > 0);
    const tasks = (state) =>
      samples.find((s) => s.name === 'farm_orchestrator_open_tasks' && s.labels.state === state)?.value;
    const facts = [
      ['Running agents (tasks dispatched)', tasks('DISPATCHED')],
      ['Tasks waiting to start', tasks('PENDING')],
      // Pending too, but no capacity would start them: their request waits for a person (Approvals).
      ['Tasks waiting for a person to approve their plan', tasks('AWAITING_APPROVAL')],
      // The Jobs launcher's own numbers, once it has read its cap (a farm of agent processes has none).
      ...(one('farm_launcher_jobs_cap')
        ? [
            ['Running agent Jobs', one('farm_launcher_jobs_running')],
            ['Tasks waiting for a Job slot', one('farm_launcher_jobs_queued')],
            ['Cap on running Jobs', one('farm_launcher_jobs_cap')],
          ]
        : []),
      ['Builds running', one('farm_builder_builds_running')],
    ].filter(([, v]) => v !== undefined);
    show(
      body,
      h(
        'p',
        { 'data-testid': 'healthz' },
        'Status: ',
        h(
          'strong',
          { class: health.status === 200 ? 'state-DONE' : 'state-FAILED' },
          health.status === 200 ? 'healthy' : 'unhealthy',
        ),
      ),
      health.status === 200 ? null : h('pre', {}, health.text),
      h('h2', {}, 'Agents and builds'),
      facts.length
        ? h(
            'dl',
            { class: 'facts' },
            facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
          )
        : h('p', { class: 'muted' }, 'No agent metrics in this process.'),
      h('h2', {}, 'Requests by phase'),
      phases.length
        ? h(
            'dl',
            { class: 'facts' },
            phases.map((s) => [h('dt', {}, s.labels.phase ?? '?'), h('dd', {}, s.value)]),
          )
        : h('p', { class: 'muted' }, 'None open.'),
      h('h2', {}, 'Consumers'),
      lag.length
        ? h(
            'table',
            { 'aria-label': 'Consumer lag' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Topic', 'Group', 'Lag'].map((c) => h('th', { scope: 'col' }, c)),
              ),
            ),
            h(
              'tbody',
              {},
              lag.map((s) =>
                h('tr', {}, h('td', {}, s.labels.topic), h('td', {}, s.labels.group), h('td', {}, s.value)),
              ),
            ),
          )
        : h('p', { class: 'muted' }, 'No consumer lag reported (the in-process bus has none to report).'),
    );
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
}
