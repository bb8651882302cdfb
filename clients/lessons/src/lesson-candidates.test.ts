import { createPgliteStore, type SqlExecutor, type SqlStore } from '@farm/store';
import { LessonCandidates } from './lesson-candidates';
import { migrateLessons, storeLesson } from './lesson-store';

const REPO = 'http://git.test/app.git';
const lesson = (n: number, repoUrl = REPO) => ({
  taskId: `task-${n}`,
  repoUrl,
  goal: `goal ${n}`,
  files: ['a.py'],
  firstFailure: '',
  fix: `fix ${n}`,
});

describe('lesson candidates, read once per burst', () => {
  let store: SqlStore;
  let reads: number;
  /** The store, counting the statements that read lessons. */
  let db: SqlExecutor;
  let clock: number;
  beforeAll(async () => {
    store = await createPgliteStore();
    await migrateLessons(store);
    db = {
      query: (sql, params) => {
        if (/FROM lessons/.test(sql)) reads++;
        return store.query(sql, params);
      },
    };
  });
  beforeEach(() => {
    reads = 0;
    clock = 1_000_000;
  });
  afterAll(() => store.close());

  it('reads a repository once within the time to live, again after it, and at once after a lesson is stored', async () => {
    await storeLesson(store, lesson(1));
    const candidates = new LessonCandidates(2_000, () => clock);
    expect((await candidates.of(db, REPO)).map((l) => l.taskId)).toEqual(['task-1']);
    clock += 1_500;
    await storeLesson(store, lesson(2));
    expect((await candidates.of(db, REPO)).map((l) => l.taskId)).toEqual(['task-1']); // the burst's read
    expect(reads).toBe(1);

    candidates.forget(REPO); // this process stored it
    expect((await candidates.of(db, REPO)).map((l) => l.taskId)).toEqual(['task-2', 'task-1']);
    expect(reads).toBe(2);

    await storeLesson(store, lesson(3)); // another orchestrator stored it: seen once the entry is old
    clock += 2_000;
    expect((await candidates.of(db, REPO)).map((l) => l.taskId)).toEqual(['task-3', 'task-2', 'task-1']);
    expect(reads).toBe(3);
  });

  it('keeps repositories apart and hands out copies its callers may change', async () => {
    await storeLesson(store, lesson(10, 'http://git.test/other.git'));
    const candidates = new LessonCandidates(2_000, () => clock);
    const other = await candidates.of(db, 'http://git.test/other.git');
    expect(other.map((l) => l.taskId)).toEqual(['task-10']);
    other.length = 0;
    expect((await candidates.of(db, 'http://git.test/other.git')).map((l) => l.taskId)).toEqual(['task-10']);
    expect((await candidates.of(db, REPO)).every((l) => l.repoUrl === REPO)).toBe(true);
    expect(reads).toBe(2);
  });
});
