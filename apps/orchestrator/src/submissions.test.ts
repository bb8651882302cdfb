// The API's intake without HTTP (farm up's own submissions: the demo, `farm eval`): what the API refuses is
// refused before anything is recorded or published, and the store goes on taking requests after it.
import http from 'node:http';
import { InProcessBus, Topics } from '@farm/bus';
import type { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { changeRequestApi } from './http-api';
import { TaskTopicLauncher } from './launcher';
import { Orchestrator } from './orchestrator';
import { orchestratorMigrations } from './schema';
import { apiSubmitter } from './submissions';
import { testApiAccess } from '../testing';

let store: SqlStore;
let bus: InProcessBus;
let submit: ReturnType<typeof apiSubmitter>;
let server: http.Server;
let post: (body: unknown) => Promise<{ status: number; body: unknown }>;
const published: farm.v1.ChangeRequest[] = [];

beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  const given = await testApiAccess(store); // the audit the API records each submission in
  bus = new InProcessBus();
  await bus.subscribe(Topics.changeRequests, 'submissions-test', async (cr) => void published.push(cr));
  const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  submit = apiSubmitter({
    orchestrator,
    resolveLocalRepo: async (_id, repo) => `http://127.0.0.1:1/local${repo}`,
    log: silentLogger,
  });
  const routes = changeRequestApi({ store, orchestrator, log: silentLogger, access: given.access });
  server = http.createServer((req, res) => void routes(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/change-requests`;
  const token = await given.tokenWith(['submit']);
  post = async (body) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await bus.close();
  await store.close();
});

const submissions = async () =>
  (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM api_submissions')).rows[0].n;

test('a description of megabytes is refused as the HTTP API refuses it: 400 naming the field and the bound, nothing kept', async () => {
  const huge = { changeRequestId: 'huge', title: 'It breaks', description: 'x'.repeat(5_000_000), repo: { url: '/r' } };
  await expect(submit(huge)).rejects.toMatchObject({
    status: 400,
    field: 'description',
    message: 'description is longer than 100000 characters',
  });
  await expect(submit({ ...huge, description: 'a\0b' })).rejects.toMatchObject({
    status: 400,
    message: 'description must not contain NUL characters',
  });
  await expect(submit({ ...huge, description: '', changeRequestId: '../x' })).rejects.toMatchObject({
    status: 400,
    field: 'changeRequestId',
  });
  expect(await submissions()).toBe(0);
  expect(published).toEqual([]);
});

test('the store takes the next request; a local repository is resolved, the submitter named by the caller', async () => {
  const body = { changeRequestId: 'next', title: 'Add retry', description: 'x'.repeat(100_000), repo: { url: '/r' } };
  await expect(submit(body, () => 'farm-eval:run')).resolves.toEqual({ changeRequestId: 'next', created: true });
  await expect(submit(body, () => 'farm-eval:run')).resolves.toEqual({ changeRequestId: 'next', created: false });
  expect(await submissions()).toBe(1);
  await new Promise((r) => setTimeout(r, 50)); // the outbox publishes after the transaction
  expect(published.map((cr) => [cr.changeRequestId, cr.repo?.url, cr.requestedBy, cr.description.length])).toEqual([
    ['next', 'http://127.0.0.1:1/local/r', 'farm-eval:run', 100_000],
  ]);
});

test('POST /v1/change-requests is the same intake: the same refusal, in the same words', async () => {
  const body = { title: 'It breaks', description: 'x'.repeat(100_001), repo: { url: 'http://git.example/r.git' } };
  expect(await post(body)).toEqual({
    status: 400,
    body: { error: { message: 'description is longer than 100000 characters', field: 'description' } },
  });
  const taken = await post({ ...body, description: 'short' });
  expect(taken).toMatchObject({ status: 202, body: { created: true } });
});

test('no base named: the repository’s own default branch (master), as the CLI takes the checked-out one', async () => {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const repo = mkdtempSync(path.join(os.tmpdir(), 'master-repo-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'master');
  writeFileSync(path.join(repo, 'README'), 'hi\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  await submit({ changeRequestId: 'on-master', title: 'Fix it', repo: { url: repo } });
  await submit({ changeRequestId: 'named-base', title: 'Fix it', repo: { url: repo, baseRef: 'release' } });
  const base = (id: string) => published.find((cr) => cr.changeRequestId === id)?.repo?.baseRef;
  for (let i = 0; i < 100 && (!base('on-master') || !base('named-base')); i++)
    await new Promise((r) => setTimeout(r, 20));
  expect(base('on-master')).toBe('master');
  expect(base('named-base')).toBe('release');
});
