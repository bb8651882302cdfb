import { farm } from '@farm/proto';
import { parseTrailers, withTrailers } from '@farm/git';

/** Trailers that say which task, dispatch and change request made a commit on `agt/<task>`. */
export const TASK_TRAILER = 'Farm-Task';
export const DISPATCH_TRAILER = 'Farm-Dispatch';
export const CHANGE_REQUEST_TRAILER = 'Farm-Change-Request';

/** The commit message of a task's change: a conventional subject, then the trailers that identify the task. */
export function taskCommitMessage(task: farm.v1.ICodingTask): string {
  return withTrailers(`${kindWord(task.kind)}(${task.id}): ${firstLine(task.goal)}`, {
    [TASK_TRAILER]: task.id ?? '',
    [DISPATCH_TRAILER]: String(task.dispatch ?? 0),
    [CHANGE_REQUEST_TRAILER]: task.changeRequestId ?? '',
  });
}

/**
 * Whether a commit's trailers name this task (any dispatch of it, of this change request). Necessary, never
 * sufficient: trailers are text anyone who may push can write, so a commit whose trailers match is the task's own
 * only when the farm recorded it before its push (see ownCommit in task-branch.ts). Anything else (no trailers,
 * another task's, another request's) is foreign: never reported as this task's work.
 */
export type CommitOwner = { kind: 'this-task'; dispatch: number } | { kind: 'foreign'; reason: string };

export function commitOwner(task: farm.v1.ICodingTask, message: string): CommitOwner {
  const trailers = parseTrailers(message);
  const taskId = trailers.get(TASK_TRAILER);
  if (taskId === undefined) return { kind: 'foreign', reason: `it has no ${TASK_TRAILER} trailer` };
  if (taskId !== task.id) return { kind: 'foreign', reason: `it was made by task ${taskId}` };
  const changeRequestId = trailers.get(CHANGE_REQUEST_TRAILER);
  if (changeRequestId !== (task.changeRequestId ?? '')) {
    return { kind: 'foreign', reason: `it was made for change request ${changeRequestId ?? '(none)'}` };
  }
  const dispatch = Number(trailers.get(DISPATCH_TRAILER));
  if (!Number.isInteger(dispatch)) return { kind: 'foreign', reason: `it has no valid ${DISPATCH_TRAILER} trailer` };
  return { kind: 'this-task', dispatch };
}

const firstLine = (s?: string | null) => (s ?? '').split('\n')[0].slice(0, 72);
const KIND_WORDS: Record<number, string> = {
  [farm.v1.TaskKind.FIX]: 'fix',
  [farm.v1.TaskKind.REFACTOR]: 'refactor',
  [farm.v1.TaskKind.TEST]: 'test',
  [farm.v1.TaskKind.DOCS]: 'docs',
};
const kindWord = (k?: farm.v1.TaskKind | null) => KIND_WORDS[k ?? 0] ?? 'feat';
