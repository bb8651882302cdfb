import fs from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { unifiedTreeDiff } from './tree-diff';
import { refusedCheckNote } from '@farm/sandbox';
import { netChanges, Workspace } from './workspace';

let root: string;
let base: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'workspace-'));
  await writeFile(path.join(root, 'app.py'), 'x = 1\n');
  await git.init({ fs, dir: root, defaultBranch: 'main' });
  await git.add({ fs, dir: root, filepath: '.' });
  base = await git.commit({ fs, dir: root, message: 'base', author: { name: 't', email: 't@t' } });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const workspace = (checks: { name: string; run: string }[]) =>
  new Workspace({ root, base, checks, checkTimeoutSeconds: 30 });

test('what the checks leave behind is not the agent’s change until a tool changes it', async () => {
  const ws = workspace([{ name: 'build', run: 'echo built > out.txt && echo lock > app.lock' }]);
  await writeFile(path.join(root, 'app.py'), 'x = 2\n');
  const result = await ws.runRepositoryChecks();
  expect([result.ok, ws.describeChecks(result)]).toEqual([true, 'all checks passed: build']);
  expect(await ws.agentChanges()).toEqual([{ path: 'app.py', change: 'modified' }]);
  ws.changedByAgent(['out.txt']);
  expect((await ws.agentChanges()).map((c) => c.path)).toEqual(['app.py', 'out.txt']);
});

test.each([
  ['removes .git', 'rm -rf .git', /git data \(\.git\) no longer holds the base commit/],
  ['deletes a file of the change', 'rm app.py', /it deleted a file of the change: app\.py/],
])('a check that %s stops the run there, named as having destroyed the checkout', async (_what, run, why) => {
  const ws = workspace([
    { name: 'wreck', run },
    { name: 'test', run: 'echo ran > ran.txt' },
  ]);
  await writeFile(path.join(root, 'app.py'), 'x = 2\n');
  const result = await ws.runRepositoryChecks();
  expect([result.ok, result.steps.map((s) => s.name)]).toEqual([false, ['wreck']]);
  expect(refusedCheckNote(result)).toMatch(new RegExp(`^The check "wreck" \\(\`${run}\`\\) destroyed the checkout:\n`));
  expect(refusedCheckNote(result)).toMatch(why);
});

test('a check that deletes files outside the change is not a destroyed checkout (nor the agent’s change)', async () => {
  await writeFile(path.join(root, 'notes.txt'), 'n\n');
  const ws = workspace([{ name: 'clean', run: 'rm notes.txt' }]);
  await writeFile(path.join(root, 'app.py'), 'x = 2\n');
  const result = await ws.runRepositoryChecks();
  expect([result.ok, refusedCheckNote(result)]).toEqual([true, undefined]);
  expect(await ws.agentChanges()).toEqual([{ path: 'app.py', change: 'modified' }]);
});

test('a failing check is described with its output; no checks configured says so', async () => {
  const failing = workspace([{ name: 'test', run: 'echo "assert 1 == 2 failed"; exit 1' }]);
  const result = await failing.runRepositoryChecks();
  expect(result.ok).toBe(false);
  expect(failing.describeChecks(result)).toContain('assert 1 == 2 failed');
  const none = workspace([]);
  expect(none.describeChecks(await none.runRepositoryChecks())).toBe('this repository has no checks configured');
});

test('the net change of a work tree: edits undone and files that came and went are not in it', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tree-net-'));
  try {
    await git.init({ fs, dir, defaultBranch: 'main' });
    await writeFile(path.join(dir, 'a.txt'), 'a\n');
    await writeFile(path.join(dir, 'b.txt'), 'b\n');
    await writeFile(path.join(dir, '.gitignore'), 'build/\n');
    for (const f of ['a.txt', 'b.txt', '.gitignore']) await git.add({ fs, dir, filepath: f });
    const treeBase = await git.commit({ fs, dir, message: 'base', author: { name: 't', email: 't@t' } });

    await writeFile(path.join(dir, 'a.txt'), 'a changed\n');
    await writeFile(path.join(dir, 'b.txt'), 'b\n'); // rewritten with the same content
    await writeFile(path.join(dir, 'new.txt'), 'new\n');
    await mkdir(path.join(dir, 'build'));
    await writeFile(path.join(dir, 'build/out.js'), 'ignored');
    await fs.promises.rm(path.join(dir, '.gitignore'));
    await writeFile(path.join(dir, '.gitignore'), 'build/\n'); // deleted and recreated the same
    const changes = await netChanges(dir, treeBase);
    expect(changes).toEqual([
      { path: 'a.txt', change: 'modified' },
      { path: 'new.txt', change: 'added' },
    ]);
    expect(await unifiedTreeDiff(dir, treeBase, changes)).toBe(
      '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-a\n+a changed\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+new\n',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a passing check run is reused on the same tree; any edit, or a failure, runs the checks again', async () => {
  const ws = workspace([{ name: 'test', run: 'echo run >> runs.log && grep -q 2 app.py' }]);
  const runs = async () => (await readFile(path.join(root, 'runs.log'), 'utf8')).split('\n').filter(Boolean).length;
  await writeFile(path.join(root, 'app.py'), 'x = 2\n');
  expect((await ws.runRepositoryChecks()).reused).toBeUndefined();
  const again = await ws.runRepositoryChecks();
  expect([again.ok, again.reused, await runs()]).toEqual([true, true, 1]);
  expect(ws.describeChecks(again)).toBe('all checks passed: test (the tree is unchanged since they last passed)');

  await writeFile(path.join(root, 'app.py'), 'x = 22\n'); // an edit: a new key
  expect([(await ws.runRepositoryChecks()).reused, await runs()]).toEqual([undefined, 2]);
  await writeFile(path.join(root, 'app.py'), 'x = 3\n'); // fails: not kept
  await ws.runRepositoryChecks();
  expect([(await ws.runRepositoryChecks()).ok, await runs()]).toEqual([false, 4]);
  await writeFile(path.join(root, 'app.py'), 'x = 2\n'); // back to a tree that passed before: checked again
  expect([(await ws.runRepositoryChecks()).reused, await runs()]).toEqual([undefined, 5]);
});

test('a check that commits the agent’s change and tags it: the change is still measured against the base', async () => {
  const commitAll = 'git add -A && git -c user.name=c -c user.email=c@c commit -qm check && git tag checked';
  const ws = workspace([{ name: 'sneaky', run: `echo made > out.txt && ${commitAll}` }]);
  await writeFile(path.join(root, 'app.py'), 'x = 2\n');
  expect((await ws.runRepositoryChecks()).ok).toBe(true);
  expect(await git.resolveRef({ fs, dir: root, ref: 'HEAD' })).not.toBe(base); // HEAD holds the check's commit
  const changes = await ws.agentChanges();
  expect(changes).toEqual([{ path: 'app.py', change: 'modified' }]); // out.txt is the check's
  expect(await ws.unifiedDiff(changes)).toBe('--- a/app.py\n+++ b/app.py\n@@ -1,1 +1,1 @@\n-x = 1\n+x = 2\n');
});

test('a symlink in the change shows in the diff as the name it points at, never as what it points at', async () => {
  await symlink('/etc/passwd', path.join(root, 'passwd'));
  const changes = await netChanges(root, base);
  expect(changes).toEqual([{ path: 'passwd', change: 'added' }]);
  expect(await unifiedTreeDiff(root, base, changes)).toBe(
    '--- /dev/null\n+++ b/passwd\n@@ -0,0 +1,1 @@\n+/etc/passwd\n',
  );
});

test('each check step is told as it starts and as it ends with its output, for following the task live', async () => {
  const told: [string, Record<string, unknown>][] = [];
  const ws = new Workspace({
    root,
    base,
    checks: [
      { name: 'lint', run: 'echo lint clean' },
      { name: 'test', run: 'echo "1 failed"; exit 1' },
    ],
    checkTimeoutSeconds: 30,
    progress: (event, data) => told.push([event, data]),
  });
  await ws.runRepositoryChecks();
  expect(told.map(([event, d]) => `${event} ${d.name}`)).toEqual([
    'check_started lint',
    'check_step lint',
    'check_started test',
    'check_step test',
  ]);
  expect(told[3][1]).toMatchObject({ ok: false, exitCode: 1, output: expect.stringContaining('1 failed') });
});

test("a running check step's output is told as it comes, before the step ends", async () => {
  const told: [string, Record<string, unknown>][] = [];
  const ws = new Workspace({
    root,
    base,
    checks: [{ name: 'test', run: 'echo first test passed; sleep 1; echo second test passed' }],
    checkTimeoutSeconds: 30,
    progress: (event, data) => told.push([event, data]),
    checkOutputEveryMs: 100,
  });
  await ws.runRepositoryChecks();
  const events = told.map(([event]) => event);
  const firstChunk = told.find(([event]) => event === 'check_output')?.[1];
  expect(firstChunk).toEqual({ name: 'test', output: 'first test passed\n' });
  expect(events.indexOf('check_output')).toBeLessThan(events.indexOf('check_step'));
});
