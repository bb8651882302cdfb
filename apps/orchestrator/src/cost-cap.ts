import { z } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';

/**
 * The per-request cost cap: the agents report each task's model cost on its CommitResult (cost_usd); the
 * orchestrator adds it up per change request and starts no further task once the request has spent its cap.
 * Tasks already running finish (their own per-task budget bounds them).
 */
export const costCapConfigSchema = z.object({
  /** US dollars a change request's tasks may spend in all; 0 means no cap. */
  FARM_REQUEST_MAX_COST_USD: z.coerce.number().nonnegative().default(0),
});
export type CostCapConfig = z.infer<typeof costCapConfigSchema>;

/** Where the orchestrator keeps what each task spent (appended to orchestratorMigrations). */
export const costCapMigrations = [
  {
    name: 'orchestrator-003-task-cost',
    sql: `ALTER TABLE tasks ADD COLUMN IF NOT EXISTS cost_usd double precision NOT NULL DEFAULT 0;`,
  },
];

export type CostCapDecision = { start: true } | { start: false; reason: string };

/** Whether a request that has spent `spentUsd` may start another task under a cap of `capUsd` (0: no cap). */
export function mayStartTask(input: { capUsd: number; spentUsd: number; taskId: string }): CostCapDecision {
  if (input.capUsd <= 0 || input.spentUsd < input.capUsd) return { start: true };
  return {
    start: false,
    reason:
      `cost cap reached: the request has spent ${formatCostUsd(input.spentUsd)} of its ` +
      `${formatCostUsd(input.capUsd)} cap; task ${input.taskId} not started`,
  };
}

/** What a change request's tasks have spent so far, over all their dispatches. */
export async function requestCostSoFar(db: SqlExecutor, changeRequestId: string): Promise<number> {
  const r = await db.query<{ spent: number | string | null }>(
    'SELECT COALESCE(SUM(cost_usd), 0) AS spent FROM tasks WHERE change_request_id = $1',
    [changeRequestId],
  );
  return Number(r.rows[0]?.spent ?? 0);
}

/** Dollars as `farm status` shows them: cents for larger sums, four decimals for the small ones models cost. */
export function formatCostUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}
