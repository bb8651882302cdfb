import fs from 'node:fs';
import { lstat, readFile, readlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import { FarmError } from '@farm/runtime';
import { NothingToCommit, type Author } from './repo-ops';
import {
  encodeTree,
  GitDataTampered,
  isTreeEntry,
  parseTree,
  readVerifiedObject,
  refuseLinkedGitDirs,
  TREE_MODE,
  verifiedTreeOf,
  writeVerifiedObject,
  type TreeEntry,
} from './verified-objects';

/** A path of the change cannot be a file of the commit (it leaves the tree, or is neither a file nor a link). */
export class PathNotCommittable extends FarmError {
  constructor(
    readonly filepath: string,
    reason: string,
  ) {
    super(`cannot commit ${filepath}: ${reason}`, { retryable: false, details: { filepath, reason } });
  }
}

/** What a path of the change is in the work tree: a file or link (mode and bytes as git stores them), or gone. */
type WorkTreeFile = { mode: string; content: Buffer } | undefined;

/**
 * The task's commit, made from what was verified rather than from what the checkout says now: its tree is the
 * `base` commit's tree with only `paths` replaced by the work tree's files (added, modified, or deleted when the
 * work tree has none), its one parent is `base`, and `refs/heads/<branch>` points at it (forced). HEAD, the
 * index, other refs and the config are neither read nor changed, so whatever the repository's commands did to
 * them is not in it; the base commit and the trees on the rewritten paths are checked against their names
 * (GitDataTampered otherwise). NothingToCommit when the tree comes out as the base's.
 */
export async function commitOnBase(opts: {
  dir: string;
  base: string;
  paths: string[];
  branch: string;
  message: string;
  author: Author;
}): Promise<{ commit: string; tree: string }> {
  const { dir, base } = opts;
  // isomorphic-git follows a `.git` file elsewhere; the objects checked here must be those the push sends.
  const dotGit = await lstat(path.join(dir, '.git')).catch(() => undefined);
  if (!dotGit?.isDirectory()) throw new GitDataTampered(dir, '.git is no longer a directory');

  const baseTree = await verifiedTreeOf(dir, base);
  const changes: Change[] = [];
  for (const filepath of new Set(opts.paths)) changes.push([filepath.split('/'), await workTreeFile(dir, filepath)]);
  // No tree left: every file was deleted.
  const tree = (await rewriteTree(dir, baseTree, changes)) ?? (await writeVerifiedObject(dir, 'tree', Buffer.alloc(0)));
  if (tree === baseTree) throw new NothingToCommit(dir);

  const when = { ...opts.author, timestamp: Math.floor(Date.now() / 1000) };
  const commit = await writeVerifiedObject(
    dir,
    'commit',
    commitContent({ tree, parent: base, who: when, message: opts.message }),
  );
  // The ref is written where nothing the checks planted leads elsewhere: no linked directory, no linked file.
  const ref = `refs/heads/${opts.branch}`;
  await refuseLinkedGitDirs(dir, path.posix.dirname(ref));
  await unlink(path.join(dir, '.git', ref)).catch(() => undefined); // the file, or the link itself
  await git.writeRef({ fs, dir, ref, value: commit, force: true });
  return { commit, tree };
}

/** A change to one tree: path components (relative to it) and the file there, undefined to remove it. */
type Change = [components: string[], file: WorkTreeFile];

/**
 * `tree` (undefined: none yet) with `changes` applied; undefined when nothing is left in it. Only the trees on
 * changed paths are read (checked); every other entry keeps its id, which the remote already holds.
 */
async function rewriteTree(dir: string, tree: string | undefined, changes: Change[]): Promise<string | undefined> {
  const entries = new Map<string, TreeEntry>();
  if (tree) {
    for (const e of parseTree(await readVerifiedObject(dir, tree, 'tree'))) entries.set(e.name.toString('latin1'), e);
  }
  const byName = new Map<string, { own?: Change; nested: Change[] }>();
  for (const change of changes) {
    const [first, ...rest] = change[0];
    const key = Buffer.from(first, 'utf8').toString('latin1');
    const group = byName.get(key) ?? { nested: [] };
    if (rest.length) group.nested.push([rest, change[1]]);
    else group.own = change;
    byName.set(key, group);
  }
  for (const [key, { own, nested }] of byName) {
    const name = Buffer.from(key, 'latin1');
    const file = own?.[1];
    if (file) {
      // A file here means nothing can be below it: the nested changes are removals.
      entries.set(key, { mode: file.mode, name, oid: await writeVerifiedObject(dir, 'blob', file.content) });
      continue;
    }
    let entry = entries.get(key);
    // The file that was here is gone; a directory here holds other paths, which stay as they were.
    if (own && entry && !isTreeEntry(entry)) entry = undefined;
    if (nested.length) {
      const below = await rewriteTree(dir, entry && isTreeEntry(entry) ? entry.oid : undefined, nested);
      if (below) entry = { mode: TREE_MODE, name, oid: below };
      else if (entry && isTreeEntry(entry)) entry = undefined;
    }
    if (entry) entries.set(key, entry);
    else entries.delete(key);
  }
  if (!entries.size) return undefined;
  return writeVerifiedObject(dir, 'tree', encodeTree([...entries.values()]));
}

/**
 * The file at `filepath` in the work tree, as git would store it: a symlink as its target (mode 120000), a
 * regular file with the owner's executable bit as 100755, else 100644; undefined when there is none (a
 * directory is not a file). A path through a symlinked directory or into .git is refused.
 */
async function workTreeFile(dir: string, filepath: string): Promise<WorkTreeFile> {
  const parts = filepath.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git')) {
    throw new PathNotCommittable(filepath, 'not a path inside the work tree');
  }
  for (let i = 1; i < parts.length; i++) {
    const parent = await lstat(path.join(dir, ...parts.slice(0, i))).catch(() => undefined);
    if (!parent) return undefined;
    if (parent.isSymbolicLink()) throw new PathNotCommittable(filepath, `${parts.slice(0, i).join('/')} is a symlink`);
    if (!parent.isDirectory()) return undefined;
  }
  const abs = path.join(dir, filepath);
  const stat = await lstat(abs).catch(() => undefined);
  if (!stat || stat.isDirectory()) return undefined;
  if (stat.isSymbolicLink()) return { mode: '120000', content: await readlink(abs, { encoding: 'buffer' }) };
  if (!stat.isFile()) throw new PathNotCommittable(filepath, 'neither a file nor a symlink');
  return { mode: stat.mode & 0o100 ? '100755' : '100644', content: await readFile(abs) };
}

/** A commit object's content as git writes it (one parent; author and committer the same, in UTC). */
function commitContent(c: {
  tree: string;
  parent: string;
  who: Author & { timestamp: number };
  message: string;
}): Buffer {
  const ident = `${c.who.name.replace(/[<>\n]/g, '')} <${c.who.email.replace(/[<>\n]/g, '')}> ${c.who.timestamp} +0000`;
  const message = c.message.endsWith('\n') ? c.message : `${c.message}\n`;
  return Buffer.from(`tree ${c.tree}\nparent ${c.parent}\nauthor ${ident}\ncommitter ${ident}\n\n${message}`, 'utf8');
}
