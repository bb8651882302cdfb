import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';

/**
 * What a checkout's git data says besides its objects: where HEAD points, every ref, and fingerprints of the
 * config and the hooks. Read before and after the repository's commands ran, it tells what they changed there.
 */
export interface RepoState {
  /** The commit HEAD resolves to; undefined when it resolves to none. */
  head?: string;
  /** Full ref name → what it resolves to ('' when it resolves to nothing). */
  refs: Map<string, string>;
  /** A hash of .git/config ('' when there is none). */
  config: string;
  /** Hook file name → a hash of its content (of its target for a symlink). */
  hooks: Map<string, string>;
}

const digest = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The state of the checkout at `dir`; what cannot be read counts as absent (it is only ever compared). */
export async function readRepoState(dir: string): Promise<RepoState> {
  const gitdir = path.join(dir, '.git');
  const head = await git.resolveRef({ fs, dir, ref: 'HEAD' }).catch(() => undefined);
  const names = await git.listRefs({ fs, dir, filepath: 'refs' }).catch(() => [] as string[]);
  const refs = new Map<string, string>();
  for (const name of names.map((n) => `refs/${n}`).sort()) {
    refs.set(name, await git.resolveRef({ fs, dir, ref: name }).catch(() => ''));
  }
  const config = await readFile(path.join(gitdir, 'config')).then(digest, () => '');
  const hooks = new Map<string, string>();
  const hookDir = path.join(gitdir, 'hooks');
  for (const name of (await readdir(hookDir).catch(() => [] as string[])).sort()) {
    const file = path.join(hookDir, name);
    const stat = await lstat(file).catch(() => undefined);
    if (stat?.isSymbolicLink()) hooks.set(name, digest(`symlink:${await readlink(file).catch(() => '')}`));
    else if (stat?.isFile()) hooks.set(name, await readFile(file).then(digest, () => ''));
  }
  return { head, refs, config, hooks };
}

/** The commits reachable from `tip` down to `base` (not counting it), at most `limit`; `reachesBase` says if it got there. */
export async function commitsSince(
  dir: string,
  base: string,
  tip: string,
  limit = 1000,
): Promise<{ count: number; reachesBase: boolean }> {
  const seen = new Set<string>();
  const queue = [tip];
  let reachesBase = false;
  while (queue.length && seen.size < limit) {
    const oid = queue.shift()!;
    if (oid === base) {
      reachesBase = true;
      continue;
    }
    if (seen.has(oid)) continue;
    seen.add(oid);
    const commit = await git.readCommit({ fs, dir, oid }).catch(() => undefined);
    queue.push(...(commit?.commit.parent ?? []));
  }
  return { count: seen.size, reachesBase };
}
