import { randomUUID } from 'node:crypto';
import { json, type EdgeRequest, type Reply, type Route } from '@farm/http-edge';
import type { Logger } from '@farm/runtime';
import type { SqlExecutor, SqlStore } from '@farm/store';
import { ApiError, notFound } from './api-error';
import { parseResumeAfter, type ChangeRequestInput } from './change-request-input';
import { streamTaskSteps, type TaskStepStreamOptions } from './task-step-events';
import { resubmission, resubmissionOf, type FailedTask } from './task-resubmission';
import { checkRuns, taskReports } from './task-reports';

/** Accepts a submission like POST /v1/change-requests; `alsoInTx` runs in the transaction that records it. */
export type AcceptSubmission = (
  input: ChangeRequestInput & { changeRequestId: string },
  alsoInTx?: (tx: SqlExecutor) => Promise<void>,
) => Promise<{ created: boolean }>;

/**
 * The routes of one task of a request: what its agents did (trajectory with tool calls, steps, review verdicts
 * and budget use), the checks that ran with their output, the diff of its branch, all from the reports the
 * orchestrator keeps per dispatch (task-reports.ts); and resubmitting a failed task as a new request.
 */
export function taskRoutes(deps: {
  store: SqlStore;
  accept: AcceptSubmission;
  log: Logger;
  /** Whether the caller of `r` is still allowed (its token not revoked), asked while its step stream is open. */
  stillAllowed: (r: EdgeRequest) => Promise<boolean>;
  steps?: Partial<TaskStepStreamOptions>;
}): Route[] {
  const base = '/v1/change-requests/:id/tasks/:taskId';

  /** The task's steps as its agents take them (task-step-events.ts), from `Last-Event-ID` or `?after=` on. */
  async function events(r: EdgeRequest): Promise<void> {
    const { id, taskId } = await knownTask(deps.store, r);
    const lastEventId = r.req.headers['last-event-id'];
    const afterId = parseResumeAfter(
      Array.isArray(lastEventId) ? lastEventId.join(', ') : lastEventId,
      r.query('after'),
      '/v1/change-requests/{id}/tasks/{taskId}/events',
    );
    await streamTaskSteps({
      db: deps.store,
      changeRequestId: id,
      taskId,
      afterId,
      res: r.res,
      log: deps.log,
      options: deps.steps,
      stillAllowed: () => deps.stillAllowed(r),
    });
  }

  async function trajectory(r: EdgeRequest): Promise<Reply> {
    const { id, taskId } = await knownTask(deps.store, r);
    const dispatches = (await taskReports(deps.store, id, taskId)).map(
      ({ diff: _diff, diffTruncated: _cut, ...rest }) => rest,
    );
    return json(200, { changeRequestId: id, taskId, dispatches });
  }

  async function checks(r: EdgeRequest): Promise<Reply> {
    const { id, taskId } = await knownTask(deps.store, r);
    return json(200, { changeRequestId: id, taskId, checks: checkRuns(await taskReports(deps.store, id, taskId)) });
  }

  async function diff(r: EdgeRequest): Promise<Reply> {
    const { id, taskId, task } = await knownTask(deps.store, r);
    // The dispatch that committed: the last one with a diff (a later SOFT_FAIL has none).
    const committed = (await taskReports(deps.store, id, taskId)).filter((d) => d.diff).at(-1);
    return json(200, {
      changeRequestId: id,
      taskId,
      branch: task.branch,
      commitSha: task.commit_sha,
      dispatch: committed?.dispatch ?? 0,
      diff: committed?.diff ?? '',
      truncated: committed?.diffTruncated ?? false,
    });
  }

  async function resubmit(r: EdgeRequest): Promise<Reply> {
    const { id, taskId, task } = await knownTask(deps.store, r);
    const earlier = await resubmissionOf(deps.store, id, taskId);
    const from = { changeRequestId: id, taskId };
    if (earlier) return json(200, { changeRequestId: earlier, created: false, resubmittedFrom: from });
    const failed: FailedTask = {
      changeRequestId: id,
      taskId,
      status: task.status,
      goal: task.goal,
      notes: task.notes,
      request: { title: task.title, repoUrl: task.repo_url, baseRef: task.base_ref, checkCommand: task.check_command },
    };
    const plan = resubmission(failed, randomUUID());
    if (!plan.ok) throw new ApiError(409, plan.reason);
    await deps.accept(plan.input, async (tx) => {
      const linked = await tx.query(
        `INSERT INTO task_resubmissions (change_request_id, from_change_request_id, from_task_id)
         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING change_request_id`,
        [plan.input.changeRequestId, id, taskId],
      );
      // Resubmitted at the same moment by another call: that one stands, this one records nothing.
      if (!linked.rows.length) throw new ApiError(409, `task ${taskId} was just resubmitted; reload`);
    });
    const newId = plan.input.changeRequestId;
    return json(
      202,
      { changeRequestId: newId, created: true, resubmittedFrom: from },
      { location: `/v1/change-requests/${newId}` },
    );
  }

  return [
    { method: 'GET', path: `${base}/trajectory`, handler: trajectory },
    { method: 'GET', path: `${base}/checks`, handler: checks },
    { method: 'GET', path: `${base}/diff`, handler: diff },
    { method: 'GET', path: `${base}/events`, handler: events },
    { method: 'POST', path: `${base}/resubmit`, handler: resubmit },
  ];
}

interface TaskRow extends Record<string, unknown> {
  goal: string;
  status: string;
  notes: string;
  branch: string;
  commit_sha: string;
  title: string;
  repo_url: string;
  base_ref: string;
  check_command: string;
}

/** The task of the path with what a resubmission needs of its request; 404 when either is unknown. */
async function knownTask(db: SqlExecutor, r: EdgeRequest): Promise<{ id: string; taskId: string; task: TaskRow }> {
  const { id, taskId } = r.params;
  // NUL cannot be in a PostgreSQL text, so no request or task has it.
  if (id.includes('\0') || taskId.includes('\0')) throw notFound(`no task ${encodeURIComponent(taskId)}`);
  // The URL the user gave (a path on the farm's machine, for `farm up`), not the mirror the agents used.
  const rows = await db.query<TaskRow>(
    `SELECT t.goal, t.status, t.notes, t.branch, t.commit_sha, c.title, coalesce(a.repo_url, c.repo_url) AS repo_url,
       c.base_ref, c.check_command
     FROM tasks t JOIN change_requests c ON c.id = t.change_request_id
     LEFT JOIN api_submissions a ON a.id = c.id
     WHERE t.change_request_id = $1 AND t.id = $2`,
    [id, taskId],
  );
  if (!rows.rows.length) throw notFound(`no task ${taskId} in change request ${id}`);
  return { id, taskId, task: rows.rows[0] };
}
