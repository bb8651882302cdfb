import http from 'node:http';
import { migrateLessons, storeLesson } from '@farm/lessons';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { InProcessBus } from '@farm/bus';
import { silentLogger } from '@farm/runtime';
import { changeRequestApi } from './http-api';
import { TaskTopicLauncher } from './launcher';
import { Orchestrator } from './orchestrator';
import { testApiAccess } from '../testing';

let store: SqlStore;
let server: http.Server;
let base: string;
let get: (path: string) => Promise<Response>;

beforeAll(async () => {
  store = await testPgliteStore();
  await migrateLessons(store);
  await storeLesson(store, { taskId: 't1', repoUrl: 'http://git/a.git', goal: 'Add multiply', files: ['calc.py'] });
  await storeLesson(store, { taskId: 't2', repoUrl: 'http://git/b.git', goal: 'Fix greet', files: ['greet.js'] });
  const bus = new InProcessBus();
  const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  const { access, tokenWith } = await testApiAccess(store);
  const reader = await tokenWith(['read']);
  get = (path) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${reader}` } });
  const routes = changeRequestApi({ store, orchestrator, log: silentLogger, access });
  server = http.createServer((req, res) => {
    void routes(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

describe('GET /v1/lessons of the farm API', () => {
  test('lists the lessons of one repository, or of all', async () => {
    const one = (await (await get(`/v1/lessons?repo=${encodeURIComponent('http://git/a.git')}`)).json()) as {
      lessons: { taskId: string; files: string[] }[];
    };
    expect(one.lessons.map((l) => [l.taskId, l.files])).toEqual([['t1', ['calc.py']]]);
    const all = (await (await get(`/v1/lessons`)).json()) as { lessons: unknown[] };
    expect(all.lessons).toHaveLength(2);
  });

  test('a bad limit is a 400 naming the field', async () => {
    const bad = await get(`/v1/lessons?limit=lots`);
    expect([bad.status, await bad.json()]).toEqual([
      400,
      { error: { message: 'limit must be an integer from 1 to 500', field: 'limit' } },
    ]);
  });

  test('a repository URL with a NUL byte has no lessons (not a failed query)', async () => {
    const res = await get(`/v1/lessons?repo=%00`);
    expect([res.status, await res.json()]).toEqual([200, { lessons: [] }]);
  });

  test('a query parameter given twice, or an empty limit, is a 400 naming it', async () => {
    for (const [query, field] of [
      ['limit=1&limit=2', 'limit'],
      ['repo=a&repo=b', 'repo'],
      ['limit=', 'limit'],
    ]) {
      const res = await get(`/v1/lessons?${query}`);
      expect([query, res.status, ((await res.json()) as { error: { field: string } }).error.field]).toEqual([
        query,
        400,
        field,
      ]);
    }
  });
});
