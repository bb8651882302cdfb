import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { farm } from '@farm/proto';
import { errorMessage, redactMessage, type Logger } from '@farm/runtime';
import { checkPlanFor, describeFailure, runChecks, type CheckCeilings } from '@farm/sandbox';
import { gitCliAuth } from '@farm/git';
import { INTEGRATION_DIFF_READ_BYTES, buildRedactor, integrationDiff } from './integration-diff';
import { checksAlreadyRan, type MergedTask } from './reuse-task-checks';

const exec = promisify(execFile);
const B = farm.v1.BuildStatus;

export interface BuildDeps {
  log: Logger;
  /** Where the checkout goes (a temporary directory under it, removed afterwards). */
  workRoot?: string;
  checkTimeoutMs?: number;
  /** The operator's other limits on the checks (default: DEFAULT_CHECK_CEILINGS, no host network). */
  checkCeilings?: Partial<Omit<CheckCeilings, 'timeoutSeconds'>>;
  /** Directories besides the checkout the checks may write (a shared package cache). */
  checkWritableDirs?: string[];
}

/** The tasks whose branches the build merges, with what verified each (from the orchestrator's BuildRequest). */
const mergedTasks = (request: farm.v1.IBuildRequest): MergedTask[] =>
  (request.branches ?? []).map((branch, i) => ({
    taskId: request.taskIds?.[i] || branch,
    verification: request.verifications?.[i],
  }));

export const integrationBranchFor = (changeRequestId: string) => `farm/${changeRequestId}`;

/** How often a build onto an existing branch starts again when the branch moved while it ran. */
const PUSH_RACES = 3;

/**
 * One build, run by a build process or Job (never the orchestrator): merges a request's agt/ branches onto its
 * base commit as farm/<id>, runs the repo's full checks in the same sandboxed runner as the agents and pushes
 * the branch. A merge conflict stops the build with the conflicting paths.
 *
 * With `integrationBranch` (a follow-up on a pull request's branch) the merge starts from that branch's
 * current tip, so follow-ups landing one after the other stack up, and the push is never forced: when the
 * branch moved while the checks ran, the build starts again on the new tip.
 */
export async function runBuild(request: farm.v1.IBuildRequest, deps: BuildDeps): Promise<farm.v1.IBuildResult> {
  // The checks' output and git's messages quote what they see: every note goes out redacted like the diff.
  const built = await buildRacing(request, deps);
  return redactMessage(farm.v1.BuildResult, built, buildRedactor(request));
}

async function buildRacing(request: farm.v1.IBuildRequest, deps: BuildDeps): Promise<farm.v1.IBuildResult> {
  for (let race = 1; ; race++) {
    const outcome = await buildOnce(request, deps);
    if (outcome !== 'moved') return outcome;
    if (race >= PUSH_RACES) {
      return {
        changeRequestId: request.changeRequestId,
        status: B.BUILD_FAILED,
        integrationBranch: request.integrationBranch,
        notes: [`${request.integrationBranch} kept moving while the build ran (${PUSH_RACES} attempts)`],
      };
    }
    deps.log.info('integration branch moved during the build; building again on its new tip', {
      changeRequestId: request.changeRequestId,
      branch: request.integrationBranch,
    });
  }
}

async function buildOnce(request: farm.v1.IBuildRequest, deps: BuildDeps): Promise<farm.v1.IBuildResult | 'moved'> {
  const id = request.changeRequestId!;
  const existing = request.integrationBranch || undefined;
  const branch = existing ?? integrationBranchFor(id);
  // Credentials travel in this process's git environment only, never in the clone's config the checks can read.
  const { url, env: authEnv } = gitCliAuth(request.repo?.url ?? '');
  const root = deps.workRoot ?? path.join(os.tmpdir(), 'farm-build');
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(path.join(root, 'build-'));
  const repo = path.join(dir, 'repo');
  const git = (...args: string[]) =>
    exec('git', ['-c', 'user.name=agent-farm', '-c', 'user.email=build@agent-farm.local', ...args], {
      cwd: repo,
      env: { ...process.env, ...authEnv },
      maxBuffer: INTEGRATION_DIFF_READ_BYTES,
    });
  // The request's change as merged, once it is (see below).
  let change: { diff: string; diffTruncated: boolean } | undefined;
  const result = (status: farm.v1.BuildStatus, fields: Partial<farm.v1.IBuildResult>): farm.v1.IBuildResult => ({
    changeRequestId: id,
    status,
    integrationBranch: branch,
    ...change,
    ...fields,
  });
  try {
    await exec('git', ['clone', '--quiet', '--no-checkout', url, repo], { env: { ...process.env, ...authEnv } });
    let start = request.repo?.baseCommit ?? '';
    let startTip = '';
    if (existing) {
      // Another follow-up may have landed on the branch since this request started: build on its tip.
      const fetched = await git(
        'fetch',
        '--quiet',
        'origin',
        `refs/heads/${existing}:refs/remotes/origin/${existing}`,
      ).then(
        () => true,
        () => false,
      );
      if (!fetched) return result(B.BUILD_FAILED, { notes: [`${existing} no longer exists on the remote`] });
      start = `origin/${existing}`;
      startTip = (await git('rev-parse', start)).stdout.trim();
    }
    await git('checkout', '--quiet', '-B', branch, start);
    const moved: string[] = [];
    for (const [i, agentBranch] of (request.branches ?? []).entries()) {
      await git('fetch', '--quiet', 'origin', `refs/heads/${agentBranch}:refs/remotes/origin/${agentBranch}`);
      // The commit the task reported, not whatever the branch holds now: a push after the task is not its work.
      const reported = request.commits?.[i] ?? '';
      const tip = (await git('rev-parse', `origin/${agentBranch}`)).stdout.trim();
      if (reported && tip !== reported) {
        if (
          !(await git('cat-file', '-e', `${reported}^{commit}`).then(
            () => true,
            () => false,
          ))
        ) {
          return result(B.BUILD_FAILED, {
            notes: [
              `${agentBranch} no longer holds the commit its task reported (${reported.slice(0, 12)}): it is at ${tip.slice(0, 12)}`,
            ],
          });
        }
        moved.push(
          `${agentBranch} moved to ${tip.slice(0, 12)} after its task reported ${reported.slice(0, 12)}: merged the reported commit`,
        );
      }
      try {
        await git(
          'merge',
          '--no-ff',
          '--no-edit',
          '-m',
          `Merge ${agentBranch} into ${branch}`,
          reported || `origin/${agentBranch}`,
        );
      } catch (err) {
        const { stdout } = await git('diff', '--name-only', '--diff-filter=U');
        const paths = stdout.split('\n').filter(Boolean);
        await git('merge', '--abort').catch(() => undefined);
        if (!paths.length) throw err; // not a conflict: a real git failure
        deps.log.warn('merge conflict', { changeRequestId: id, branch: agentBranch, paths });
        return result(B.MERGE_CONFLICT, { conflictingPaths: paths, notes: [`merging ${agentBranch} conflicts`] });
      }
    }
    // What is pushed is decided now, before any of the repository's commands run: the merge commit, copied into a
    // bare repository of its own that the checks never see. After the checks nothing runs in the checkout with
    // the credentials: its HEAD, refs, config (`url.*.insteadOf`, a proxy) and hooks are theirs to change.
    const merged = (await git('rev-parse', 'HEAD')).stdout.trim();
    // What the request changes, for review: read before any of the repository's commands ran.
    change = await integrationDiff(
      (args) => git(...args).then((r) => r.stdout),
      { from: start, merged },
      request,
      (err) => deps.log.warn('the integration diff could not be read; shown as cut', { changeRequestId: id, err }),
    );
    const outbound = await outboundCopy(dir, repo, merged, branch);
    // The full suite, in the same sandbox as the agents' checks: the request's command, else what the repo implies.
    const { steps } = checkPlanFor(repo, request.checkCommand);
    const tree = (await git('rev-parse', 'HEAD^{tree}')).stdout.trim();
    const ranByTask = checksAlreadyRan({ tasks: mergedTasks(request), tree, steps });
    let passed: string[];
    if (ranByTask) {
      deps.log.info('checks already passed on this tree', { changeRequestId: id, tree, note: ranByTask });
      passed = [ranByTask];
    } else {
      const checks = await runChecks(repo, steps, {
        ceilings: { ...deps.checkCeilings, timeoutSeconds: Math.round((deps.checkTimeoutMs ?? 30 * 60_000) / 1000) },
        writableDirs: deps.checkWritableDirs,
        log: deps.log,
      });
      if (!checks.ok) return result(B.BUILD_FAILED, { notes: [describeFailure(checks) ?? 'checks failed'] });
      // what .farm/checks.json asked for beyond the operator's limits, and got narrowed
      const narrowed = checks.steps.flatMap((s) => s.notes.map((note) => `${s.name}: ${note}`));
      passed = steps.length ? [`passed: ${steps.map((s) => s.name).join(', ')}`, ...narrowed] : ['no checks found'];
    }
    const push = (...args: string[]) =>
      outbound.git(authEnv, 'push', '--quiet', ...args, url, `${branch}:refs/heads/${branch}`);
    if (existing) {
      // Someone else's branch tip may have moved: never force. A push refused because the branch moved since
      // this build fetched it builds again on the new tip; any other refusal is the build's failure.
      const pushed = await push().then(
        () => true,
        async (err: Error) => {
          const tip = (await outbound.git(authEnv, 'ls-remote', url, `refs/heads/${existing}`)).stdout.split(/\s/)[0];
          if ((tip ?? '') !== startTip) return false;
          throw err;
        },
      );
      if (!pushed) return 'moved';
    } else {
      // The integration branch is the farm's own: a rebuild replaces it.
      await push('--force');
    }
    return result(B.BUILD_PASSED, {
      commitSha: merged,
      notes: [...passed, ...moved],
    });
  } catch (err) {
    deps.log.error('build failed', { changeRequestId: id, err });
    return result(B.BUILD_FAILED, { notes: [`build error: ${errorMessage(err)}`] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A bare repository beside the checkout holding `commit` as `branch`, made before the checks run: the push goes
 * from there, with git's defaults (no hooks, no configuration the checks wrote), to the URL given, never to a
 * remote the checkout names. The remote checks what it receives against the objects' names.
 */
async function outboundCopy(dir: string, checkout: string, commit: string, branch: string) {
  const bare = path.join(dir, 'outbound.git');
  // A local clone copies the object files as they are (no hard links the checks could write through).
  await exec('git', [
    ...['clone', '--bare', '--quiet', '--local', '--no-hardlinks', '--no-tags'],
    ...['--single-branch', '--branch', branch, checkout, bare],
  ]);
  const git = (env: Record<string, string>, ...args: string[]) =>
    exec('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
      cwd: bare,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
  const copied = (await git({}, 'rev-parse', `refs/heads/${branch}`)).stdout.trim();
  if (copied !== commit) throw new Error(`the outbound copy of ${branch} is ${copied}, not the merge ${commit}`);
  return { git };
}
