import http from 'node:http';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { silentLogger } from '@farm/runtime';
import { streamTransitions } from './change-request-events';
import { orchestratorMigrations } from './schema';

let store: SqlStore;
let server: http.Server;
let base: string;

beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  server = http.createServer((_req, res) => {
    void streamTransitions({
      db: store,
      changeRequestId: 'never-final',
      afterSequence: 0,
      res,
      log: silentLogger,
      options: { pollMs: 20, heartbeatMs: 60_000, maxStreamMs: 200 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

test('with maxStreamMs, the stream of a request that is not final ends on its own, for the client to resume', async () => {
  const res = await fetch(`${base}/`);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  // Resolves only once the server ends the response (jest's timeout would fail the test otherwise).
  expect(await res.text()).toBe(': transitions of never-final after 0\n\n');
});
