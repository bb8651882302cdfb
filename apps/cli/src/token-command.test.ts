// `farm token` against the orchestrator's token routes, served over HTTP from PGlite, as an admin would use it.
import http from 'node:http';
import { Command } from 'commander';
import { InProcessBus } from '@farm/bus';
import { Orchestrator, TaskTopicLauncher, changeRequestApi, orchestratorMigrations } from '@farm/orchestrator';
import { testApiAccess } from '@farm/orchestrator/testing';
import { silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { registerTokenCommand } from './token-command';

let store: SqlStore;
let server: http.Server;
let base: string;
let adminToken: string;
let out: string[];

beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  const bus = new InProcessBus();
  const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  const given = await testApiAccess(store);
  adminToken = given.adminToken;
  const routes = changeRequestApi({ store, orchestrator, log: silentLogger, access: given.access });
  server = http.createServer((req, res) => void routes(req, res).then((ok) => ok || res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  process.env.FARM_URL = base;
});
afterAll(async () => {
  delete process.env.FARM_URL;
  delete process.env.FARM_TOKEN;
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});
beforeEach(() => {
  out = [];
  process.env.FARM_TOKEN = adminToken;
  jest.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
});
afterEach(() => jest.restoreAllMocks());

async function farm(...args: string[]): Promise<string> {
  const program = new Command('farm').exitOverride();
  registerTokenCommand(program);
  out = [];
  await program.parseAsync(['node', 'farm', ...args]);
  return out.join('');
}
const submit = (token: string) =>
  fetch(`${base}/v1/change-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 't', repo: { url: 'https://git.example.com/a.git' } }),
  });

test('farm token create prints a token once; it reads but may not submit; list shows it without the secret', async () => {
  const printed = await farm('token', 'create', '--name', 'dashboard', '--scopes', 'read');
  const token = printed.split('\n')[0];
  expect(token).toMatch(/^farm_/);
  expect(printed).toContain('token dashboard (read)');
  expect((await fetch(`${base}/v1/change-requests`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
    200,
  );
  expect((await submit(token)).status).toBe(403);

  const listed = await farm('token', 'list');
  expect(listed).toMatch(/^NAME +SCOPES +CREATED BY/);
  expect(listed).toMatch(/dashboard +read +token:test-admin-\S+ .* live/);
  expect(listed).not.toContain(token);
});

test('farm token revoke <name> stops the token at once; --all lists it as revoked', async () => {
  const created = JSON.parse(await farm('token', 'create', '--name', 'ci', '--scopes', 'read,submit', '--json'));
  expect((await submit(created.token)).status).toBe(202);
  expect(await farm('token', 'revoke', 'ci')).toBe(`revoked ci (${created.id})\n`);
  expect((await submit(created.token)).status).toBe(401);
  expect(await farm('token', 'list')).not.toMatch(/^ci /m);
  expect(await farm('token', 'list', '--all')).toMatch(/^ci +read,submit .* revoked /m);
});

test('without an admin token the commands are refused with the API’s reason; bad scopes before asking', async () => {
  process.env.FARM_TOKEN = JSON.parse(await farm('token', 'create', '--name', 'r', '--scopes', 'read', '--json')).token;
  await expect(farm('token', 'list')).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/admin/) });
  process.env.FARM_TOKEN = 'farm_unknown';
  await expect(farm('token', 'revoke', 'r')).rejects.toMatchObject({ status: 401 });
  jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  await expect(farm('token', 'create', '--name', 'x', '--scopes', 'read,root')).rejects.toThrow(/not root/);
});

test('farm token create --expires-in: the token works until then, is refused after, and list says expired', async () => {
  const created = JSON.parse(
    await farm('token', 'create', '--name', 'short', '--scopes', 'read', '--expires-in', '2h', '--json'),
  );
  const lifetimeS = (Date.parse(created.expiresAt) - Date.parse(created.createdAt)) / 1000;
  expect(lifetimeS).toBe(7200);
  const read = () => fetch(`${base}/v1/change-requests`, { headers: { authorization: `Bearer ${created.token}` } });
  expect((await read()).status).toBe(200);
  expect(await farm('token', 'list')).toMatch(/^short +read .* live/m);
  // Two hours later (the database's clock decides).
  await store.query(`UPDATE farm_access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [
    created.id,
  ]);
  expect((await read()).status).toBe(401);
  expect(await farm('token', 'list')).toMatch(/^short +read .* expired /m);
  jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  await expect(farm('token', 'create', '--name', 'x', '--scopes', 'read', '--expires-in', 'soon')).rejects.toThrow(
    /a duration such as 30d/,
  );
});

test('a token that may only submit follows the requests it submitted, and no other', async () => {
  const { token } = JSON.parse(await farm('token', 'create', '--name', 'bot', '--scopes', 'submit', '--json'));
  const post = await submit(token);
  expect(post.status).toBe(202);
  const { changeRequestId: mine } = (await post.json()) as { changeRequestId: string };
  const other = (await (await submit(adminToken)).json()) as { changeRequestId: string };
  const read = (id: string, tail = '') =>
    fetch(`${base}/v1/change-requests/${id}${tail}`, { headers: { authorization: `Bearer ${token}` } });
  expect((await read(mine)).status).toBe(200);
  const events = await read(mine, '/events');
  expect([events.status, events.headers.get('content-type')]).toEqual([200, expect.stringMatching(/event-stream/)]);
  await events.body?.cancel();
  expect((await read(other.changeRequestId)).status).toBe(403);
  expect((await fetch(`${base}/v1/change-requests`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
    403,
  ); // the list is everyone's: read scope
});
