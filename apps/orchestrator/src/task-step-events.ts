import type { ServerResponse } from 'node:http';
import { errorMessage, type Logger } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';
import { formatSseComment, formatSseEvent, sleep } from './server-sent-events';
import { readTaskSteps } from './task-steps';

export interface TaskStepStreamOptions {
  /** How often the steps table is read for new steps. */
  pollMs: number;
  heartbeatMs: number;
  /**
   * How long after the task ended the stream still waits for steps: they travel on their own topic, so the last
   * ones may be stored just after the result.
   */
  settleMs: number;
  /** Ends a stream after this long even though its task runs on (the client resumes with Last-Event-ID). */
  maxStreamMs?: number;
}

export const DEFAULT_TASK_STEP_STREAM_OPTIONS: TaskStepStreamOptions = {
  pollMs: 300,
  heartbeatMs: 15_000,
  settleMs: 1_500,
};

/** A task that will not run again: its result is final, or its request ended. */
export async function taskEnded(
  db: SqlExecutor,
  changeRequestId: string,
  taskId: string,
): Promise<{ ended: boolean; status: string }> {
  const rows = await db.query<{ status: string; phase: string }>(
    `SELECT t.status, c.phase FROM tasks t JOIN change_requests c ON c.id = t.change_request_id
     WHERE t.id = $1 AND t.change_request_id = $2`,
    [taskId, changeRequestId],
  );
  const row = rows.rows[0];
  if (!row) return { ended: true, status: '' };
  const ended =
    ['SUCCESS', 'SOFT_FAIL', 'HARD_FAIL', 'CANCELLED'].includes(row.status) ||
    ['DONE', 'FAILED', 'CANCELLED'].includes(row.phase);
  return { ended, status: row.status };
}

/**
 * Writes a task's steps after `afterId` as Server-Sent Events (`event: step`, the id the step's cursor), first the
 * stored ones, then new ones as they arrive, across its dispatches and agent restarts; once the task ended (and
 * `settleMs` passed without a new step) an `event: end` with its status closes the stream. Nothing is held in
 * memory between polls but the cursor.
 */
export async function streamTaskSteps(input: {
  db: SqlExecutor;
  changeRequestId: string;
  taskId: string;
  afterId: number;
  res: ServerResponse;
  log: Logger;
  options?: Partial<TaskStepStreamOptions>;
  /** Asked before each read after the first: false (the caller's token was revoked) ends the stream. */
  stillAllowed?: () => Promise<boolean>;
}): Promise<void> {
  const { db, changeRequestId, taskId, res, log } = input;
  const options = { ...DEFAULT_TASK_STEP_STREAM_OPTIONS, ...input.options };
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(formatSseComment(`steps of task ${taskId} after ${input.afterId}`));
  const heartbeat = setInterval(() => res.write(formatSseComment('keep-alive')), options.heartbeatMs);
  const deadline = Date.now() + (options.maxStreamMs ?? Infinity);
  let cursor = input.afterId;
  let sent = 0;
  let polls = 0;
  let endedAt: number | undefined;
  try {
    while (!gone.signal.aborted) {
      if (polls++ && input.stillAllowed && !(await input.stillAllowed())) {
        log.info('task step stream ended: its token no longer allows it', { changeRequestId, taskId });
        break;
      }
      // Asked before reading, so that a step stored before the task ended is always read before the end is sent.
      const state = await taskEnded(db, changeRequestId, taskId);
      let fresh = 0;
      for (;;) {
        const steps = await readTaskSteps(db, changeRequestId, taskId, cursor);
        for (const s of steps) {
          res.write(
            formatSseEvent({
              id: s.id,
              event: 'step',
              data: JSON.stringify({ dispatch: s.dispatch, runId: s.runId, seq: s.seq, step: s.step }),
            }),
          );
          cursor = s.id;
        }
        fresh += steps.length;
        if (steps.length < 200) break;
      }
      sent += fresh;
      if (state.ended) {
        endedAt = fresh ? Date.now() : (endedAt ?? Date.now());
        if (Date.now() - endedAt >= options.settleMs) {
          res.write(formatSseEvent({ id: cursor, event: 'end', data: JSON.stringify({ status: state.status }) }));
          break;
        }
      }
      if (Date.now() >= deadline) break;
      await sleep(Math.min(options.pollMs, Math.max(0, deadline - Date.now())), gone.signal);
    }
  } catch (err) {
    log.error('task step stream failed', { changeRequestId, taskId, err: errorMessage(err) });
  } finally {
    clearInterval(heartbeat);
    log.debug('task step stream closed', { changeRequestId, taskId, sent, clientGone: gone.signal.aborted });
    res.end();
  }
}
