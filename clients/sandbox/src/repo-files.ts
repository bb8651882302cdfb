import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the check planner reads of a repository: its top-level names, whether a path exists and a file's text.
 * A checkout answers from disk; a tree that is not checked out (the build's shortcut) from a snapshot of the
 * few paths the planner names (`planInputs`).
 */
export interface RepoFiles {
  /** The names at the repository's top level. */
  names(): string[];
  /** Whether `rel` (a `/`-separated path from the root) exists, as a file or a directory. */
  exists(rel: string): boolean;
  /** The text of the file at `rel`, or undefined when there is none. */
  read(rel: string): string | undefined;
}

/** A checkout on disk. */
export function dirFiles(dir: string): RepoFiles {
  return {
    names: () => readdirSync(dir),
    exists: (rel) => existsSync(join(dir, rel)),
    read: (rel) => {
      const file = join(dir, rel);
      return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined;
    },
  };
}

/** A path the planner asked for that the snapshot was not given: the planner and `planInputs` disagree. */
export class UnplannedRepoPath extends Error {
  constructor(readonly path: string) {
    super(`the check planner read ${path}, which planInputs does not name`);
  }
}

/**
 * The files of a tree that is not checked out: its top-level names, and the text of each path it was asked
 * for that exists (`files`; directories among `topLevel` exist too). A path outside `asked` throws.
 */
export function snapshotFiles(
  topLevel: readonly string[],
  asked: readonly string[],
  files: ReadonlyMap<string, string>,
): RepoFiles {
  const known = new Set(asked);
  const check = (rel: string) => {
    if (!known.has(rel)) throw new UnplannedRepoPath(rel);
  };
  return {
    names: () => [...topLevel],
    exists: (rel) => (check(rel), files.has(rel) || (!rel.includes('/') && topLevel.includes(rel))),
    read: (rel) => (check(rel), files.get(rel)),
  };
}

export function repoFiles(repo: string | RepoFiles): RepoFiles {
  return typeof repo === 'string' ? dirFiles(repo) : repo;
}
