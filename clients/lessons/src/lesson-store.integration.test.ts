// The lessons table on the farm's two stores: embedded PGlite (one machine) and the real PostgreSQL server.
import { createPgliteStore, createPgStore, type SqlStore } from '@farm/store';
import { lessonsForTask, listLessons, migrateLessons, storeLesson } from './lesson-store';

const scenarios = (name: string, open: () => Promise<SqlStore>) =>
  describe(name, () => {
    let store: SqlStore;
    const repo = `http://git.test/${name.replace(/\W+/g, '-')}-${Date.now()}.git`;
    beforeAll(async () => {
      store = await open();
      await migrateLessons(store);
      await migrateLessons(store); // a second start-up changes nothing
    });
    afterAll(() => store.close());

    test('a lesson is stored once per task, listed by repository, and handed to similar tasks', async () => {
      const lesson = {
        taskId: `${repo}#1`,
        repoUrl: repo,
        goal: 'Add multiply(a, b) to calc.py',
        files: ['calc.py'],
        firstFailure: 'The check "test" failed: test_add',
        fix: 'restored add',
      };
      expect(await storeLesson(store, lesson)).toBe(true);
      expect(await storeLesson(store, lesson)).toBe(false);
      await storeLesson(store, { ...lesson, taskId: `${repo}#2`, goal: 'Rename the README section', files: [] });
      expect(await storeLesson(store, { ...lesson, taskId: `${repo}#3`, repoUrl: '' })).toBe(false);

      const listed = await listLessons(store, { repoUrl: repo });
      expect(listed.map((l) => l.taskId).sort()).toEqual([`${repo}#1`, `${repo}#2`]);
      expect(listed.find((l) => l.taskId === `${repo}#1`)).toMatchObject({ files: ['calc.py'], fix: 'restored add' });

      const forTask = await lessonsForTask(
        store,
        { id: 'new', goal: 'Add divide(a, b) to calc.py', repo: { url: repo } },
        3,
      );
      expect(forTask.map((l) => l.taskId)).toEqual([`${repo}#1`]);
      expect(await lessonsForTask(store, { id: 'x', goal: 'Add divide', repo: { url: `${repo}.other` } }, 3)).toEqual(
        [],
      );
    });
  });

scenarios('lessons on PGlite (one machine)', () => createPgliteStore());
scenarios('lessons on PostgreSQL (integration, real server)', async () => createPgStore(process.env.DATABASE_URL!));
