// A one-task build done in place records the request's change for review, as a build process does: the
// diff of the merge against the base, with the credentials the build holds replaced. Real git on a bare
// repository in a temporary directory (no server: the in-place build reads the farm's own git directory),
// made by oneTaskBuild.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { InProcessBus, Topics } from '@farm/bus';
import { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import type { BuildLauncher } from './build-launcher';
import { oneTaskBuild } from '../testing';
import { buildInPlace, InPlaceBuildLauncher } from './build-in-place';

const exec = promisify(execFile);
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'build-in-place-unit-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

test("a one-task build in place carries the request's diff: the merge against its base, as git shows it", async () => {
  const { gitDir, request, baseCommit } = await oneTaskBuild(
    tmp,
    { 'a.txt': 'one\ntwo\n' },
    { 'a.txt': 'one\n2\n', 'b.txt': 'new\n' },
  );
  const built = await buildInPlace(request, gitDir);
  expect(built?.status).toBe(farm.v1.BuildStatus.BUILD_PASSED);
  const expected = (await exec('git', ['-C', gitDir, 'diff', '--no-color', baseCommit, built!.commitSha!])).stdout;
  expect(expected).toContain('+2');
  expect([built!.diff, built!.diffTruncated]).toEqual([expected, false]);
});

test('the diff has the credentials of the repository URL replaced, as a build process replaces them', async () => {
  const password = 'hunter2-in-the-url';
  const { gitDir, request } = await oneTaskBuild(
    tmp,
    { 'config.txt': 'token=\n' },
    { 'config.txt': `token=${password}\n` },
    `https://farm:${password}@git.example.com/app.git`,
  );
  const built = await buildInPlace(request, gitDir);
  expect(built!.diff).toContain('+token=[secret redacted]');
  expect(built!.diff).not.toContain(password);
});

test("farm up's launcher publishes the in-place build's result with the diff, and starts no process", async () => {
  const { gitDir, request } = await oneTaskBuild(tmp, { 'a.txt': 'a\n' }, { 'a.txt': 'b\n' });
  const bus = new InProcessBus();
  const results: farm.v1.BuildResult[] = [];
  const sub = await bus.subscribe(Topics.buildResults, 'test', async (r) => void results.push(r));
  const processes: farm.v1.IBuildRequest[] = [];
  const inner: BuildLauncher = {
    launch: async (r) => void processes.push(r),
    cancel: async () => undefined,
    resume: async () => undefined,
    close: async () => undefined,
  };
  const launcher = new InPlaceBuildLauncher(inner, { bus, log: silentLogger, gitDirFor: () => gitDir });
  await launcher.launch(farm.v1.BuildRequest.fromObject(request));
  for (let i = 0; i < 100 && !results.length; i++) await new Promise((r) => setTimeout(r, 10));
  await sub.stop();
  await bus.close();
  expect(processes).toEqual([]);
  expect(results).toHaveLength(1);
  expect(results[0].diff).toContain('-a\n+b\n');
  expect(results[0].diffTruncated).toBe(false);
});
