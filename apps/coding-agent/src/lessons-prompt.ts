import type { farm } from '@farm/proto';

/** Lessons from earlier tasks on the repository, as few-shot notes for the first prompt. */
export function renderLessons(lessons: farm.v1.ILesson[] | null | undefined, max = 3): string | undefined {
  const shown = (lessons ?? []).slice(0, max);
  if (!shown.length) return undefined;
  const items = shown.map((l, i) =>
    [
      `${i + 1}. Goal: ${l.goal}`,
      l.files?.length ? `   Files: ${l.files.join(', ')}` : '',
      l.firstFailure ? `   What failed first: ${l.firstFailure}` : '',
      l.fix ? `   What fixed it: ${l.fix}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return `LESSONS FROM EARLIER TASKS ON THIS REPOSITORY (most similar first):\n${items.join('\n')}`;
}

const oneLine = (s: string, max: number) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The lesson of a task that succeeded: goal, files touched, what failed first and what fixed it. */
export function lessonFromTask(
  task: farm.v1.ICodingTask,
  outcome: { files: string[]; firstFailure?: string; fix: string },
): farm.v1.ILesson {
  return {
    repoUrl: task.repo?.url ?? '',
    taskId: task.id ?? '',
    goal: oneLine(task.goal ?? '', 300),
    files: outcome.files.slice(0, 20),
    firstFailure: outcome.firstFailure ? oneLine(outcome.firstFailure, 400) : '',
    fix: oneLine(outcome.fix, 400),
  };
}
