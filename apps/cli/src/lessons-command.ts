import { type Command, InvalidArgumentError } from 'commander';
import type { Lesson } from '@farm/farm-api';
import { cliApi } from './cli-api';
import { resolveRepoArg } from './repo-arg';

export function formatLessons(lessons: Lesson[]): string {
  if (!lessons.length) return 'no lessons yet';
  return lessons
    .map((l) =>
      [
        `${l.createdAt.slice(0, 16).replace('T', ' ')}  ${l.repoPath ?? l.repoUrl}  (task ${l.taskId})`,
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

/** `farm lessons [--repo URL|DIR] [--limit N] [--json]`. */
export function registerLessonsCommand(program: Command): void {
  program
    .command('lessons')
    .description('what the agents learned from tasks that succeeded (goal, files, what failed first, what fixed it)')
    .option(
      '--repo <url|dir>',
      'only the lessons of this repository: its clone URL, or a local repository (. or a path)',
    )
    .option('--limit <n>', 'how many, newest first', positive, 50)
    .option('--json', 'print JSON')
    .action(async (o: { repo?: string; limit: number; json?: boolean }) => {
      const api = await cliApi();
      // A directory is named as `farm submit --repo DIR` names it: the absolute path of its repository.
      const repo = o.repo === undefined ? undefined : (await resolveRepoArg(o.repo)).repoUrl;
      const lessons = await api.lessons({ repo, limit: o.limit });
      process.stdout.write((o.json ? JSON.stringify(lessons, null, 2) : formatLessons(lessons)) + '\n');
    });
}
