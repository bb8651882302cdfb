import type { farm } from '@farm/proto';

/**
 * Turns a plan at a resolved base commit into a task bundle. Task ids derive from the request and the item,
 * so a redelivered plan yields the same tasks (and the same `agt/<task_id>` branches).
 */
export function bundlePlan(plan: farm.v1.IPlan, baseCommit: string): farm.v1.ITaskBundle {
  const repo = { url: plan.repo?.url, baseRef: plan.repo?.baseRef, baseCommit };
  const idOf = (itemId: string) => `${plan.changeRequestId}-${itemId}`;
  return {
    changeRequestId: plan.changeRequestId,
    repo,
    tasks: (plan.items ?? []).map((item) => ({
      id: idOf(item.itemId!),
      changeRequestId: plan.changeRequestId,
      goal: item.goal,
      kind: item.kind,
      path: item.pathHints?.[0] ?? '',
      symbols: item.symbolHints ?? [],
      dependsOn: (item.dependsOn ?? []).map(idOf),
      ...(item.estimatedChangedLines ? { estimatedChangedLines: item.estimatedChangedLines } : {}),
      repo,
      checkCommand: plan.checkCommand,
      blobIds: [],
      reservedLeases: [],
    })),
    ...(plan.planning ? { planning: plan.planning } : {}),
  };
}
