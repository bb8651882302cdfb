import { z } from '@farm/runtime';

/**
 * The farm's own record of the commits its agents made, written by the agent before it pushes. Whether a commit
 * found on `agt/<task>` is the task's own (an earlier dispatch pushed it and died) is decided by this record, which
 * only a caller holding the component token can write, never by the commit's trailers, which anyone who may push
 * can type.
 */
export interface TaskCommits {
  /** Records that `commitSha` is the commit this dispatch of the task is about to push. Idempotent. */
  recordCommit(record: TaskCommitRecord): Promise<void>;
  /** The record of `commitSha` for this task of this change request; undefined when the farm never made it. */
  findCommit(query: TaskCommitQuery): Promise<TaskCommitRecord | undefined>;
}

const text = (max: number) => z.string().trim().min(1).max(max);
const commitSha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/i, 'a full commit id (40 or 64 hex digits)');

export const taskCommitRecordSchema = z.object({
  taskId: text(200),
  changeRequestId: text(200),
  commitSha,
  dispatch: z.number().int().min(0).max(1_000_000),
});
export const taskCommitQuerySchema = z.object({ taskId: text(200), changeRequestId: text(200), commitSha });

export type TaskCommitRecord = z.infer<typeof taskCommitRecordSchema>;
export type TaskCommitQuery = z.infer<typeof taskCommitQuerySchema>;
