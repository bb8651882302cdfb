import { farm } from '@farm/proto';
import { lessonMigrations, lessonsConfigSchema, lessonsForTask, type LessonsConfig } from '@farm/lessons';
import type { SqlExecutor } from '@farm/store';
import { costCapConfigSchema, costCapMigrations, mayStartTask, type CostCapConfig } from './cost-cap';
import { requestCostSoFar } from './request-store';

/**
 * The orchestrator's side of the agents' budgets and lessons: `beforeDispatch` (cost cap, lessons attached to
 * the task) and `lessonToKeep` (which result's lesson the decider has stored).
 */
export interface TaskAccountingSettings {
  /** US dollars per change request; 0: no cap. */
  requestMaxCostUsd: number;
  lessons: boolean;
  lessonsPerTask: number;
}

export const taskAccountingConfigSchema = costCapConfigSchema.merge(lessonsConfigSchema);

export function taskAccountingSettingsFrom(config: CostCapConfig & LessonsConfig): TaskAccountingSettings {
  return {
    requestMaxCostUsd: config.FARM_REQUEST_MAX_COST_USD,
    lessons: config.FARM_LESSONS_STORE === 'on',
    lessonsPerTask: config.FARM_LESSONS_PER_TASK,
  };
}

/** Appended to orchestratorMigrations: tasks.cost_usd and the lessons table. */
export const taskAccountingMigrations = [...costCapMigrations, ...lessonMigrations];

export type DispatchGate = { start: true; task: farm.v1.ICodingTask } | { start: false; reason: string };

/** Before a task is launched: refuse it when its request has spent its cap, else attach its lessons. */
export async function beforeDispatch(
  db: SqlExecutor,
  changeRequestId: string,
  task: farm.v1.ICodingTask,
  settings: TaskAccountingSettings,
): Promise<DispatchGate> {
  const spentUsd = settings.requestMaxCostUsd > 0 ? await requestCostSoFar(db, changeRequestId) : 0;
  const decision = mayStartTask({ capUsd: settings.requestMaxCostUsd, spentUsd, taskId: task.id ?? '' });
  if (!decision.start) return decision;
  const lessons = settings.lessons ? await lessonsForTask(db, task, settings.lessonsPerTask) : [];
  return { start: true, task: { ...task, lessons } };
}

/** The lesson of a task's result to keep for later tasks: a success's, when lessons are on. */
export function lessonToKeep(
  result: farm.v1.ICommitResult,
  settings: TaskAccountingSettings,
): farm.v1.ILesson | undefined {
  if (settings.lessons && result.lesson && result.status === farm.v1.CommitStatus.SUCCESS) return result.lesson;
  return undefined;
}
