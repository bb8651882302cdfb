/**
 * Runs compared on the instances they share, each against the first: instance by instance (resolved in
 * both, in one only, in neither) and the significance of the difference by the exact McNemar test on the
 * paired outcomes. An instance that errored or is incomplete in either run is left out of the pairs.
 */
import { judged, type InstanceResult } from './instance-result';
import { mcnemarExact } from './stats';

export interface RunResults {
  name: string;
  results: Map<string, InstanceResult>;
}

export interface PairComparison {
  baseline: string;
  other: string;
  paired: number;
  bothResolved: number;
  onlyBaseline: string[];
  onlyOther: string[];
  neither: number;
  resolvedRate: { baseline: number; other: number };
  /** Two-sided exact McNemar p-value. */
  pValue: number;
  /** Instances not paired, with why. */
  leftOut: { instance_id: string; why: string }[];
}

export interface Comparison {
  runs: string[];
  /** instance → each run's status ('-' when the run has no result for it). */
  table: { instance_id: string; statuses: string[] }[];
  pairs: PairComparison[];
}

export function compareRuns(runs: RunResults[]): Comparison {
  const ids = [...new Set(runs.flatMap((r) => [...r.results.keys()]))].sort();
  const table = ids.map((id) => ({ instance_id: id, statuses: runs.map((r) => r.results.get(id)?.status ?? '-') }));
  const [baseline, ...others] = runs;
  return { runs: runs.map((r) => r.name), table, pairs: others.map((other) => comparePair(baseline, other, ids)) };
}

function comparePair(baseline: RunResults, other: RunResults, ids: string[]): PairComparison {
  const out: PairComparison = {
    baseline: baseline.name,
    other: other.name,
    paired: 0,
    bothResolved: 0,
    onlyBaseline: [],
    onlyOther: [],
    neither: 0,
    resolvedRate: { baseline: 0, other: 0 },
    pValue: 1,
    leftOut: [],
  };
  for (const id of ids) {
    const a = baseline.results.get(id);
    const b = other.results.get(id);
    if (!a || !b) {
      out.leftOut.push({ instance_id: id, why: `no result in ${!a ? baseline.name : other.name}` });
      continue;
    }
    if (!judged(a) || !judged(b)) {
      out.leftOut.push({
        instance_id: id,
        why: `${!judged(a) ? `${a.status} in ${baseline.name}` : `${b.status} in ${other.name}`}`,
      });
      continue;
    }
    out.paired++;
    const ra = a.status === 'resolved';
    const rb = b.status === 'resolved';
    if (ra && rb) out.bothResolved++;
    else if (ra) out.onlyBaseline.push(id);
    else if (rb) out.onlyOther.push(id);
    else out.neither++;
  }
  if (out.paired) {
    out.resolvedRate = {
      baseline: (out.bothResolved + out.onlyBaseline.length) / out.paired,
      other: (out.bothResolved + out.onlyOther.length) / out.paired,
    };
  }
  out.pValue = mcnemarExact(out.onlyBaseline.length, out.onlyOther.length);
  return out;
}

/** The comparison as a person reads it. */
export function formatComparison(c: Comparison): string {
  const width = Math.max(11, ...c.table.map((r) => r.instance_id.length));
  const cols = c.runs.map((r) => Math.max(10, r.length));
  const lines = [
    ['instance'.padEnd(width), ...c.runs.map((r, i) => r.padEnd(cols[i]))].join('  ').trimEnd(),
    ...c.table.map((row) =>
      [row.instance_id.padEnd(width), ...row.statuses.map((s, i) => s.padEnd(cols[i]))].join('  ').trimEnd(),
    ),
    '',
  ];
  for (const p of c.pairs) {
    const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
    lines.push(
      `${p.other} vs ${p.baseline}: ${p.paired} paired instance(s), resolved ${pct(p.resolvedRate.other)} vs ${pct(p.resolvedRate.baseline)}; ` +
        `only ${p.other}: ${p.onlyOther.length}, only ${p.baseline}: ${p.onlyBaseline.length}, both: ${p.bothResolved}, neither: ${p.neither}; ` +
        `exact McNemar p = ${p.pValue.toPrecision(3)}${p.pValue < 0.05 ? ' (significant at 5 %)' : ' (not significant at 5 %)'}`,
    );
    if (p.leftOut.length) lines.push(`  left out: ${p.leftOut.map((l) => `${l.instance_id} (${l.why})`).join(', ')}`);
  }
  return lines.join('\n');
}
