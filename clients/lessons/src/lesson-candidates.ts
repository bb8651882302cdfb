import type { SqlExecutor } from '@farm/store';
import { LESSON_CANDIDATES, listLessons, type StoredLesson } from './lesson-store';

/**
 * The recent lessons of each repository that new tasks are ranked against (LESSON_CANDIDATES of them), read
 * at most once per `ttlMs` per repository: a burst of requests on one repository would otherwise read and
 * parse the same hundreds of rows for every request. Lessons are advice, so a few seconds' lag is harmless;
 * a lesson this process stores is seen at once (`forget`), one stored by another orchestrator within `ttlMs`.
 */
export class LessonCandidates {
  private readonly byRepo = new Map<string, { readAt: number; lessons: readonly StoredLesson[] }>();

  constructor(
    private readonly ttlMs = 2_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The candidates of `repoUrl`, newest first (a copy: the caller may change it). */
  async of(db: SqlExecutor, repoUrl: string): Promise<StoredLesson[]> {
    const at = this.now();
    const cached = this.byRepo.get(repoUrl);
    if (cached && at - cached.readAt < this.ttlMs) return [...cached.lessons];
    for (const [repo, entry] of this.byRepo) if (at - entry.readAt >= this.ttlMs) this.byRepo.delete(repo);
    const lessons = await listLessons(db, { repoUrl, limit: LESSON_CANDIDATES });
    this.byRepo.set(repoUrl, { readAt: at, lessons });
    return [...lessons];
  }

  /** A lesson of `repoUrl` was stored (and committed): the next read goes to the store. */
  forget(repoUrl: string): void {
    this.byRepo.delete(repoUrl);
  }
}
