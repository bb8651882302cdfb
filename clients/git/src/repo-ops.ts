import fs from 'node:fs';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import nodeHttp from 'node:http';
import nodeHttps from 'node:https';
import type { Socket } from 'node:net';
import isoHttp from 'isomorphic-git/http/node';
import { FarmError, errorMessage, retryWhileRefused, retryWhileUnreachable, runCommand } from '@farm/runtime';
import type { GitHttpServer } from './git-http-server';
import { gitCliAuth, redactUrl, splitCredentials } from './credentials';
import { defaultGitClient, gitForRemote, GitCommandFailed, type GitClient } from './native-git';

/**
 * How long a git request may wait without a byte from the server. Node's default agent gives up after 5 s
 * idle ("Request timed out"), and a kept-alive socket keeps the server's keep-alive hint (4 s here) as its
 * timeout when reused: a server indexing a big push, or busy on a loaded machine, is silent longer.
 */
export const GIT_HTTP_IDLE_TIMEOUT_MS = 120_000;
class HttpAgent extends nodeHttp.Agent {
  override reuseSocket(socket: Socket, request: nodeHttp.ClientRequest): void {
    super.reuseSocket(socket, request);
    socket.setTimeout(GIT_HTTP_IDLE_TIMEOUT_MS);
  }
}
class HttpsAgent extends nodeHttps.Agent {
  override reuseSocket(socket: Socket, request: nodeHttp.ClientRequest): void {
    super.reuseSocket(socket, request);
    socket.setTimeout(GIT_HTTP_IDLE_TIMEOUT_MS);
  }
}
const agents = {
  'http:': new HttpAgent({ keepAlive: true, timeout: GIT_HTTP_IDLE_TIMEOUT_MS }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: GIT_HTTP_IDLE_TIMEOUT_MS }),
};
const http: typeof isoHttp = {
  request: (req) => isoHttp.request({ ...req, agent: agents[new URL(req.url).protocol as keyof typeof agents] }),
};

/** isomorphic-git's network options for `url`: the bare URL and its credentials (never in .git/config). */
function remote(url: string) {
  const { url: bare, auth } = splitCredentials(url);
  return { http, url: bare, ...(auth ? { onAuth: () => auth } : {}) };
}

/** The ref does not exist on the remote; retrying the same request cannot help. */
export class RefNotFound extends FarmError {
  constructor(
    readonly url: string,
    readonly ref: string,
  ) {
    super(`ref ${ref} not found at ${url}`, { retryable: false, details: { url, ref } });
  }
}

/** Network or server trouble while cloning/fetching; usually transient. */
export class CloneFailed extends FarmError {
  constructor(message: string, cause?: unknown, retryable = true) {
    super(message, { retryable, cause, details: cause === undefined ? {} : { cause: errorMessage(cause) } });
  }
}

/** The commit is not reachable from the ref (even after deepening); retrying the same task cannot help. */
export class CommitNotFound extends FarmError {
  constructor(
    readonly commit: string,
    readonly ref: string,
    readonly url: string,
  ) {
    super(`commit ${commit} not reachable from ${ref} at ${url}`, { retryable: false, details: { commit, ref, url } });
  }
}

/** commitAll found no changes to commit. */
export class NothingToCommit extends FarmError {
  constructor(dir: string) {
    super(`nothing to commit in ${dir}`, { retryable: false, details: { dir } });
  }
}

/** The remote refused the push (e.g. non-fast-forward because the branch already moved). */
export class PushRejected extends FarmError {
  constructor(
    readonly branch: string,
    reason: string,
    retryable: boolean,
    cause?: unknown,
  ) {
    super(`push of ${branch} rejected: ${reason}`, { retryable, cause, details: { branch, reason } });
  }
}

export interface Author {
  name: string;
  email: string;
}

const SHA_RE = /^[0-9a-f]{40}$/i;
const execGit = (args: string[]) => runCommand('git', args);

/** Remote refs, peeled so that annotated tags map to the commit they point at. */
async function remoteRefs(url: string, waitForServerMs?: number): Promise<Map<string, string>> {
  const refs = await retryWhileUnreachable(
    () => git.listServerRefs({ ...remote(url), symrefs: true, peelTags: true }),
    waitForServerMs,
  );
  return new Map(refs.map((r) => [r.ref, r.peeled ?? r.oid]));
}

/**
 * Branch/tag/full ref name → commit sha; a 40-hex sha passes through untouched (lower-cased). A server that
 * refuses connections is waited for up to `waitForServerMs` (default: as long as an agent waits for a farm restart).
 */
export async function resolveRemoteRef(
  url: string,
  ref: string,
  options: { waitForServerMs?: number } = {},
): Promise<string> {
  if (SHA_RE.test(ref)) return ref.toLowerCase();
  let refs: Map<string, string>;
  try {
    refs = await remoteRefs(url, options.waitForServerMs);
  } catch (err) {
    throw new CloneFailed(`listing refs of ${redactUrl(url)} failed: ${errorMessage(err)}`, err);
  }
  // Same precedence as git rev-parse: exact full ref, then branch, then tag.
  for (const candidate of [ref, `refs/heads/${ref}`, `refs/tags/${ref}`]) {
    const sha = refs.get(candidate);
    if (sha) return sha;
  }
  throw new RefNotFound(redactUrl(url), ref);
}

/**
 * The branch a repository's HEAD names (its default branch: `main`, `master`, `trunk`), for a request that names
 * none. `repo` is a clone URL, or a repository on this machine (a path). Undefined when HEAD is detached or names
 * no branch; a server that refuses connections is waited for up to `waitForServerMs`.
 */
export async function defaultBranchOf(
  repo: string,
  options: { waitForServerMs?: number } = {},
): Promise<string | undefined> {
  if (path.isAbsolute(repo)) {
    const out = await execGit(['-C', repo, 'symbolic-ref', '-q', '--short', 'HEAD']).catch(() => ({ stdout: '' }));
    const branch = out.stdout.trim();
    // HEAD may name a branch with no commit yet (a fresh `git init`): that is no default to plan on.
    const born =
      branch &&
      (await execGit(['-C', repo, 'rev-parse', '--verify', '-q', `refs/heads/${branch}`]).then(
        () => true,
        () => false,
      ));
    return born ? branch : undefined;
  }
  const refs = await retryWhileUnreachable(
    () => git.listServerRefs({ ...remote(repo), prefix: 'HEAD', symrefs: true }),
    options.waitForServerMs,
  );
  const target = refs.find((r) => r.ref === 'HEAD')?.target;
  return target?.startsWith('refs/heads/') ? target.slice('refs/heads/'.length) : undefined;
}

/**
 * resolveRemoteRef for a repository on this machine (a bare repository a farm serves): read on disk instead of a
 * round trip through its HTTP server. `url` names it in errors.
 */
export async function resolveLocalRef(gitDir: string, ref: string, url = gitDir): Promise<string> {
  if (SHA_RE.test(ref)) return ref.toLowerCase();
  // A branch (what requests name) is read from its ref file or packed-refs, without a process: `farm up` asks
  // for every plan, and each process it starts holds its event loop for the fork. Tags (which may need peeling)
  // and names not found that way are listed by git below.
  const branch = ref.startsWith('refs/heads/') ? ref : ref.startsWith('refs/') ? undefined : `refs/heads/${ref}`;
  if (branch) {
    const sha = await git.resolveRef({ fs, gitdir: gitDir, ref: branch }).catch(() => undefined);
    if (sha && SHA_RE.test(sha)) return sha;
  }
  const candidates = [ref, `refs/heads/${ref}`, `refs/tags/${ref}`];
  let listed: string;
  try {
    ({ stdout: listed } = await execGit([
      '-C',
      gitDir,
      'for-each-ref',
      '--format=%(refname) %(objectname) %(*objectname)',
      ...candidates.filter((c) => c.startsWith('refs/')),
    ]));
  } catch (err) {
    throw new CloneFailed(`listing refs of ${redactUrl(url)} failed: ${errorMessage(err)}`, err);
  }
  // An annotated tag is peeled to its commit, as resolveRemoteRef does.
  const refs = new Map(
    listed
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, oid, peeled] = line.split(' ');
        return [name, peeled || oid];
      }),
  );
  for (const candidate of candidates) {
    const sha = refs.get(candidate);
    if (sha) return sha;
  }
  throw new RefNotFound(redactUrl(url), ref);
}

export async function remoteBranchSha(url: string, branch: string): Promise<string | undefined> {
  const full = `refs/heads/${branch}`;
  const refs = await retryWhileUnreachable(() => git.listServerRefs({ ...remote(url), prefix: full }));
  return refs.find((r) => r.ref === full)?.oid;
}

async function hasCommit(dir: string, oid: string): Promise<boolean> {
  try {
    await git.readCommit({ fs, dir, oid });
    return true;
  } catch {
    return false;
  }
}

/** A repo stops being shallow once the server sent the whole history (isomorphic-git removes .git/shallow). */
async function isShallow(dir: string): Promise<boolean> {
  const text = await readFile(path.join(dir, '.git', 'shallow'), 'utf8').catch(() => '');
  return text.trim().length > 0;
}

async function emptyDir(dir: string): Promise<void> {
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    await rm(path.join(dir, entry), { recursive: true, force: true });
  }
}

/** The steps of a shallow clone, by either git client. */
interface CloneSteps {
  /**
   * A repository with `origin` recorded without credentials (the repo's checks can read .git/config), holding
   * `ref` (undefined: the remote's HEAD) `depth` commits deep.
   */
  start(ref: string | undefined, depth: number): Promise<void>;
  /** Fetches `depth` more commits of `ref`. */
  deepen(ref: string | undefined, depth: number): Promise<void>;
  hasCommit(oid: string): Promise<boolean>;
  checkout(oid: string): Promise<void>;
  /** The remote has no such ref. */
  isRefMissing(err: unknown): boolean;
}

function isomorphicCloneSteps(url: string, dir: string): CloneSteps {
  const net = remote(url);
  return {
    start: async (ref, depth) => {
      await git.init({ fs, dir });
      await git.addRemote({ fs, dir, remote: 'origin', url: net.url, force: true });
      await retryWhileUnreachable(() =>
        git.fetch({ fs, ...net, dir, remote: 'origin', ref, singleBranch: true, depth, tags: false }),
      );
    },
    deepen: async (ref, depth) => {
      await retryWhileUnreachable(() =>
        git.fetch({ fs, ...net, dir, remote: 'origin', ref, singleBranch: true, depth, relative: true, tags: false }),
      );
    },
    hasCommit: (oid) => hasCommit(dir, oid),
    checkout: (oid) => git.checkout({ fs, dir, ref: oid, force: true }),
    isRefMissing: (err) => err instanceof git.Errors.NotFoundError,
  };
}

function cliCloneSteps(url: string, dir: string): CloneSteps {
  const run = gitForRemote(dir, url);
  return {
    // One process for init, remote and fetch; `--branch` takes a branch or tag name, not a full ref.
    start: async (ref, depth) => {
      const branch = ref?.replace(/^refs\/(heads|tags)\//, '');
      const args = ['clone', '--quiet', '--no-checkout', '--no-tags', '--single-branch', `--depth=${depth}`];
      if (branch) args.push('--branch', branch);
      await retryWhileUnreachable(() =>
        run(...args, gitCliAuth(url).url, '.').catch(async (err: unknown) => {
          await emptyDir(dir); // a half-made clone would refuse the next attempt
          throw err;
        }),
      );
    },
    deepen: async (ref, depth) => {
      const branch = ref?.replace(/^refs\/(heads|tags)\//, '') ?? 'HEAD';
      await retryWhileUnreachable(() => run('fetch', '--quiet', '--no-tags', `--deepen=${depth}`, 'origin', branch));
    },
    hasCommit: (oid) =>
      run('cat-file', '-e', `${oid}^{commit}`).then(
        () => true,
        () => false,
      ),
    checkout: async (oid) => {
      await run('-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--force', '--detach', oid);
    },
    isRefMissing: (err) =>
      err instanceof GitCommandFailed && /couldn't find remote ref|Remote branch .* not found/i.test(err.stderr),
  };
}

/**
 * Shallow-clones `ref` into `dir` and checks out `commit` detached. Starts at `depth` (1) because tasks
 * usually target the branch tip; when the commit is older, deepens in growing steps until it appears or
 * the history is exhausted (then CommitNotFound, not retryable). Uses the `git` command line where it is on
 * PATH (same result, a fraction of the time), else isomorphic-git; `via` chooses.
 */
export async function cloneAtCommit(opts: {
  url: string;
  ref: string;
  commit: string;
  dir: string;
  depth?: number;
  /** Upper bound on total history fetched before giving up (default 10000 commits). */
  maxDepth?: number;
  via?: GitClient;
}): Promise<{ commit: string; depth: number }> {
  const { dir } = opts;
  const url = redactUrl(opts.url); // for messages
  const commit = opts.commit.toLowerCase();
  if (!SHA_RE.test(commit)) throw new CommitNotFound(opts.commit, opts.ref, url);
  const maxDepth = opts.maxDepth ?? 10_000;
  // A sha can't be requested by name over protocol v1; fetch the default branch and look for it there.
  const ref = SHA_RE.test(opts.ref) ? undefined : opts.ref;
  let depth = Math.max(1, opts.depth ?? 1);
  const steps =
    (opts.via ?? defaultGitClient()) === 'git-cli' ? cliCloneSteps(opts.url, dir) : isomorphicCloneSteps(opts.url, dir);

  await mkdir(dir, { recursive: true });
  try {
    await steps.start(ref, depth);
  } catch (err) {
    if (ref && steps.isRefMissing(err)) throw new RefNotFound(url, ref);
    throw new CloneFailed(`clone of ${url} (${opts.ref}) failed: ${errorMessage(err)}`, err);
  }

  while (!(await steps.hasCommit(commit))) {
    if (!(await isShallow(dir)) || depth >= maxDepth) throw new CommitNotFound(commit, opts.ref, url);
    const step = Math.min(Math.max(depth, 10), maxDepth - depth); // doubles: few round trips for old commits
    try {
      await steps.deepen(ref, step);
    } catch (err) {
      throw new CloneFailed(`deepening ${url} (${opts.ref}) to ${depth + step} failed: ${errorMessage(err)}`, err);
    }
    depth += step;
  }

  await steps.checkout(commit);
  return { commit, depth };
}

/**
 * Puts HEAD on `branch` (created or reset at the current HEAD commit, worktree untouched), stages every
 * addition, modification and deletion, and commits. Returns the new commit sha.
 */
export async function commitAll(opts: {
  dir: string;
  message: string;
  author: Author;
  branch: string;
  allowEmpty?: boolean;
  /** Stage only these paths (the patch's files), not what the checks left behind (builds, installs). */
  paths?: string[];
}): Promise<string> {
  const { dir } = opts;
  const current = await git.currentBranch({ fs, dir, fullname: false });
  if (current !== opts.branch) await git.branch({ fs, dir, ref: opts.branch, checkout: true, force: true });

  let changed = 0;
  const matrix = await git.statusMatrix({ fs, dir, ...(opts.paths ? { filepaths: opts.paths } : {}) });
  for (const [filepath, head, workdir, stage] of matrix) {
    if (head === 1 && workdir === 1 && stage === 1) continue; // unchanged
    if (workdir === 0) {
      if (head === 0 && stage === 0) continue;
      await git.remove({ fs, dir, filepath });
    } else {
      await git.add({ fs, dir, filepath });
    }
    changed++;
  }
  if (changed === 0 && !opts.allowEmpty) throw new NothingToCommit(dir);
  const author = { ...opts.author, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  return git.commit({ fs, dir, message: opts.message, author, committer: author });
}

/** The git tree a commit records (what a check run on that commit's checkout saw). */
export async function treeOfCommit(dir: string, oid: string): Promise<string> {
  return (await git.readCommit({ fs, dir, oid })).commit.tree;
}

/**
 * Whether a failed push was the remote's answer (final: pushing again gets the same) or a failure to reach it
 * (another try may pass), with the remote's own words. Final: a non-fast-forward (isomorphic-git sees it before
 * sending), a ref the remote refused (a pre-receive hook, a protected branch) and a 4xx other than 408/429
 * (401/403: these credentials may not push; 404: no such repository).
 */
export function pushRefusal(err: unknown, remoteSaid = ''): { final: boolean; reason: string } {
  const words = remoteSaid.trim() ? ` (the remote said: ${remoteSaid.trim().slice(-1000)})` : '';
  if (err instanceof git.Errors.PushRejectedError) return { final: true, reason: errorMessage(err) };
  if (err instanceof git.Errors.GitPushError) {
    return { final: true, reason: `the remote refused it:${err.data.prettyDetails}${words}` };
  }
  if (err instanceof git.Errors.HttpError) {
    const { statusCode, statusMessage, response } = err.data;
    const body = typeof response === 'string' && response.trim() ? `: ${response.trim().slice(0, 500)}` : '';
    const final = statusCode >= 400 && statusCode < 500 && statusCode !== 408 && statusCode !== 429;
    return { final, reason: `HTTP ${statusCode} ${statusMessage}${body}${words}` };
  }
  return { final: false, reason: `${errorMessage(err)}${words}` };
}

/**
 * Pushes local `branch` to `refs/heads/<branch>` without force; returns the pushed commit sha. The repository's
 * commands may have written its .git: the local ref is named in full (a short name would find `refs/tags/<branch>`
 * first) and no CORS proxy is read from its config (one would receive the push and its credentials).
 */
export async function pushBranch(opts: { dir: string; url: string; branch: string }): Promise<string> {
  const { dir, url, branch } = opts;
  const ref = `refs/heads/${branch}`;
  const sha = await git.resolveRef({ fs, dir, ref });
  // What the remote said on its way (a pre-receive hook's words arrive here, prefixed "remote:" by git).
  const said: string[] = [];
  let result;
  try {
    result = await retryWhileRefused(() =>
      git.push({
        fs,
        ...remote(url),
        dir,
        ref,
        remoteRef: ref,
        force: false,
        corsProxy: '',
        onMessage: (m) => void said.push(m),
      }),
    );
  } catch (err) {
    const refusal = pushRefusal(err, said.join(''));
    throw new PushRejected(branch, refusal.reason, !refusal.final, err);
  }
  const status = result.refs[ref];
  if (!result.ok || (status && !status.ok)) {
    throw new PushRejected(branch, status?.error ?? result.error ?? 'unknown', false);
  }
  return sha;
}

/**
 * Creates a sample repo: one commit with `files` on `branch`, pushed over HTTP. With `server` + `name` the
 * bare repo is created first; with `url` it must already exist (and `branch` must not, or be an ancestor).
 */
export async function seedBareRepo(opts: {
  server?: GitHttpServer;
  name?: string;
  url?: string;
  files: Record<string, string>;
  message: string;
  branch?: string;
  author?: Author;
}): Promise<string> {
  const branch = opts.branch ?? 'main';
  let url = opts.url;
  if (opts.server) url = await opts.server.createBareRepo(opts.name ?? 'repo.git');
  if (!url) throw new Error('seedBareRepo needs server (+name) or url');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'farm-seed-'));
  try {
    await git.init({ fs, dir, defaultBranch: branch });
    for (const [file, content] of Object.entries(opts.files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), content);
    }
    const author = opts.author ?? { name: 'farm-seed', email: 'seed@agent-farm.local' };
    await commitAll({ dir, message: opts.message, author, branch, allowEmpty: true });
    return await pushBranch({ dir, url, branch });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The tip commit of a remote branch, with its message (to read who made it). */
export interface RemoteBranchCommit {
  sha: string;
  message: string;
}

/** A scratch repository for one network operation that needs a local object store; removed afterwards. */
async function withScratchRepo<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'farm-git-scratch-'));
  try {
    await git.init({ fs, dir });
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The tip of `branch` at `url` and its message, fetched alone (depth 1); undefined when there is no such branch. */
export async function readRemoteBranchCommit(url: string, branch: string): Promise<RemoteBranchCommit | undefined> {
  const sha = await remoteBranchSha(url, branch);
  if (!sha) return undefined;
  return withScratchRepo(async (dir) => {
    const net = remote(url);
    try {
      await git.addRemote({ fs, dir, remote: 'origin', url: net.url, force: true });
      await retryWhileUnreachable(() =>
        git.fetch({ fs, ...net, dir, remote: 'origin', ref: branch, singleBranch: true, depth: 1, tags: false }),
      );
    } catch (err) {
      if (err instanceof git.Errors.NotFoundError) return undefined; // deleted since it was listed
      throw new CloneFailed(`fetching ${branch} of ${redactUrl(url)} failed: ${errorMessage(err)}`, err);
    }
    const fetched = await git.resolveRef({ fs, dir, ref: `refs/remotes/origin/${branch}` }).catch(() => sha);
    const { commit } = await git.readCommit({ fs, dir, oid: fetched });
    return { sha: fetched, message: commit.message };
  });
}

/**
 * Deletes `branch` at `url` only while it still points at `expectedSha` (so a commit pushed meanwhile is not
 * lost); returns whether it was deleted. A branch already gone counts as deleted.
 */
export async function deleteRemoteBranch(url: string, branch: string, expectedSha: string): Promise<boolean> {
  const ref = `refs/heads/${branch}`;
  return withScratchRepo(async (dir) => {
    // isomorphic-git wants a local ref of the name even to delete the remote one.
    await git.writeRef({ fs, dir, ref, value: expectedSha, force: true });
    try {
      const result = await retryWhileRefused(() =>
        git.push({
          fs,
          ...remote(url),
          dir,
          ref: branch,
          remoteRef: ref,
          delete: true,
          // The remote's tip as this push sees it; the server checks the same old value when it applies the delete.
          onPrePush: ({ remoteRef }) => remoteRef.oid === expectedSha,
        }),
      );
      const status = result.refs[ref];
      if (!result.ok || (status && !status.ok)) {
        throw new PushRejected(branch, `delete refused: ${status?.error ?? result.error ?? 'unknown'}`, false);
      }
      return true;
    } catch (err) {
      if (err instanceof git.Errors.UserCanceledError) {
        return (await remoteBranchSha(url, branch)) === undefined; // moved on, or already gone
      }
      if (err instanceof PushRejected) throw err;
      throw new PushRejected(branch, `delete failed: ${errorMessage(err)}`, true, err);
    }
  });
}
