// `farm lessons` against the orchestrator's lessons route, served over HTTP from PGlite.
import http from 'node:http';
import { Command } from 'commander';
import { migrateLessons, storeLesson } from '@farm/lessons';
import { InProcessBus } from '@farm/bus';
import { Orchestrator, TaskTopicLauncher, changeRequestApi } from '@farm/orchestrator';
import { testApiAccess } from '@farm/orchestrator/testing';
import { silentLogger } from '@farm/runtime';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { registerLessonsCommand } from './lessons-command';

const LOCAL_PATH = process.cwd(); // a git repository's top directory: this checkout
let store: SqlStore;
let server: http.Server;
let out: string[];

beforeAll(async () => {
  store = await testPgliteStore();
  await migrateLessons(store);
  await storeLesson(store, {
    taskId: 'task-1',
    repoUrl: 'http://git/calc.git',
    goal: 'Add multiply(a, b) to calc.py',
    files: ['calc.py'],
    firstFailure: 'The check "test" failed: test_add',
    fix: 'restored add',
  });
  await storeLesson(store, { taskId: 'task-2', repoUrl: 'http://git/greet.git', goal: 'Add farewell', files: [] });
  const bus = new InProcessBus();
  const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  const { access, tokenWith } = await testApiAccess(store);
  const routes = changeRequestApi({
    store,
    orchestrator,
    log: silentLogger,
    access,
    // as `farm up` serves a repository of this machine: its tasks (and lessons) name the mirror's URL
    localRepoPathsByUrl: async () => new Map([['http://git/greet.git', LOCAL_PATH]]),
  });
  process.env.FARM_TOKEN = await tokenWith(['read']); // as a user who exported it
  server = http.createServer((req, res) => void routes(req, res).then((ok) => ok || res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.FARM_URL = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  delete process.env.FARM_URL;
  delete process.env.FARM_TOKEN;
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});
beforeEach(() => {
  out = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
});
afterEach(() => jest.restoreAllMocks());

async function farm(...args: string[]): Promise<void> {
  const program = new Command('farm').exitOverride();
  registerLessonsCommand(program);
  await program.parseAsync(['node', 'farm', ...args]);
}

test('farm lessons --repo lists that repository’s lessons: goal, files, what failed first, what fixed it', async () => {
  await farm('lessons', '--repo', 'http://git/calc.git');
  const text = out.join('');
  expect(text).toMatch(/http:\/\/git\/calc\.git {2}\(task task-1\)/);
  expect(text).toContain(
    '  goal:    Add multiply(a, b) to calc.py\n  files:   calc.py\n  failed:  The check "test" failed: test_add\n  fixed:   restored add',
  );
  expect(text).not.toContain('greet');
});

test('farm lessons --json lists every repository’s lessons as JSON', async () => {
  await farm('lessons', '--json');
  expect((JSON.parse(out.join('')) as { taskId: string }[]).map((l) => l.taskId).sort()).toEqual(['task-1', 'task-2']);
});

test('a local repository’s lessons are shown by its path, and found by it (`--repo .` from inside it)', async () => {
  await farm('lessons', '--repo', '.');
  const text = out.join('');
  expect(text).toContain(`${LOCAL_PATH}  (task task-2)`);
  expect(text).not.toContain('calc');
  out = [];
  await farm('lessons', '--json');
  const lessons = JSON.parse(out.join('')) as { taskId: string; repoUrl: string; repoPath?: string }[];
  expect(lessons.find((l) => l.taskId === 'task-2')).toMatchObject({
    repoUrl: 'http://git/greet.git',
    repoPath: LOCAL_PATH,
  });
  expect(lessons.find((l) => l.taskId === 'task-1')).not.toHaveProperty('repoPath');
});

test('a bad --limit is refused before anything is asked', async () => {
  jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  await expect(farm('lessons', '--limit', '0')).rejects.toThrow(/a whole number from 1 to 500/);
});
