import { decodeTaskBase64 } from '@farm/proto';
import { migrate, type SqlStore } from '@farm/store';
import type { TaskLauncher } from './launcher';
import { orchestratorMigrations } from './schema';

/**
 * Hands the launcher the tasks the store has as running, so it can re-attach to their agents after a restart.
 * Call it before the orchestrator starts consuming, so no task dispatched by this process is among them.
 */
export async function resumeLaunches(store: SqlStore, launcher: TaskLauncher): Promise<number> {
  if (!launcher.resume) return 0;
  await migrate(store, orchestratorMigrations);
  const rows = await store.query<{ task_b64: string; dispatch: number }>(
    `SELECT task_b64, dispatch FROM tasks WHERE status = 'DISPATCHED' ORDER BY id`,
  );
  const tasks = rows.rows.map((r) => {
    const task = decodeTaskBase64(r.task_b64);
    task.dispatch = Number(r.dispatch);
    return task;
  });
  await launcher.resume(tasks);
  return tasks.length;
}
