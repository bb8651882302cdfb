import { migrate, type SqlStore } from '@farm/store';
import type { TaskLauncher } from './launcher';
import { dispatchedTasks } from './request-store';
import { orchestratorMigrations } from './schema';

/**
 * Hands the launcher the tasks the store has as running, so it can re-attach to their agents after a restart.
 * Call it before the orchestrator starts consuming, so no task dispatched by this process is among them.
 */
export async function resumeLaunches(store: SqlStore, launcher: TaskLauncher): Promise<number> {
  if (!launcher.resume) return 0;
  await migrate(store, orchestratorMigrations);
  const tasks = await dispatchedTasks(store);
  await launcher.resume(tasks);
  return tasks.length;
}
