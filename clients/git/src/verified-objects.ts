import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { lstat, unlink } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import { FarmError, errorMessage } from '@farm/runtime';

/**
 * A checkout's git data is not what it was: an object does not hash to its name, or `.git` is no longer the
 * directory it was. The repository's own commands (its checks) can write there; what they changed is never
 * trusted, so nothing is made from it. Retrying runs the same commands again: not retryable.
 */
export class GitDataTampered extends FarmError {
  constructor(
    readonly dir: string,
    readonly what: string,
  ) {
    super(`${what} in ${dir}: a command run in the checkout may have changed its .git; nothing was committed`, {
      retryable: false,
      details: { dir, what },
    });
  }
}

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

const sha1 = (type: string, content: Uint8Array) =>
  createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');

/**
 * Object `oid` of the repository at `dir`, checked to hash to its name and to be of `type`. isomorphic-git
 * checks loose objects only and returns packed ones unchecked, and a check run in the checkout can rewrite
 * either: GitDataTampered when it does not match (or cannot be read at all).
 */
export async function readVerifiedObject(dir: string, oid: string, type: ObjectType): Promise<Buffer> {
  let read: Awaited<ReturnType<typeof git.readObject>>;
  try {
    read = await git.readObject({ fs, dir, oid, format: 'wrapped' });
  } catch (err) {
    throw new GitDataTampered(dir, `${type} ${oid} cannot be read (${errorMessage(err)})`);
  }
  const bytes = Buffer.from(read.object as Uint8Array);
  let actualType: string;
  let content: Buffer;
  if (read.format === 'wrapped') {
    // Loose: `<type> <length>\0<content>`, as git hashes it.
    const nul = bytes.indexOf(0);
    const header = bytes.subarray(0, nul).toString('latin1');
    [actualType] = header.split(' ');
    content = bytes.subarray(nul + 1);
    if (nul < 0 || header !== `${actualType} ${content.length}`) {
      throw new GitDataTampered(dir, `${type} ${oid} has no valid object header`);
    }
  } else {
    actualType = read.type;
    content = bytes;
  }
  const actual = sha1(actualType, content);
  if (actual !== oid) throw new GitDataTampered(dir, `${type} ${oid} hashes to ${actual}`);
  if (actualType !== type) throw new GitDataTampered(dir, `${oid} is a ${actualType}, not a ${type}`);
  return content;
}

/**
 * Stores `content` as a loose object and returns its name. A loose file already there under that name is kept
 * only when it holds exactly this object: one a check planted is replaced (isomorphic-git would keep it).
 */
/**
 * Refuses to write below `.git/<relDir>` when a directory on the way there is a symlink (a check can plant one, and
 * a write through it would land outside the checkout); a directory not there yet is fine (it is made as one).
 */
export async function refuseLinkedGitDirs(dir: string, relDir: string): Promise<void> {
  let at = path.join(dir, '.git');
  for (const part of ['', ...relDir.split('/').filter(Boolean)]) {
    at = part ? path.join(at, part) : at;
    const stat = await lstat(at).catch(() => undefined);
    if (!stat) return;
    if (!stat.isDirectory())
      throw new GitDataTampered(dir, `${path.relative(dir, at)} is a ${stat.isSymbolicLink() ? 'symlink' : 'file'}`);
  }
}

export async function writeVerifiedObject(dir: string, type: ObjectType, content: Uint8Array): Promise<string> {
  const oid = sha1(type, content);
  await refuseLinkedGitDirs(dir, `objects/${oid.slice(0, 2)}`);
  const loose = path.join(dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
  const present = await lstat(loose).then(
    () => true,
    () => false,
  );
  if (present) {
    const intact = await readVerifiedObject(dir, oid, type).then(
      () => true,
      () => false,
    );
    if (intact) return oid;
    await unlink(loose); // the link itself when it is one, never what it points to
  }
  await git.writeObject({ fs, dir, type, object: content, format: 'content' });
  await readVerifiedObject(dir, oid, type);
  return oid;
}

/** One entry of a tree object; the name and mode keep their bytes as stored, so an unchanged entry is unchanged. */
export interface TreeEntry {
  mode: string;
  name: Buffer;
  oid: string;
}

export const TREE_MODE = '40000';
export const isTreeEntry = (e: TreeEntry) => e.mode === TREE_MODE;

/** The entries of a tree object's content (`<mode> <name>\0<20-byte id>` each). */
export function parseTree(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > content.length) throw new Error(`tree entry at byte ${at} is cut short`);
    entries.push({
      mode: content.subarray(at, space).toString('latin1'),
      name: Buffer.from(content.subarray(space + 1, nul)),
      oid: content.subarray(nul + 1, nul + 21).toString('hex'),
    });
    at = nul + 21;
  }
  return entries;
}

/** A tree object's content for `entries`, in git's order. */
export function encodeTree(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort(compareTreeEntries);
  return Buffer.concat(
    sorted.flatMap((e) => [Buffer.from(`${e.mode} `, 'latin1'), e.name, Buffer.from([0]), Buffer.from(e.oid, 'hex')]),
  );
}

/** git's order of tree entries: by name bytes, a subtree's name read as if it ended in '/'. */
export function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  const common = Math.min(a.name.length, b.name.length);
  const head = Buffer.compare(a.name.subarray(0, common), b.name.subarray(0, common));
  if (head) return head;
  const next = (e: TreeEntry) => (e.name.length > common ? e.name[common] : isTreeEntry(e) ? 0x2f : 0);
  return next(a) - next(b);
}

/** The tree `commit` records, the commit checked against its name. */
export async function verifiedTreeOf(dir: string, commit: string): Promise<string> {
  const header = (await readVerifiedObject(dir, commit, 'commit')).toString('latin1');
  const tree = /^tree ([0-9a-f]{40})\n/.exec(header)?.[1];
  if (!tree) throw new GitDataTampered(dir, `commit ${commit} names no tree`);
  return tree;
}

/** A file of a commit as git stores it: its mode (100644, 100755, 120000 for a symlink) and its bytes. */
export interface StoredFile {
  mode: string;
  content: Buffer;
}

/**
 * The file at `filepath` in `commit`, every object on the way checked against its name (GitDataTampered);
 * undefined when the commit has no file there (nothing, a directory or a submodule).
 */
export async function readVerifiedFile(dir: string, commit: string, filepath: string): Promise<StoredFile | undefined> {
  let tree = await verifiedTreeOf(dir, commit);
  const parts = filepath.split('/');
  for (const [i, part] of parts.entries()) {
    const name = Buffer.from(part, 'utf8');
    const entry = parseTree(await readVerifiedObject(dir, tree, 'tree')).find((e) => e.name.equals(name));
    if (!entry) return undefined;
    if (i < parts.length - 1) {
      if (!isTreeEntry(entry)) return undefined;
      tree = entry.oid;
    } else if (isTreeEntry(entry) || entry.mode === '160000') {
      return undefined;
    } else {
      return { mode: entry.mode, content: await readVerifiedObject(dir, entry.oid, 'blob') };
    }
  }
  return undefined;
}
