import { type Command, InvalidArgumentError } from 'commander';
import type { StoredLesson } from '@farm/lessons';
import { cliApi } from './cli-api';

export function formatLessons(lessons: StoredLesson[]): string {
  if (!lessons.length) return 'no lessons yet';
  return lessons
    .map((l) =>
      [
        `${l.createdAt.slice(0, 16).replace('T', ' ')}  ${l.repoUrl}  (task ${l.taskId})`,
        `  goal:    ${l.goal}`,
        l.files.length ? `  files:   ${l.files.join(', ')}` : '',
        l.firstFailure ? `  failed:  ${l.firstFailure}` : '',
        l.fix ? `  fixed:   ${l.fix}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n');
}

const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 500) throw new InvalidArgumentError('a whole number from 1 to 500');
  return n;
};

/** `farm lessons [--repo URL] [--limit N] [--json]`. */
export function registerLessonsCommand(program: Command): void {
  program
    .command('lessons')
    .description('what the agents learned from tasks that succeeded (goal, files, what failed first, what fixed it)')
    .option('--repo <url>', 'only the lessons of this repository (its clone URL)')
    .option('--limit <n>', 'how many, newest first', positive, 50)
    .option('--json', 'print JSON')
    .action(async (o: { repo?: string; limit: number; json?: boolean }) => {
      const api = await cliApi();
      const lessons = await api.lessons({ repo: o.repo, limit: o.limit });
      process.stdout.write((o.json ? JSON.stringify(lessons, null, 2) : formatLessons(lessons)) + '\n');
    });
}
