import type { farm } from '@farm/proto';
import { z } from '@farm/runtime';
import { migrate, type SqlExecutor, type SqlStore } from '@farm/store';
import { rankLessons } from './rank-lessons';

/** Whether the farm keeps and hands out lessons, and how many go into a task's first prompt. */
export const lessonsConfigSchema = z.object({
  FARM_LESSONS_STORE: z.enum(['on', 'off']).default('on'),
  FARM_LESSONS_PER_TASK: z.coerce.number().int().min(0).max(10).default(3),
});
export type LessonsConfig = z.infer<typeof lessonsConfigSchema>;

export const lessonMigrations = [
  {
    name: 'lessons-001',
    sql: `
CREATE TABLE IF NOT EXISTS lessons (
  id bigserial PRIMARY KEY,
  task_id text NOT NULL UNIQUE,
  repo_url text NOT NULL,
  goal text NOT NULL,
  files text NOT NULL DEFAULT '[]',
  first_failure text NOT NULL DEFAULT '',
  fix text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS lessons_by_repo ON lessons (repo_url, created_at DESC);
`,
  },
];

export interface StoredLesson {
  taskId: string;
  repoUrl: string;
  goal: string;
  files: string[];
  firstFailure: string;
  fix: string;
  createdAt: string;
}

/** Creates the lessons table (once; safe on every start-up). */
export const migrateLessons = (store: SqlStore): Promise<void> => migrate(store, lessonMigrations);

/** Stores the lesson of a task; a redelivered result (same task id) changes nothing. Returns whether it was new. */
export async function storeLesson(db: SqlExecutor, lesson: farm.v1.ILesson): Promise<boolean> {
  if (!lesson.taskId || !lesson.repoUrl || !lesson.goal) return false;
  const r = await db.query(
    `INSERT INTO lessons (task_id, repo_url, goal, files, first_failure, fix) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (task_id) DO NOTHING RETURNING id`,
    [
      lesson.taskId,
      lesson.repoUrl,
      lesson.goal,
      JSON.stringify(lesson.files ?? []),
      lesson.firstFailure ?? '',
      lesson.fix ?? '',
    ],
  );
  return r.rows.length > 0;
}

function toLesson(r: Record<string, unknown>): StoredLesson {
  return {
    taskId: String(r.task_id),
    repoUrl: String(r.repo_url),
    goal: String(r.goal),
    files: JSON.parse(String(r.files)) as string[],
    firstFailure: String(r.first_failure),
    fix: String(r.fix),
    createdAt: new Date(r.created_at as string).toISOString(),
  };
}

/** Lessons, newest first; of one repository when `repoUrl` is given (`farm lessons`, GET /v1/lessons). */
export async function listLessons(
  db: SqlExecutor,
  opts: { repoUrl?: string; limit?: number } = {},
): Promise<StoredLesson[]> {
  const limit = Math.min(Math.max(1, opts.limit ?? 50), 500);
  const r = opts.repoUrl
    ? await db.query('SELECT * FROM lessons WHERE repo_url = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [
        opts.repoUrl,
        limit,
      ])
    : await db.query('SELECT * FROM lessons ORDER BY created_at DESC, id DESC LIMIT $1', [limit]);
  return r.rows.map(toLesson);
}

/** How many recent lessons of a repository are ranked for a new task (ranking is in memory). */
export const LESSON_CANDIDATES = 500;

/**
 * The lessons of the task's repository most similar to it (goal, main file, symbols), best first, as they
 * travel on CodingTask.lessons. None for a task without a repository.
 */
export async function lessonsForTask(
  db: SqlExecutor,
  task: farm.v1.ICodingTask,
  limit: number,
): Promise<farm.v1.ILesson[]> {
  const repoUrl = task.repo?.url;
  if (!repoUrl || limit <= 0) return [];
  return selectLessons(await listLessons(db, { repoUrl, limit: LESSON_CANDIDATES }), task, limit);
}

/** `lessonsForTask` over candidates already read (newest first): those of the task's repository, ranked. */
export function selectLessons(
  candidates: readonly StoredLesson[],
  task: farm.v1.ICodingTask,
  limit: number,
): farm.v1.ILesson[] {
  const repoUrl = task.repo?.url;
  if (!repoUrl || limit <= 0) return [];
  const mine = candidates.filter((l) => l.repoUrl === repoUrl && l.taskId !== task.id);
  const query = [task.goal ?? '', task.path ?? '', ...(task.symbols ?? [])].join('\n');
  return rankLessons(query, mine, limit).map((l) => ({
    repoUrl: l.repoUrl,
    taskId: l.taskId,
    goal: l.goal,
    files: l.files,
    firstFailure: l.firstFailure,
    fix: l.fix,
  }));
}
