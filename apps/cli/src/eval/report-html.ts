/**
 * The report as a page a person reads: one self-contained HTML file (inline CSS and SVG, no external asset, no
 * script), with the resolved rate and its interval, the infrastructure failures apart, cost per instance and per
 * resolved one, and time per instance as plots, the table of instances, and each instance's details (its tests,
 * the test output its verdict was graded from, the farm's verification, its patch, links to its trajectory files)
 * below, where its row links.
 */
import type { RunReport } from './report';

/** What the page shows of each instance beyond its row: its patch and its trajectory files (paths from the page). */
export interface InstanceDetails {
  patches?: ReadonlyMap<string, string>;
  trajectories?: ReadonlyMap<string, string[]>;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STATUS_COLOUR: Record<string, string> = {
  resolved: '#2e7d32',
  unresolved: '#c62828',
  error: '#6d6d6d',
  infra_error: '#6a1b9a',
  incomplete: '#b58900',
};

/** A horizontal bar chart of one value per instance, coloured by status. */
function barChart(title: string, rows: { label: string; value: number; status: string }[], unit: string): string {
  const rowH = 18;
  const labelW = 220;
  const barW = 360;
  const max = Math.max(...rows.map((r) => r.value), 1e-9);
  const height = rows.length * rowH + 24;
  const bars = rows
    .map((r, i) => {
      const y = 20 + i * rowH;
      const w = Math.max(1, (r.value / max) * barW);
      return (
        `<text x="${labelW - 6}" y="${y + 12}" text-anchor="end">${esc(r.label)}</text>` +
        `<rect x="${labelW}" y="${y + 2}" width="${w.toFixed(1)}" height="${rowH - 5}" fill="${STATUS_COLOUR[r.status] ?? '#444'}"/>` +
        `<text x="${labelW + w + 4}" y="${y + 12}">${esc(formatValue(r.value, unit))}</text>`
      );
    })
    .join('');
  return (
    `<figure><svg role="img" aria-label="${esc(title)}" width="${labelW + barW + 90}" height="${height}" ` +
    `font-size="11" font-family="sans-serif"><text x="0" y="12" font-weight="bold">${esc(title)}</text>${bars}</svg></figure>`
  );
}

function formatValue(v: number, unit: string): string {
  return unit === '$' ? `$${v.toFixed(4)}` : `${v.toFixed(1)} ${unit}`;
}

/** The resolved rate on a 0–100 % axis with its 95 % interval as a whisker. */
function rateChart(report: RunReport): string {
  const w = 400;
  const x = (p: number) => 10 + p * w;
  const { low, high } = report.resolvedRateCi95;
  return (
    `<figure><svg role="img" aria-label="resolved rate" width="${w + 60}" height="56" font-size="11" font-family="sans-serif">` +
    `<rect x="10" y="14" width="${w}" height="16" fill="#eee"/>` +
    `<rect x="10" y="14" width="${(report.resolvedRate * w).toFixed(1)}" height="16" fill="${STATUS_COLOUR.resolved}"/>` +
    `<line x1="${x(low).toFixed(1)}" x2="${x(high).toFixed(1)}" y1="22" y2="22" stroke="#000" stroke-width="2"/>` +
    `<line x1="${x(low).toFixed(1)}" x2="${x(low).toFixed(1)}" y1="16" y2="28" stroke="#000"/>` +
    `<line x1="${x(high).toFixed(1)}" x2="${x(high).toFixed(1)}" y1="16" y2="28" stroke="#000"/>` +
    `<text x="10" y="46">0 %</text><text x="${w - 10}" y="46">100 %</text>` +
    `<text x="${(w / 2).toFixed(0)}" y="46" text-anchor="middle">${pct(report.resolvedRate)} (95 % CI ${pct(low)}–${pct(high)})</text>` +
    `</svg></figure>`
  );
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** An id usable as an HTML anchor, the same for the same instance. */
const anchorOf = (instanceId: string) => `i-${instanceId.replace(/[^A-Za-z0-9_-]/g, (c) => `.${c.charCodeAt(0)}`)}`;

/** Counts as a two-column table (edit tiers, verification outcomes), or a dash when there are none. */
function countsTable(title: string, counts: Record<string, number>): string {
  const rows = Object.entries(counts).sort(([, a], [, b]) => b - a);
  if (!rows.length) return `<p>${esc(title)}: none.</p>`;
  const body = rows.map(([k, n]) => `<tr><td>${esc(k)}</td><td>${n}</td></tr>`).join('');
  return `<table><caption>${esc(title)}</caption><tbody>${body}</tbody></table>`;
}

const testList = (title: string, tests: string[]) =>
  tests.length
    ? `<li>${esc(title)} (${tests.length}): ${tests.map((t) => `<code>${esc(t)}</code>`).join(', ')}</li>`
    : '';

/** An object's fields as "name: value" in words, nested values as code. */
const factsOf = (o: Record<string, unknown>) =>
  Object.entries(o)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${esc(k)}: ${typeof v === 'object' ? `<code>${esc(JSON.stringify(v))}</code>` : esc(String(v))}`)
    .join('; ') || 'none';

/** One instance's section: what its row cannot hold. */
function instanceSection(r: RunReport['results'][number], details: InstanceDetails): string {
  const patch = details.patches?.get(r.instance_id) ?? '';
  const files = details.trajectories?.get(r.instance_id) ?? [];
  const tests = r.tests
    ? `<ul>${testList('FAIL_TO_PASS passed', r.tests.failToPass.passed)}${testList('FAIL_TO_PASS failed', r.tests.failToPass.failed)}` +
      `${testList('PASS_TO_PASS failed', r.tests.passToPass.failed)}<li>PASS_TO_PASS passed: ${r.tests.passToPass.passed.length}</li></ul>`
    : '<p>Not scored.</p>';
  const runs = r.testRuns ?? {};
  const logs = (
    [
      ['the tests on the change (the verdict)', runs.change],
      ['the tests at the base (the set-up check)', runs.base],
      ['the environment set-up', runs.setup],
    ] as const
  )
    .filter(([, run]) => run)
    .map(
      ([what, run]) =>
        `<li><a href="${esc(run!.log)}">${esc(what)}</a>: <code>${esc(run!.command)}</code>, ` +
        `${run!.timedOut ? 'timed out' : `exit ${run!.exitCode}`}, ${run!.durationS.toFixed(1)} s` +
        `${'parser' in run! ? `, read as ${esc(run!.parser)}` : ''}</li>`,
    )
    .join('');
  const facts = [
    r.changeRequestId ? `request <code>${esc(r.changeRequestId)}</code>` : 'no request',
    r.phase ? `final phase ${esc(r.phase)}` : '',
    `${r.dispatches} dispatch(es)`,
    r.stageTimesS
      ? `set-up ${r.stageTimesS.setup.toFixed(1)} s, farm ${r.stageTimesS.farm.toFixed(1)} s, scoring ${r.stageTimesS.scoring.toFixed(1)} s`
      : '',
  ].filter(Boolean);
  return (
    `<section id="${anchorOf(r.instance_id)}"><h3>${esc(r.instance_id)}: ` +
    `<span style="color:${STATUS_COLOUR[r.status]}">${r.status}</span></h3>` +
    `<p>${esc(r.reason)}</p><p>${facts.join('; ')}.</p>${tests}` +
    (logs ? `<p>Test output kept (what the verdict was graded from):</p><ul>${logs}</ul>` : '') +
    (r.verification ? `<p>The farm's verification: ${factsOf(r.verification)}.</p>` : '') +
    (files.length
      ? `<p>Trajectories: ${files.map((f) => `<a href="${esc(f)}">${esc(f.split('/').pop()!)}</a>`).join(', ')}</p>`
      : '') +
    (patch
      ? `<details><summary>patch (${patch.split('\n').length} lines)</summary><pre>${esc(patch)}</pre></details>`
      : '<p>No patch.</p>') +
    `<p><a href="#instances">back to the table</a></p></section>`
  );
}

/** The runs the farm or its environment failed, apart: none is the agent's, each is run again by the next run. */
function infraSection(rows: RunReport['results']): string {
  const failed = rows.filter((r) => r.status === 'infra_error');
  if (!failed.length) return '';
  const items = failed
    .map((r) => `<li><a href="#${anchorOf(r.instance_id)}">${esc(r.instance_id)}</a>: ${esc(r.reason)}</li>`)
    .join('');
  return (
    `<h2 id="infra">Infrastructure failures</h2><p>The farm or the environment failed these runs (not the agent): ` +
    `they are not in the resolved rate, and the next run of the same id runs them again.</p><ul>${items}</ul>`
  );
}

export function renderReportHtml(report: RunReport, details: InstanceDetails = {}): string {
  const rows = report.results;
  const c = report.counts;
  const table = rows
    .map(
      (r) =>
        `<tr><td><a href="#${anchorOf(r.instance_id)}">${esc(r.instance_id)}</a></td><td style="color:${STATUS_COLOUR[r.status]}">${r.status}</td>` +
        `<td>${esc(r.reason)}</td><td>$${r.costUsd.toFixed(4)}</td><td>${r.tokens.total}</td><td>${r.modelCalls}</td>` +
        `<td>${r.turns}</td><td>${r.wallTimeS.toFixed(1)} s</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>farm eval: ${esc(report.runId)}</title>
<style>body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px;text-align:left;vertical-align:top}figure{margin:1em 0}caption{text-align:left;font-weight:bold;margin-top:1em}pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:12px}section{border-top:1px solid #ddd;margin-top:1em}</style>
</head><body>
<h1>farm eval: ${esc(report.runId)}</h1>
<p>Model <b>${esc(report.modelName)}</b> on <code>${esc(report.dataset)}</code>, ${report.instances} instance(s):
<b>${c.resolved}</b> resolved, ${c.unresolved} unresolved, ${c.error} instance error(s), ${c.infra_error} infrastructure
failure(s) and ${c.incomplete} incomplete (only resolved and unresolved instances are in the rate).</p>
${infraSection(rows)}
<p>Resolved rate <b>${pct(report.resolvedRate)}</b> (95 % Wilson interval ${pct(report.resolvedRateCi95.low)}–${pct(report.resolvedRateCi95.high)});
of all instances ${pct(report.resolvedOfAll)}. Cost $${report.costUsd.toFixed(4)}${report.costPerResolvedUsd === null ? '' : `, $${report.costPerResolvedUsd.toFixed(4)} per resolved instance`};
${report.tokens.total} tokens; ${report.modelCalls} model calls; mean per judged instance: ${report.mean.modelCalls.toFixed(1)} calls,
${report.mean.turns.toFixed(1)} turns, ${report.mean.wallTimeS.toFixed(1)} s.</p>
${rateChart(report)}
${barChart(
  'cost per instance',
  rows.map((r) => ({ label: r.instance_id, value: r.costUsd, status: r.status })),
  '$',
)}
${barChart(
  'wall time per instance',
  rows.map((r) => ({ label: r.instance_id, value: r.wallTimeS, status: r.status })),
  's',
)}
<table id="instances"><thead><tr><th>instance</th><th>status</th><th>reason</th><th>cost</th><th>tokens</th><th>model calls</th><th>turns</th><th>wall time</th></tr></thead>
<tbody>
${table}
</tbody></table>
${countsTable('how the edits were located', report.editTiers)}
${countsTable("the farm's own verification", report.verification)}
<h2>Instances</h2>
${rows.map((r) => instanceSection(r, details)).join('\n')}
<p>Generated ${esc(report.generatedAt)}.</p>
</body></html>
`;
}
