// Fail closed: an agent on a machine whose sandbox cannot confine a repository's commands (here `unshare` is
// refused, as containerd's default seccomp profile refuses it in a pod) ends its task at once with what is
// missing and the setting that accepts it, before it clones or calls a model; accepted, it goes on.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { farm } from '@farm/proto';
import { startGitHttpServer, type GitHttpServer } from '@farm/git';
import { FARM_ROOT, bundlePath } from '@farm/runtime';

let tmp: string;
let gitServer: GitHttpServer;
let repoUrl: string;
beforeAll(async () => {
  gitServer = await startGitHttpServer({ root: mkdtempSync(path.join(os.tmpdir(), 'unconfined-agent-git-')) });
  repoUrl = await gitServer.createBareRepo('empty.git');
});
afterAll(() => gitServer.close());
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'unconfined-agent-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the agent's Job entry on one task, with an `unshare` that fails unless another PATH is given. */
async function runAgentWithoutNamespaces(
  extraEnv: Record<string, string>,
  taskFields: Record<string, unknown> = {},
  pathOverride?: string,
) {
  const bin = path.join(tmp, 'bin');
  const spool = path.join(tmp, 'spool');
  mkdirSync(bin);
  mkdirSync(spool);
  writeFileSync(
    path.join(bin, 'unshare'),
    '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n',
  );
  chmodSync(path.join(bin, 'unshare'), 0o755);
  const task = {
    id: 'task-unconfined',
    changeRequestId: 'cr-unconfined',
    goal: 'add a function',
    // an empty repository: a task that got past the confinement check fails at the clone (no such commit)
    repo: { url: repoUrl, baseRef: 'main', baseCommit: 'a'.repeat(40) },
    ...taskFields,
  };
  const inherited = { ...process.env };
  delete inherited.FARM_SANDBOX_ACCEPT_RISK;
  const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [bundlePath('agent-job')],
      {
        cwd: FARM_ROOT,
        env: {
          ...inherited,
          PATH: pathOverride ?? `${bin}:${process.env.PATH}`,
          FARM_TASK: JSON.stringify(task),
          FARM_AGENT_SPOOL_DIR: spool,
          FARM_WORK_DIR: path.join(tmp, 'work'),
          OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', // never called
          ...extraEnv,
        },
        encoding: 'utf8',
        timeout: 120_000,
      },
      (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });
  const files = readdirSync(spool).filter((f) => f.endsWith('.json'));
  const results = files.map((f) => {
    const body = JSON.parse(readFileSync(path.join(spool, f), 'utf8')) as { value: string };
    return farm.v1.CommitResult.decode(Buffer.from(body.value, 'base64'));
  });
  return { status: run.status, log: `${run.stdout}${run.stderr}`, results };
}

describe('an agent whose sandbox cannot confine the checks', () => {
  it('fails the task at once, naming what is missing and the setting that accepts it', async () => {
    const { status, results, log } = await runAgentWithoutNamespaces({});
    expect(status).toBe(3); // HARD_FAIL
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result.status).toBe(farm.v1.CommitStatus.HARD_FAIL);
    expect(result.failedStep).toBe(farm.v1.FailedStep.STEP_CHECK);
    expect(result.notes[0]).toContain('no private network namespace');
    expect(result.notes[0]).toContain('FARM_SANDBOX_ACCEPT_RISK=network,filesystem,processes');
    expect(log + result.notes.join('\n')).not.toMatch(/clone failed/);
  });

  it('goes on where the operator accepted the risks (and then meets the missing commit)', async () => {
    const { status, results } = await runAgentWithoutNamespaces({ FARM_SANDBOX_ACCEPT_RISK: 'all' });
    expect(results).toHaveLength(1);
    expect(results[0].failedStep).toBe(farm.v1.FailedStep.STEP_CLONE);
    expect(status).not.toBe(0);
  });

  it('fails a task whose check command cannot start in the sandbox at once, before the model is asked', async () => {
    // a repository with one commit, and a check command naming a program this machine does not have
    const work = path.join(tmp, 'seed');
    // async: the git server runs in this process
    const git = async (...args: string[]) =>
      (await promisify(execFile)('git', args, { cwd: work, encoding: 'utf8' })).stdout.trim();
    mkdirSync(work);
    await git('init', '-q', '-b', 'main');
    writeFileSync(path.join(work, 'README.md'), 'hello\n');
    await git('add', '.');
    await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
    const url = await gitServer.createBareRepo('seeded.git');
    await git('push', '-q', url, 'main');
    const { status, results } = await runAgentWithoutNamespaces(
      {}, // this machine's own sandbox: everything confined
      {
        repo: { url, baseRef: 'main', baseCommit: await git('rev-parse', 'HEAD') },
        checkCommand: 'no-such-checker --all',
      },
      process.env.PATH!, // no failing unshare
    );
    expect(status).toBe(3);
    expect(results[0].failedStep).toBe(farm.v1.FailedStep.STEP_CHECK);
    expect(results[0].notes[0]).toContain('the check "check" cannot run: `no-such-checker` is not a program');
    expect(results[0].steps).toBe(0);
    expect(results[0].tokenUsage?.totalTokens ?? 0).toBe(0);
  });

  it('refuses to start with a risk it does not know', async () => {
    const { status, results, log } = await runAgentWithoutNamespaces({ FARM_SANDBOX_ACCEPT_RISK: 'network,whatever' });
    expect(status).toBe(64);
    expect(results).toHaveLength(0);
    expect(log).toMatch(/FARM_SANDBOX_ACCEPT_RISK.*network, filesystem, processes, all/);
  });
});
