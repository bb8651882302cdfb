import { farm } from '@farm/proto';
import {
  lessonMigrations,
  lessonsConfigSchema,
  selectLessons,
  type LessonsConfig,
  type StoredLesson,
} from '@farm/lessons';
import { costCapConfigSchema, costCapMigrations, mayStartTask, type CostCapConfig } from './cost-cap';

/**
 * The orchestrator's side of the agents' budgets and lessons, as pure rules the decider applies: `gateDispatch`
 * (cost cap, lessons attached to the task) and `lessonToKeep` (which result's lesson is stored).
 */
export interface TaskAccountingSettings {
  /** US dollars per change request; 0: no cap. */
  requestMaxCostUsd: number;
  lessons: boolean;
  lessonsPerTask: number;
}

/** No cap, no lessons (the decider's default). */
export const NO_ACCOUNTING: TaskAccountingSettings = { requestMaxCostUsd: 0, lessons: false, lessonsPerTask: 0 };

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
export function gateDispatch(
  task: farm.v1.ICodingTask,
  request: { spentUsd: number; lessonCandidates: readonly StoredLesson[] },
  settings: TaskAccountingSettings = NO_ACCOUNTING,
): DispatchGate {
  const { spentUsd } = request;
  const decision = mayStartTask({ capUsd: settings.requestMaxCostUsd, spentUsd, taskId: task.id ?? '' });
  if (!decision.start) return decision;
  const lessons = settings.lessons ? selectLessons(request.lessonCandidates, task, settings.lessonsPerTask) : [];
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
