import { farm, taskStateName } from '@farm/proto';
import { formatCostUsd, type RequestSummary, type TaskSummary } from '@farm/orchestrator';

/**
 * One line per transition for people; --json prints transitionToJson instead. A task's result says what it was
 * and why (its reason), also when it is re-dispatched: its state is then PENDING again, and the SOFT_FAIL that
 * sent it back would otherwise not be seen.
 */
export function formatTransition(t: farm.v1.PhaseTransition): string {
  const seq = String(t.sequence).padStart(3);
  if (t.taskId) {
    const prefix = `task ${t.taskId}: `;
    const result = t.taskStatus && t.reason.startsWith(prefix) ? t.reason.slice(prefix.length) : '';
    const state = result || taskStateName(t.taskState) || farm.v1.CommitStatus[t.taskStatus] || '';
    const branch = t.branchName ? `  ${t.branchName}` : '';
    return `${seq}    task ${t.taskId}: ${state}${branch}`;
  }
  return `${seq}  ${farm.v1.Phase[t.toPhase].padEnd(9)} ${t.reason}`;
}

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (c ?? '').padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function formatRequestList(list: RequestSummary[]): string {
  if (!list.length) return 'no change requests';
  return table(
    ['ID', 'PHASE', 'TASKS', 'UPDATED', 'TITLE'],
    list.map((r) => [r.id, r.phase, `${r.tasksDone}/${r.tasksTotal}`, r.updatedAt.slice(0, 19), short(r.title, 50)]),
  );
}

/** Of the totals, what planning took (older farms answer no `planning`). */
const planningOf = (r: RequestSummary): string =>
  r.planning?.calls
    ? `; planning ${r.planning.calls} call(s), ${r.planning.totalTokens} tokens, ${formatCostUsd(r.planning.costUsd)}`
    : '';

export function formatRequest(
  r: RequestSummary,
  tasks: TaskSummary[],
  forge?: { repo: string; pullRequest?: { url: string }; issue?: number },
): string {
  const head = [
    `${r.id}  ${r.phase}`,
    `title:   ${r.title}`,
    `repo:    ${r.repoPath ?? r.repoUrl} @ ${r.baseRef}${r.baseCommit ? ` (${r.baseCommit.slice(0, 12)})` : ''}`,
    `reason:  ${r.reason}`,
    `effort:  ${r.attempts} attempt(s), ${r.tokens.total} tokens (${r.tokens.prompt} prompt, ${r.tokens.completion} completion), ${formatCostUsd(r.costUsd)}${planningOf(r)}`,
  ];
  if (r.integrationBranch) head.push(`branch:  ${r.integrationBranch}`);
  if (forge?.pullRequest) head.push(`pull:    ${forge.pullRequest.url}`);
  if (forge?.issue) head.push(`issue:   ${forge.repo}#${forge.issue}`);
  const rows = tasks.map((t) => [
    t.id,
    t.status,
    String(t.dispatch),
    String(t.attempts),
    String(t.tokens.total),
    formatCostUsd(t.costUsd),
    t.dependsOn.join(',') || '-',
    t.branch || '-',
  ]);
  return `${head.join('\n')}\n\n${tasks.length ? table(['TASK', 'STATUS', 'DISPATCH', 'ATTEMPTS', 'TOKENS', 'COST', 'AFTER', 'BRANCH'], rows) : 'no tasks yet'}`;
}
