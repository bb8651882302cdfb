import { Command, InvalidArgumentError } from 'commander';
import type { StoredLesson } from '@farm/lessons';
import { loadCliConfig } from './config';
import { ConfigError } from '@farm/runtime';
import { FarmApiError } from './farm-api';

/** The lessons the farm keeps, from its HTTP API (GET /v1/lessons). */
export async function fetchLessons(baseUrl: string, opts: { repo?: string; limit: number }): Promise<StoredLesson[]> {
  const url = new URL('/v1/lessons', baseUrl);
  if (opts.repo) url.searchParams.set('repo', opts.repo);
  url.searchParams.set('limit', String(opts.limit));
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
    throw new ConfigError(
      `cannot reach the farm at ${baseUrl} (${cause}). Start one with \`farm up\`, or set FARM_URL`,
    );
  }
  if (!res.ok) {
    const text = await res.text();
    let message = `the farm answered ${res.status}`;
    try {
      const body = JSON.parse(text) as { error?: { message?: string } | string };
      message = (typeof body.error === 'string' ? body.error : body.error?.message) ?? message;
    } catch {
      message = `${message}: ${text.slice(0, 200)}`;
    }
    throw new FarmApiError(res.status, message);
  }
  return ((await res.json()) as { lessons: StoredLesson[] }).lessons;
}

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
      const lessons = await fetchLessons(loadCliConfig().FARM_URL, { repo: o.repo, limit: o.limit });
      process.stdout.write((o.json ? JSON.stringify(lessons, null, 2) : formatLessons(lessons)) + '\n');
    });
}
