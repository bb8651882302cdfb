// The build phase as its own deployable on one machine: a build process per BuildRequest (the real
// build-job.ts entry), against the real git smart-HTTP server, with the results collected from the processes'
// spool directories and published once, across builder restarts.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { farm } from '@farm/proto';
import { InProcessBus, Topics, type EventBus, type Subscription } from '@farm/bus';
import { remoteBranchSha, startGitHttpServer, type GitHttpServer } from '@farm/git';
import { entryScript, silentLogger } from '@farm/runtime';
import { startBuilder } from './builder';
import { ProcessBuildLauncher } from './process-build-launcher';

const exec = promisify(execFile);
const B = farm.v1.BuildStatus;

describe('builder: a build process per request', () => {
  let tmp: string;
  /** Where checks leave files the test looks at: the one directory outside the checkout they may write. */
  let markers: string;
  let gitServer: GitHttpServer;
  let bus: InProcessBus;
  let results: farm.v1.BuildResult[];
  let watching: Subscription;
  const stops: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'builder-test-'));
    markers = path.join(tmp, 'markers');
    await mkdir(markers);
    gitServer = await startGitHttpServer({ root: path.join(tmp, 'git') });
    bus = new InProcessBus();
    results = [];
    watching = await bus.subscribe(Topics.buildResults, 'test', async (r) => void results.push(r));
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    await watching.stop();
    await bus.close();
    await gitServer.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const git = (cwd: string, ...args: string[]) =>
    exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd });

  /** A repository with a base commit and one branch per entry, each changing the files it names. */
  async function repoWithBranches(name: string, branches: Record<string, Record<string, string>>) {
    const url = await gitServer.createBareRepo(name);
    const dir = path.join(tmp, `work-${name}`);
    await exec('git', ['init', '-q', '-b', 'main', dir]);
    await writeFile(path.join(dir, 'a.txt'), 'base\n');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-qm', 'base');
    const { stdout } = await git(dir, 'rev-parse', 'HEAD');
    await git(dir, 'push', '-q', url, 'main');
    for (const [branch, files] of Object.entries(branches)) {
      await git(dir, 'checkout', '-q', '-B', branch, 'main');
      for (const [file, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), content);
      }
      await git(dir, 'add', '-A');
      await git(dir, 'commit', '-qm', `change on ${branch}`);
      await git(dir, 'push', '-q', url, branch);
    }
    return { url, baseCommit: stdout.trim() };
  }

  function launcher(stateDir: string, onClose: 'stop' | 'leave' = 'stop', publishVia: EventBus = bus) {
    return new ProcessBuildLauncher({
      bus: publishVia,
      log: silentLogger,
      buildEntry: entryScript('build-job'),
      stateDir,
      onClose,
      adoptPollMs: 100,
      env: { ...process.env, FARM_BUILD_CHECK_TIMEOUT_S: '60', FARM_CHECK_WRITABLE_DIRS: markers },
    });
  }

  async function builder(stateDir: string, onClose: 'stop' | 'leave' = 'stop', publishVia?: EventBus) {
    const b = await startBuilder({ bus, launcher: launcher(stateDir, onClose, publishVia), log: silentLogger });
    let stopped = false;
    const stop = async () => {
      if (!stopped) await b.stop();
      stopped = true;
    };
    stops.push(stop);
    return { stop };
  }

  const request = (id: string, repo: { url: string; baseCommit: string }, branches: string[], checkCommand = '') =>
    farm.v1.BuildRequest.create({
      changeRequestId: id,
      repo: { url: repo.url, baseRef: 'main', baseCommit: repo.baseCommit },
      branches,
      checkCommand,
    });

  async function resultFor(id: string, timeoutMs = 60_000): Promise<farm.v1.BuildResult> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const found = results.find((r) => r.changeRequestId === id);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no build result for ${id}`);
  }

  test('merges the branches, runs the checks in a build process and pushes farm/<id>', async () => {
    const repo = await repoWithBranches('pass.git', {
      'agt/one': { 'b.txt': 'one\n' },
      'agt/two': { 'c.txt': 'two\n' },
    });
    const stateDir = path.join(tmp, 'builds');
    await builder(stateDir);
    // The check sees the merged tree: both branches' files.
    const check = 'test -f b.txt && test -f c.txt';
    await bus.publish(Topics.buildRequests, request('cr-pass', repo, ['agt/one', 'agt/two'], check));
    const result = await resultFor('cr-pass');
    expect(B[result.status]).toBe('BUILD_PASSED');
    expect(result.integrationBranch).toBe('farm/cr-pass');
    expect(result.commitSha).toBe(await remoteBranchSha(repo.url, 'farm/cr-pass'));
    // Once reported, the build's directory is gone and nothing else was published.
    await waitFor(() => readdirSync(stateDir).length === 0);
    expect(results.filter((r) => r.changeRequestId === 'cr-pass')).toHaveLength(1);
  });

  test("a commit pushed to a task's branch after the task reported is not merged; a rewritten branch fails the build", async () => {
    const repo = await repoWithBranches('moved.git', {
      'agt/one': { 'b.txt': 'one\n' },
      'agt/two': { 'c.txt': 'two\n' },
    });
    const reported = [await remoteBranchSha(repo.url, 'agt/one'), await remoteBranchSha(repo.url, 'agt/two')];
    // Someone else's commit on top of agt/one, and agt/two replaced by an unrelated history.
    const other = path.join(tmp, 'someone-else');
    await exec('git', ['clone', '-q', '-b', 'agt/one', repo.url, other]);
    await writeFile(path.join(other, 'foreign.txt'), 'not the task\n');
    await git(other, 'add', '-A');
    await git(other, 'commit', '-qm', 'foreign');
    await git(other, 'push', '-q', 'origin', 'agt/one');
    await builder(path.join(tmp, 'builds'));
    const built = request('cr-moved', repo, ['agt/one'], 'test -f b.txt && test ! -f foreign.txt');
    built.commits = [reported[0]!];
    await bus.publish(Topics.buildRequests, built);
    const result = await resultFor('cr-moved');
    expect(B[result.status]).toBe('BUILD_PASSED');
    expect(result.notes.join('\n')).toMatch(
      /agt\/one moved to [0-9a-f]{12} after its task reported [0-9a-f]{12}: merged the reported commit/,
    );

    await git(other, 'checkout', '-q', '--orphan', 'rewritten');
    await git(other, 'commit', '-qm', 'unrelated');
    await git(other, 'push', '-q', '--force', 'origin', 'rewritten:agt/two');
    const rewritten = request('cr-rewritten', repo, ['agt/two']);
    rewritten.commits = [reported[1]!];
    await bus.publish(Topics.buildRequests, rewritten);
    const failed = await resultFor('cr-rewritten');
    expect(B[failed.status]).toBe('BUILD_FAILED');
    expect(failed.notes.join('\n')).toMatch(/agt\/two no longer holds the commit its task reported/);
  });

  test("follow-ups on a pull request's branch stack on its tip, never forced; a branch that is gone fails", async () => {
    // farm/pr is a pull request's branch; two follow-ups started from its tip, each with its own task branch.
    const repo = await repoWithBranches('followups.git', { 'farm/pr': { 'pr.txt': 'pr\n' } });
    const prTip = (await remoteBranchSha(repo.url, 'farm/pr'))!;
    const dir = path.join(tmp, 'work-followups.git');
    for (const [branch, file] of [
      ['agt/f1', 'one.txt'],
      ['agt/f2', 'two.txt'],
    ]) {
      await git(dir, 'checkout', '-q', '-B', branch, 'farm/pr');
      await writeFile(path.join(dir, file!), `${file}\n`);
      await git(dir, 'add', '-A');
      await git(dir, 'commit', '-qm', `follow-up ${branch}`);
      await git(dir, 'push', '-q', repo.url, branch!);
    }
    await builder(path.join(tmp, 'builds'));
    const followUp = (id: string, branch: string) => {
      const r = request(id, { url: repo.url, baseCommit: prTip }, [branch], 'test -f pr.txt');
      r.repo!.baseRef = 'farm/pr';
      r.integrationBranch = 'farm/pr';
      return r;
    };
    await bus.publish(Topics.buildRequests, followUp('cr-f1', 'agt/f1'));
    const first = await resultFor('cr-f1');
    expect(B[first.status]).toBe('BUILD_PASSED');
    expect(first.integrationBranch).toBe('farm/pr');
    await bus.publish(Topics.buildRequests, followUp('cr-f2', 'agt/f2'));
    const second = await resultFor('cr-f2');
    expect(B[second.status]).toBe('BUILD_PASSED');
    // The second built on the first's result: both changes are on the branch, the first's commit in its history.
    const tip = await remoteBranchSha(repo.url, 'farm/pr');
    expect(tip).toBe(second.commitSha);
    const check = path.join(tmp, 'check-followups');
    await exec('git', ['clone', '-q', '-b', 'farm/pr', repo.url, check]);
    expect(existsSync(path.join(check, 'one.txt')) && existsSync(path.join(check, 'two.txt'))).toBe(true);
    await git(check, 'merge-base', '--is-ancestor', first.commitSha, tip!);
    expect(await remoteBranchSha(repo.url, 'farm/cr-f1')).toBeUndefined();

    await git(dir, 'push', '-q', repo.url, ':farm/pr');
    await bus.publish(Topics.buildRequests, followUp('cr-gone', 'agt/f1'));
    const gone = await resultFor('cr-gone');
    expect(B[gone.status]).toBe('BUILD_FAILED');
    expect(gone.notes.join('\n')).toMatch(/farm\/pr no longer exists on the remote/);
  });

  test('a merge conflict and a failing check are reported with their reasons', async () => {
    const repo = await repoWithBranches('conflict.git', {
      'agt/x': { 'a.txt': 'x\n' },
      'agt/y': { 'a.txt': 'y\n' },
      'agt/z': { 'z.txt': 'z\n' },
    });
    await builder(path.join(tmp, 'builds'));
    await bus.publish(Topics.buildRequests, request('cr-conflict', repo, ['agt/x', 'agt/y']));
    await bus.publish(Topics.buildRequests, request('cr-red', repo, ['agt/z'], 'echo tests failed >&2; exit 3'));
    const conflict = await resultFor('cr-conflict');
    expect(B[conflict.status]).toBe('MERGE_CONFLICT');
    expect(conflict.conflictingPaths).toEqual(['a.txt']);
    const red = await resultFor('cr-red');
    expect(B[red.status]).toBe('BUILD_FAILED');
    expect(red.notes.join('\n')).toMatch(/tests failed|exit/);
    expect(await remoteBranchSha(repo.url, 'farm/cr-red')).toBeUndefined();
  });

  test("a repository's checks.json gets neither the host network nor more time than the operator allows", async () => {
    // the check tries what a hostile repository did: reach the git server on the host and force-push main
    const escape =
      'git -c user.name=e -c user.email=e@e commit -q --allow-empty -m pwned && git push -q --force origin HEAD:main';
    const checks = { steps: [{ name: 'escape', run: 'sh escape.sh', network: 'host', timeoutSeconds: 100_000 }] };
    const repo = await repoWithBranches('escape.git', {
      'agt/evil': { 'escape.sh': `${escape}\n`, '.farm/checks.json': JSON.stringify(checks) },
    });
    await builder(path.join(tmp, 'builds'));
    await bus.publish(Topics.buildRequests, request('cr-escape', repo, ['agt/evil']));
    const result = await resultFor('cr-escape');
    expect(B[result.status]).toBe('BUILD_FAILED');
    const notes = result.notes.join('\n');
    expect(notes).toContain("[checks: timeoutSeconds 100000 s is above the operator's limit: 60 s applies]");
    expect(notes).toContain('[checks: network "host" is not allowed (FARM_CHECK_HOST_NETWORK=off)');
    expect(notes).toMatch(/unable to access|Could not resolve|Couldn't connect|Failed to connect/);
    expect(await remoteBranchSha(repo.url, 'main')).toBe(repo.baseCommit);
  });

  test('a check that commits, points the remote elsewhere and adds a pre-push hook changes nothing that is pushed', async () => {
    const sink = await gitServer.createBareRepo('sink.git'); // where a hostile repository would send the push
    const target = sink.replace('sink.git', 'hostile.git');
    const hostile = [
      'git -c user.name=e -c user.email=e@e commit -q --allow-empty -m smuggled',
      `git config url.${sink}.insteadOf ${target}`,
      `printf '#!/bin/sh\\ntouch ${markers}/pre-push-ran\\n' > .git/hooks/pre-push`,
      'chmod +x .git/hooks/pre-push',
      `touch ${markers}/check-ran`,
    ].join(' && ');
    const repo = await repoWithBranches('hostile.git', { 'agt/evil': { 'hostile.sh': `${hostile}\n` } });
    expect(repo.url).toBe(target);
    await builder(path.join(tmp, 'builds'));
    await bus.publish(Topics.buildRequests, request('cr-hostile', repo, ['agt/evil'], 'sh hostile.sh'));
    const result = await resultFor('cr-hostile');
    expect(B[result.status]).toBe('BUILD_PASSED');
    expect(existsSync(path.join(markers, 'check-ran'))).toBe(true);
    // The merge made before the checks, pushed to the request's repository with no hook of theirs run.
    expect(await remoteBranchSha(repo.url, 'farm/cr-hostile')).toBe(result.commitSha);
    const look = path.join(tmp, 'look');
    await exec('git', ['clone', '-q', '--branch', 'farm/cr-hostile', repo.url, look]);
    expect((await git(look, 'log', '-1', '--format=%s')).stdout.trim()).toBe('Merge agt/evil into farm/cr-hostile');
    expect(await remoteBranchSha(sink, 'farm/cr-hostile')).toBeUndefined();
    expect(existsSync(path.join(markers, 'pre-push-ran'))).toBe(false);
  });

  test('a build that cannot start is reported failed, saying how it ended', async () => {
    await builder(path.join(tmp, 'builds'));
    // No repository URL: the build process rejects its input (exit 64) without publishing.
    await bus.publish(Topics.buildRequests, farm.v1.BuildRequest.create({ changeRequestId: 'cr-bad', branches: [] }));
    const result = await resultFor('cr-bad');
    expect(B[result.status]).toBe('BUILD_FAILED');
    expect(result.notes.join('\n')).toMatch(/exited with code 64 before reporting/);
  });

  test('a build result the bus refuses for a while is published once it takes it, and once only', async () => {
    const repo = await repoWithBranches('refused.git', { 'agt/one': { 'b.txt': 'one\n' } });
    // A stand-in for a broker that is away: the launcher's first 3 publishes fail as kafkajs' would.
    let refused = 0;
    const away = new Proxy(bus, {
      get: (target, name) =>
        name === 'publishRaw'
          ? async (...args: Parameters<EventBus['publishRaw']>) => {
              if (refused < 3) {
                refused++;
                throw new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092');
              }
              return target.publishRaw(...args);
            }
          : Reflect.get(target, name),
    });
    await builder(path.join(tmp, 'builds'), 'stop', away);
    await bus.publish(Topics.buildRequests, request('cr-refused', repo, ['agt/one']));
    const result = await resultFor('cr-refused', 90_000);
    expect(B[result.status]).toBe('BUILD_PASSED');
    expect(refused).toBe(3);
    await new Promise((r) => setTimeout(r, 500));
    expect(results.filter((r) => r.changeRequestId === 'cr-refused')).toHaveLength(1);
  });

  test('a build outlives its builder: the next one adopts it and publishes its result once', async () => {
    const repo = await repoWithBranches('adopt.git', { 'agt/slow': { 'b.txt': 'slow\n' } });
    const stateDir = path.join(tmp, 'builds');
    const first = await builder(stateDir, 'leave');
    await bus.publish(Topics.buildRequests, request('cr-adopt', repo, ['agt/slow'], 'sleep 3'));
    await waitFor(() => existsSync(stateDir) && readdirSync(stateDir).length === 1);
    const [dir] = readdirSync(stateDir);
    await waitFor(() => existsSync(path.join(stateDir, dir, 'build.json')));
    const { pid } = JSON.parse(readFileSync(path.join(stateDir, dir, 'build.json'), 'utf8')) as { pid: number };
    expect(pid).not.toBe(process.pid);
    await first.stop(); // the build keeps running
    expect(results).toHaveLength(0);
    expect(() => process.kill(pid, 0)).not.toThrow();
    await builder(stateDir);
    const result = await resultFor('cr-adopt');
    expect(B[result.status]).toBe('BUILD_PASSED');
    // The request is delivered again to the new builder's group only if it was never started; it was.
    await new Promise((r) => setTimeout(r, 500));
    expect(results.filter((r) => r.changeRequestId === 'cr-adopt')).toHaveLength(1);
  });

  test('cancelling the request stops its build, and nothing is reported for it', async () => {
    const repo = await repoWithBranches('cancel.git', { 'agt/c': { 'b.txt': 'c\n' } });
    const stateDir = path.join(tmp, 'builds');
    await builder(stateDir);
    const started = path.join(markers, 'started');
    const sleep = `60.${process.pid}${Date.now() % 100_000}`; // a duration no other process sleeps
    await bus.publish(Topics.buildRequests, request('cr-cancel', repo, ['agt/c'], `touch ${started}; sleep ${sleep}`));
    await waitFor(() => existsSync(started), 30_000);
    const [dir] = readdirSync(stateDir);
    const { pid } = JSON.parse(readFileSync(path.join(stateDir, dir, 'build.json'), 'utf8')) as { pid: number };
    await bus.publish(
      Topics.control,
      farm.v1.ControlCommand.create({ changeRequestId: 'cr-cancel', action: farm.v1.ControlAction.CANCEL }),
    );
    await waitFor(() => !isAlive(pid), 10_000);
    await waitFor(() => processesRunning(`sleep\0${sleep}`).length === 0, 10_000); // the check died with its build
    await waitFor(() => readdirSync(stateDir).length === 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(results).toEqual([]);
    expect(await remoteBranchSha(repo.url, 'farm/cr-cancel')).toBeUndefined();
  });

  test('a build stopped with its builder runs again when the builder comes back', async () => {
    const repo = await repoWithBranches('rerun.git', { 'agt/r': { 'b.txt': 'r\n' } });
    const stateDir = path.join(tmp, 'builds');
    const first = await builder(stateDir, 'stop');
    // The first run never finishes on its own; the marker file counts the runs.
    const runs = path.join(markers, 'runs');
    const check = `echo run >> ${runs}; test "$(wc -l < ${runs})" -gt 1 || sleep 60`;
    await bus.publish(Topics.buildRequests, request('cr-rerun', repo, ['agt/r'], check));
    await waitFor(() => existsSync(runs), 30_000);
    await first.stop();
    expect(results).toHaveLength(0);
    await builder(stateDir);
    const result = await resultFor('cr-rerun');
    expect(B[result.status]).toBe('BUILD_PASSED');
    expect(readFileSync(runs, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}

/** Processes whose command line (NUL-separated arguments) contains `text`. */
function processesRunning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // exited while we looked
      }
    })
    .map(Number);
}

async function waitFor(cond: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
