import { farm } from '@farm/proto';

/** One line per transition for people; --json prints the proto3 JSON mapping instead. */
export function formatTransition(t: farm.v1.PhaseTransition): string {
  const seq = String(t.sequence).padStart(3);
  if (t.taskId) {
    const status = farm.v1.CommitStatus[t.taskStatus] ?? '';
    const branch = t.branchName ? `  ${t.branchName}` : '';
    return `${seq}  task ${t.taskId}: ${status}${branch}`;
  }
  return `${seq}  ${farm.v1.Phase[t.toPhase].padEnd(9)} ${t.reason}`;
}
