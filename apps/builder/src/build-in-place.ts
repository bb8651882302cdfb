import { farm } from '@farm/proto';
import { Topics, type EventBus } from '@farm/bus';
import { errorMessage, runCommand, silentLogger, type Logger } from '@farm/runtime';
import { checkPlanFor, type DetectOptions } from '@farm/sandbox';
import type { BuildLauncher } from './build-launcher';
import { builderMetrics } from './metrics';
import { checksAlreadyRan } from './reuse-task-checks';
import { integrationBranchFor } from './run-build';
import { INTEGRATION_DIFF_READ_BYTES, integrationDiff } from './integration-diff';
import { withObjectReader } from './git-object-reader';
import { baseAmongAncestors, readCommitAndTop, treeFiles } from './tree-files';

/** Top-level names of a Python project, whose test files the check planner searches the tree for. */
const PYTHON_TOP = /\.py$|^(pyproject\.toml|setup\.cfg|setup\.py|pytest\.ini|tox\.ini)$|^requirements.*\.txt$/;
/** A one-task build that may skip the process: the task's branch, commit, base and the tree its checks ran on. */
export interface InPlaceCandidate {
  changeRequestId: string;
  agentBranch: string;
  commit: string;
  base: string;
  verifiedTree: string;
  taskId: string;
  verification: farm.v1.IVerification;
}

/**
 * Whether a build request could be done in place (pure): one task, a fresh integration branch (not a
 * follow-up's), the commit the task reported, its base, and the tree its checks ran on. Whether it is done
 * so also depends on the repository (see buildInPlace).
 */
export function inPlaceCandidate(request: farm.v1.IBuildRequest): InPlaceCandidate | undefined {
  const [agentBranch, ...more] = request.branches ?? [];
  const commit = request.commits?.[0] ?? '';
  const verification = request.verifications?.[0];
  const base = request.repo?.baseCommit ?? '';
  if (!agentBranch || more.length || request.integrationBranch || !commit || !base || commit === base) return undefined;
  if (!verification?.treeSha) return undefined;
  return {
    changeRequestId: request.changeRequestId ?? '',
    agentBranch,
    commit,
    base,
    verifiedTree: verification.treeSha,
    taskId: request.taskIds?.[0] || agentBranch,
    verification,
  };
}

/**
 * The build of a one-task request in the (bare) repository `gitDir` the farm serves, without a process or a
 * checkout, when it would change nothing a build process does: merging one task's commit onto its own base
 * gives that commit's tree, the tree the task's checks ran on, and the build's check plan on it is empty or
 * exactly the checks that passed there. The merge commit is then written as the build writes it (same
 * message, author, parents and tree; its date the task commit's, so doing it twice gives the same commit)
 * and farm/<id> set to it, and the result carries the request's diff as a build process's does. Undefined
 * when a build process is needed.
 */
export async function buildInPlace(
  request: farm.v1.IBuildRequest,
  gitDir: string,
  opts: DetectOptions & { log?: Logger } = {},
): Promise<farm.v1.IBuildResult | undefined> {
  const c = inPlaceCandidate(request);
  if (!c) return undefined;
  const { log = silentLogger, ...detect } = opts;
  const git = (args: string[], env?: NodeJS.ProcessEnv) =>
    runCommand('git', ['-C', gitDir, ...args], {
      env: { ...process.env, ...env },
      maxBuffer: INTEGRATION_DIFF_READ_BYTES,
    });
  // One `git cat-file` process reads the commit, its tree's names, its ancestors if need be and the files
  // the check planner reads; the usual task commit sits right on its base.
  const planned = await withObjectReader(gitDir, async (objects) => {
    const read = await readCommitAndTop(objects, c.commit).catch(() => undefined);
    if (!read || read.tree !== c.verifiedTree) return undefined;
    const onBase =
      read.parents.includes(c.base) ||
      (await baseAmongAncestors(objects, c.base, read.parents)) ||
      (await git(['merge-base', '--is-ancestor', c.base, c.commit]).then(
        () => true,
        () => false,
      ));
    if (!onBase) return undefined;
    try {
      // A Python tree's planner looks for test files anywhere (where pytest collects them): its paths, listed once.
      // Other trees are planned from the files cat-file read (a search of theirs would fall back to a full build).
      const paths = read.topLevel.some((f) => PYTHON_TOP.test(f))
        ? (await git(['ls-tree', '-r', '-z', '--name-only', read.tree])).stdout.split('\0').filter(Boolean)
        : undefined;
      return {
        read,
        ...checkPlanFor(await treeFiles(objects, read.tree, read.topLevel, paths), request.checkCommand, detect),
      };
    } catch {
      return undefined; // e.g. an invalid .farm/checks.json: the build process reports it
    }
  });
  if (!planned) return undefined;
  const { read, steps } = planned;
  const { tree } = read;
  const note = steps.length
    ? checksAlreadyRan({ tasks: [{ taskId: c.taskId, verification: c.verification }], tree, steps })
    : 'no checks found';
  if (!note) return undefined;
  const branch = integrationBranchFor(c.changeRequestId);
  const date = `@${read.committedAt} +0000`;
  const { stdout } = await git(
    ['commit-tree', tree, '-p', c.base, '-p', c.commit, '-m', `Merge ${c.agentBranch} into ${branch}`],
    {
      GIT_AUTHOR_NAME: 'agent-farm',
      GIT_AUTHOR_EMAIL: 'build@agent-farm.local',
      GIT_COMMITTER_NAME: 'agent-farm',
      GIT_COMMITTER_EMAIL: 'build@agent-farm.local',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  );
  const sha = stdout.trim();
  // What the request changes, for review (GET .../diff), as the build process reads it: the merge against its base.
  const change = await integrationDiff(
    (args) => git(args).then((r) => r.stdout),
    { from: c.base, merged: sha },
    request,
    (err) =>
      log.warn('the integration diff could not be read; shown as cut', { changeRequestId: c.changeRequestId, err }),
  );
  await git(['update-ref', '-m', `build of ${c.changeRequestId}`, `refs/heads/${branch}`, sha]);
  return {
    changeRequestId: c.changeRequestId,
    status: farm.v1.BuildStatus.BUILD_PASSED,
    integrationBranch: branch,
    commitSha: sha,
    ...change,
    notes: [note, 'built in place: one task, its checked tree, nothing left to run'],
  };
}

/**
 * `farm up`'s builds: a one-task request on a repository this farm serves is built in place when nothing is
 * left to run (buildInPlace), with no process started; any other goes to `inner` (a process per build).
 */
export class InPlaceBuildLauncher implements BuildLauncher {
  constructor(
    private readonly inner: BuildLauncher,
    private readonly deps: {
      bus: EventBus;
      log: Logger;
      /** The git directory of a repository URL this farm serves itself, else undefined. */
      gitDirFor: (url: string) => string | undefined;
    },
  ) {}

  async launch(request: farm.v1.IBuildRequest): Promise<void> {
    const gitDir = inPlaceCandidate(request) && this.deps.gitDirFor(request.repo?.url ?? '');
    if (gitDir) {
      const result = await buildInPlace(request, gitDir, { log: this.deps.log }).catch((err: unknown) => {
        this.deps.log.warn('in-place build failed; starting a build process', {
          changeRequestId: request.changeRequestId,
          err: errorMessage(err),
        });
        return undefined;
      });
      if (result) {
        builderMetrics.inPlace.inc();
        this.deps.log.info('built in place', { changeRequestId: request.changeRequestId, commit: result.commitSha });
        await this.deps.bus.publish(Topics.buildResults, farm.v1.BuildResult.fromObject(result));
        return;
      }
    }
    await this.inner.launch(request);
  }

  cancel(changeRequestId: string): Promise<void> {
    return this.inner.cancel(changeRequestId);
  }

  resume(): Promise<void> {
    return this.inner.resume();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
