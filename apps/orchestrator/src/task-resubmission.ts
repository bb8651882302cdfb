import type { SqlExecutor } from '@farm/store';
import type { ChangeRequestInput } from './change-request-input';

/**
 * Resubmitting a failed task: a new change request for that task's goal, on the same repository, base and check
 * command as its request, whose description links back to the task (and a row in task_resubmissions, so a
 * task is resubmitted once: asking again answers with the same new request). The original stays as it ended.
 */
export const resubmissionMigrations = [
  {
    name: 'orchestrator-007-task-resubmissions',
    sql: `
CREATE TABLE task_resubmissions (
  change_request_id text PRIMARY KEY,
  from_change_request_id text NOT NULL,
  from_task_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (from_change_request_id, from_task_id)
);
`,
  },
];

export interface FailedTask {
  changeRequestId: string;
  taskId: string;
  /** Its state's short name (PENDING, ..., HARD_FAIL). */
  status: string;
  goal: string;
  notes: string;
  request: { title: string; repoUrl: string; baseRef: string; checkCommand: string };
}

/** The states of a task that ended without its change: a new request may try again. */
const FAILED = new Set(['SOFT_FAIL', 'HARD_FAIL']);
const TITLE_MAX = 500;

/** Pure: the new request for a failed task, under `newId`; refused (with the reason) when the task did not fail. */
export function resubmission(
  task: FailedTask,
  newId: string,
): { ok: true; input: ChangeRequestInput & { changeRequestId: string } } | { ok: false; reason: string } {
  if (!FAILED.has(task.status)) {
    return {
      ok: false,
      reason: `task ${task.taskId} is ${task.status}; only a failed task (SOFT_FAIL, HARD_FAIL) is resubmitted`,
    };
  }
  const goal = task.goal.trim() || task.request.title;
  const firstLine = goal.split('\n')[0].trim() || task.request.title;
  const title = [...firstLine].length > TITLE_MAX ? `${[...firstLine].slice(0, TITLE_MAX - 1).join('')}…` : firstLine;
  const why = task.notes.split('\n')[0]?.trim();
  const description = [
    goal,
    '',
    `Resubmitted from task ${task.taskId} of change request ${task.changeRequestId} ("${task.request.title}"), ` +
      `which ended ${task.status}${why ? `: ${why}` : ''}.`,
  ]
    .join('\n')
    .slice(0, 100_000);
  return {
    ok: true,
    input: {
      changeRequestId: newId,
      title,
      description,
      requestedBy: `resubmit of ${task.changeRequestId}/${task.taskId}`.slice(0, 200),
      checkCommand: task.request.checkCommand,
      repo: { url: task.request.repoUrl, baseRef: task.request.baseRef, baseCommit: '' },
    },
  };
}

/** The request an earlier resubmission of this task created, if any. */
export async function resubmissionOf(
  db: SqlExecutor,
  changeRequestId: string,
  taskId: string,
): Promise<string | undefined> {
  const rows = await db.query<{ change_request_id: string }>(
    'SELECT change_request_id FROM task_resubmissions WHERE from_change_request_id = $1 AND from_task_id = $2',
    [changeRequestId, taskId],
  );
  return rows.rows[0]?.change_request_id;
}
