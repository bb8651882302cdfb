import { planInputs, snapshotFiles, type RepoFiles } from '@farm/sandbox';
import { withObjectReader, type GitObjectReader } from './git-object-reader';

/** A commit as the in-place build needs it: its tree, parents and committer time, and its tree's top-level names. */
export interface CommitAndTop {
  tree: string;
  parents: string[];
  /** The committer's timestamp (seconds since the epoch). */
  committedAt: number;
  topLevel: string[];
}

/** Where objects are read: an open reader, or a repository's git directory (a reader for this one call). */
export type ObjectSource = GitObjectReader | string;

const reading = <T>(source: ObjectSource, fn: (objects: GitObjectReader) => Promise<T>): Promise<T> =>
  typeof source === 'string' ? withObjectReader(source, fn) : fn(source);

/** `commit` and the names at the top of its tree, in one batch of `git cat-file`; undefined when it is not a commit. */
export function readCommitAndTop(source: ObjectSource, commit: string): Promise<CommitAndTop | undefined> {
  return reading(source, async (objects) => {
    const [object, treeObject] = await objects.read([`${commit}^{commit}`, `${commit}^{tree}`]);
    if (object?.type !== 'commit' || treeObject?.type !== 'tree') return undefined;
    const header = commitHeader(object.data);
    if (!header) return undefined;
    // A SHA-256 repository's object ids are 32 bytes in a tree object, 64 hex digits in a commit's.
    const idBytes = header.tree.length / 2;
    return { ...header, topLevel: treeNames(treeObject.data, idBytes) };
  });
}

/** A raw commit object's tree, parents and committer time; undefined when it has no tree or committer. */
function commitHeader(data: Buffer): Omit<CommitAndTop, 'topLevel'> | undefined {
  const text = data.toString('utf8');
  const end = text.indexOf('\n\n');
  const header = end < 0 ? text : text.slice(0, end);
  const field = (name: string) =>
    header
      .split('\n')
      .filter((line) => line.startsWith(`${name} `))
      .map((line) => line.slice(name.length + 1));
  const committer = /(\d+) [+-]\d{4}$/.exec(field('committer')[0] ?? '');
  const [tree] = field('tree');
  if (!tree || !committer) return undefined;
  return { tree, parents: field('parent'), committedAt: Number(committer[1]) };
}

/**
 * Whether `base` is among the ancestors of a commit whose parents are `parents`, looking at no more than
 * `limit` commits (a task's few commits above its base); undefined when it could not tell (`merge-base
 * --is-ancestor` can). Never false: `base` may be named otherwise than by its full id.
 */
export async function baseAmongAncestors(
  objects: GitObjectReader,
  base: string,
  parents: string[],
  limit = 16,
): Promise<true | undefined> {
  const seen = new Set<string>();
  let next = parents;
  while (next.length && seen.size + next.length <= limit) {
    if (next.includes(base)) return true;
    next.forEach((c) => seen.add(c));
    const commits = await objects.read(next.map((c) => `${c}^{commit}`));
    const above: string[] = [];
    for (const commit of commits) {
      const header = commit?.type === 'commit' ? commitHeader(commit.data) : undefined;
      if (!header) return undefined;
      above.push(...header.parents.filter((p) => !seen.has(p)));
    }
    next = [...new Set(above)];
  }
  return undefined;
}

/** The entry names of a raw tree object: `<mode> <name>\0<binary object id>` each. */
export function treeNames(tree: Buffer, idBytes = 20): string[] {
  const names: string[] = [];
  for (let at = 0; at < tree.length;) {
    const space = tree.indexOf(0x20, at);
    const nul = tree.indexOf(0, space);
    if (space < 0 || nul < 0) throw new Error('git tree object: malformed entry');
    names.push(tree.subarray(space + 1, nul).toString('utf8'));
    at = nul + 1 + idBytes;
  }
  return names;
}

/**
 * What the check planner reads of `tree` without a checkout: its top-level names (given) and the blobs of
 * the paths `planInputs` names (one batch of `git cat-file`).
 */
export function treeFiles(
  source: ObjectSource,
  tree: string,
  topLevel: string[],
  /** Every path of the tree (`git ls-tree -r`), for the planner's search for test files. */
  paths?: readonly string[],
): Promise<RepoFiles> {
  return reading(source, async (objects) => {
    // cat-file --batch reads one object name per line: a name with a newline cannot be asked (nor planned on).
    const asked = planInputs(topLevel).filter((p) => !p.includes('\n'));
    const blobs = await objects.read(asked.map((p) => `${tree}:${p}`));
    const files = new Map<string, string>();
    asked.forEach((p, i) => {
      const object = blobs[i];
      if (object?.type === 'blob') files.set(p, object.data.toString('utf8'));
    });
    return snapshotFiles(topLevel, asked, files, paths);
  });
}
