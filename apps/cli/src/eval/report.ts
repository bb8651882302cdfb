/**
 * A run's report: the resolved rate over the instances whose agent was judged (the instances' errors, the farm's
 * and the environment's failures and incomplete ones counted apart, never as failures), with its 95 % Wilson
 * interval, totals and means per instance, and every instance's status and reason.
 */
import { INSTANCE_STATUSES, judged, type InstanceResult, type InstanceStatus } from './instance-result';
import { wilsonInterval } from './stats';

export interface RunReport {
  runId: string;
  modelName: string;
  dataset: string;
  instances: number;
  counts: Record<InstanceStatus, number>;
  /** resolved / (resolved + unresolved). */
  resolvedRate: number;
  /** 95 % Wilson score interval of the resolved rate. */
  resolvedRateCi95: { low: number; high: number };
  /** resolved / every instance of the run (the figure leaderboards print, every other status a failure). */
  resolvedOfAll: number;
  costUsd: number;
  costPerResolvedUsd: number | null;
  tokens: { prompt: number; completion: number; total: number };
  modelCalls: number;
  wallTimeS: number;
  /** Per judged instance: the means public leaderboards report. */
  mean: { costUsd: number; modelCalls: number; turns: number; wallTimeS: number };
  editTiers: Record<string, number>;
  verification: Record<string, number>;
  results: Omit<InstanceResult, 'model_patch'>[];
  generatedAt: string;
}

export function buildReport(
  meta: { runId: string; modelName: string; dataset: string },
  results: InstanceResult[],
  now = new Date(),
): RunReport {
  const counts = Object.fromEntries(INSTANCE_STATUSES.map((s) => [s, 0])) as Record<InstanceStatus, number>;
  for (const r of results) counts[r.status]++;
  const judgedOnes = results.filter(judged);
  const sum = (of: (r: InstanceResult) => number, list = results) => list.reduce((s, r) => s + of(r), 0);
  const mean = (of: (r: InstanceResult) => number) => (judgedOnes.length ? sum(of, judgedOnes) / judgedOnes.length : 0);
  const editTiers: Record<string, number> = {};
  for (const r of results)
    for (const [tier, n] of Object.entries(r.editTiers)) editTiers[tier] = (editTiers[tier] ?? 0) + n;
  const verification: Record<string, number> = {};
  for (const r of judgedOnes) {
    const outcome = verificationOutcome(r);
    verification[outcome] = (verification[outcome] ?? 0) + 1;
  }
  const costUsd = sum((r) => r.costUsd);
  return {
    ...meta,
    instances: results.length,
    counts,
    resolvedRate: judgedOnes.length ? counts.resolved / judgedOnes.length : 0,
    resolvedRateCi95: wilsonInterval(counts.resolved, judgedOnes.length),
    resolvedOfAll: results.length ? counts.resolved / results.length : 0,
    costUsd,
    costPerResolvedUsd: counts.resolved ? costUsd / counts.resolved : null,
    tokens: {
      prompt: sum((r) => r.tokens.prompt),
      completion: sum((r) => r.tokens.completion),
      total: sum((r) => r.tokens.total),
    },
    modelCalls: sum((r) => r.modelCalls),
    wallTimeS: sum((r) => r.wallTimeS),
    mean: {
      costUsd: mean((r) => r.costUsd),
      modelCalls: mean((r) => r.modelCalls),
      turns: mean((r) => r.turns),
      wallTimeS: mean((r) => r.wallTimeS),
    },
    editTiers,
    verification,
    results: results.map(({ model_patch: _patch, ...rest }) => rest),
    generatedAt: now.toISOString(),
  };
}

/** What the farm said of the change's own tests: verified, unverified (and delivered anyway) or none. */
export function verificationOutcome(r: Pick<InstanceResult, 'verification'>): string {
  const v = r.verification;
  if (!v) return 'none';
  if (typeof v.unverifiedReason === 'string' && v.unverifiedReason) {
    return v.acceptedByReviewer ? 'unverified, accepted by the reviewer' : 'unverified';
  }
  return v.differential ? 'verified by its own tests' : 'checks only';
}
