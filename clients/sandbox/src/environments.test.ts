// Environments set up once and shared by every checkout of the same manifests, through the real sandbox: one
// install for concurrent checks, read-only to the checks, a new one when the manifests change, none left by a
// failed install, a lock whose process is gone taken over, workspaces installed in their checkout.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import type { CheckStep } from './check-step';
import { runChecks } from './checks';
import { EnvironmentStore, LINK_MARKER, linkedEnvironmentDirs, nodeEnvironmentOf } from './environments';
import { detectIsolation } from './sandbox';

let tmp: string;
let counter: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'farm-envs-'));
  counter = path.join(tmp, 'installs');
  await mkdir(counter);
});
afterEach(async () => rm(tmp, { recursive: true, force: true }));

const PACKAGE = JSON.stringify({ name: 'app', dependencies: { 'left-pad': '1.0.0' } });

/** A checkout of the app: its package.json and a test that needs the dependency. */
async function checkout(name: string, pkg = PACKAGE): Promise<string> {
  const dir = path.join(tmp, name);
  await mkdir(dir);
  await writeFile(path.join(dir, 'package.json'), pkg);
  await writeFile(path.join(dir, 'test.js'), "if (require('left-pad')() !== 'padded') process.exit(1);\n");
  return dir;
}

/** An install as npm's would be, offline: writes the package, and a line per run in the counter directory. */
const install = (slowSeconds = 0): CheckStep => ({
  name: 'install',
  run:
    `sleep ${slowSeconds}; mktemp -p ${counter} >/dev/null; mkdir -p node_modules/left-pad node_modules/.bin && ` +
    `echo "module.exports = () => 'padded';" > node_modules/left-pad/index.js`,
  installsDependencies: true,
});
const testStep: CheckStep = { name: 'test', run: 'node test.js' };
const installs = async () => (await readdir(counter)).length;

test('concurrent checks of one manifest share one install; each checkout links it and its test passes', async () => {
  const store = new EnvironmentStore({ root: path.join(tmp, 'store'), pollMs: 50 });
  const dirs = await Promise.all(['a', 'b', 'c'].map((n) => checkout(n)));
  const results = await Promise.all(
    dirs.map((dir) => runChecks(dir, [install(1), testStep], { environments: store, writableDirs: [counter] })),
  );
  expect(results.map((r) => [r.ok, r.steps.map((s) => s.name)])).toEqual(dirs.map(() => [true, ['install', 'test']]));
  expect(await installs()).toBe(1);
  expect(results.map((r) => r.steps[0].environment?.how).sort()).toEqual(['built', 'waited', 'waited']);
  expect(results[0].steps[0].output).toMatch(/environment node-[0-9a-f]+ (set up in|set up by another task)/);
  // Each checkout has a node_modules of its own, of symlinks, marked with the environment's key.
  for (const dir of dirs) {
    const marker = JSON.parse(await readFile(path.join(dir, 'node_modules', LINK_MARKER), 'utf8'));
    expect(marker).toEqual({ key: expect.stringMatching(/^[0-9a-f]{24}$/), dir: expect.stringContaining(tmp) });
    expect(linkedEnvironmentDirs(dir)).toEqual([marker.dir]);
  }

  // Later, another checkout of the same content: reused, no install.
  const again = await runChecks(await checkout('d'), [install(1), testStep], {
    environments: store,
    writableDirs: [counter],
  });
  expect([again.ok, again.steps[0].environment?.how, await installs()]).toEqual([true, 'reused', 1]);
});

test('the checks cannot write the shared environment; they can write the checkout’s own node_modules', async () => {
  const store = new EnvironmentStore({ root: path.join(tmp, 'store') });
  const dir = await checkout('a');
  const write = { name: 'write', run: 'echo x > node_modules/left-pad/planted.js' };
  const cache = { name: 'cache', run: 'mkdir -p node_modules/.cache && echo x > node_modules/.cache/c' };
  const result = await runChecks(dir, [install(), cache, write], { environments: store, writableDirs: [counter] });
  expect(result.steps.map((s) => [s.name, s.ok])).toEqual([
    ['install', true],
    ['cache', true],
    ['write', (await detectIsolation('none')).filesystem !== 'checkout-only'],
  ]);
  if (!result.ok) expect(result.failed?.output).toMatch(/Read-only file system/);
});

test('a change of the manifests makes another environment; the checkout is linked to the new one', async () => {
  const store = new EnvironmentStore({ root: path.join(tmp, 'store') });
  const dir = await checkout('a');
  const opts = { environments: store, writableDirs: [counter] };
  const first = await runChecks(dir, [install(), testStep], opts);
  const before = await readFile(path.join(dir, 'node_modules', LINK_MARKER), 'utf8');
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'app', dependencies: { 'left-pad': '1.1.0' } }),
  );
  const second = await runChecks(dir, [install(), testStep], opts);
  expect([first.ok, second.ok, second.steps[0].environment?.how, await installs()]).toEqual([true, true, 'built', 2]);
  expect(await readFile(path.join(dir, 'node_modules', LINK_MARKER), 'utf8')).not.toBe(before);
});

test('a failed install leaves no environment, and the next check sets it up', async () => {
  const store = new EnvironmentStore({ root: path.join(tmp, 'store') });
  const dir = await checkout('a');
  const failing: CheckStep = {
    ...install(),
    run: `mktemp -p ${counter} >/dev/null; echo 'registry unreachable' >&2; exit 1`,
  };
  const failed = await runChecks(dir, [failing, testStep], { environments: store, writableDirs: [counter] });
  expect([failed.ok, failed.failed?.name, failed.failed?.environment?.how]).toEqual([false, 'install', 'failed']);
  expect(failed.failed?.output).toContain('registry unreachable');
  expect((await readdir(path.join(tmp, 'store'))).filter((f) => !f.endsWith('.lock'))).toEqual([]);
  const next = await runChecks(dir, [install(), testStep], { environments: store, writableDirs: [counter] });
  expect([next.ok, next.steps[0].environment?.how]).toEqual([true, 'built']);
});

test('a lock left by a process that is gone is taken over', async () => {
  const root = path.join(tmp, 'store');
  const store = new EnvironmentStore({ root, pollMs: 20 });
  const dir = await checkout('a');
  const spec = await nodeEnvironmentOf(dir, install().run);
  if ('unshared' in spec) throw new Error(spec.unshared);
  await mkdir(root);
  // pid 2^22 + 1 is beyond Linux's pid_max: no such process.
  await writeFile(
    path.join(root, `${spec.name}.lock`),
    JSON.stringify({ pid: 4194305, host: hostname(), at: Date.now() }),
  );
  const result = await runChecks(dir, [install(), testStep], { environments: store, writableDirs: [counter] });
  expect([result.ok, result.steps[0].environment?.how]).toEqual([true, 'built']);
});

test('a workspace is installed in its own checkout, not shared', async () => {
  const store = new EnvironmentStore({ root: path.join(tmp, 'store') });
  const dir = await checkout(
    'a',
    JSON.stringify({ name: 'mono', workspaces: ['packages/*'], dependencies: { 'left-pad': '1' } }),
  );
  const result = await runChecks(dir, [install(), testStep], { environments: store, writableDirs: [counter] });
  expect([result.ok, result.steps[0].environment]).toEqual([true, undefined]);
  expect(await readFile(path.join(dir, 'node_modules', 'left-pad', 'index.js'), 'utf8')).toContain('padded');
});
