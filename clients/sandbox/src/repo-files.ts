import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the check planner reads of a repository: its top-level names, whether a path exists, a file's text, and
 * the files anywhere matching a pattern (test files where their authors put them).
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
  /**
   * Files anywhere in the tree whose path `match` accepts, at most `limit`, outside the directories no test
   * collector enters (`.git`, dot-directories, `node_modules`, virtualenvs, `build`, `dist`).
   */
  find(match: (rel: string) => boolean, limit: number): string[];
}

/** Directories test collectors do not enter (pytest's norecursedirs defaults, and dependency trees). */
const NOT_COLLECTED = /^(\..*|node_modules|venv|env|build|dist|site-packages|__pycache__|_darcs|CVS|\{arch\}|.*\.egg)$/;
/** How many entries a walk of a checkout reads at most: a huge tree is not walked to its end to plan checks. */
const WALK_LIMIT = 200_000;

/** Paths in a list (a tree's, `git ls-tree -r`) that `match` accepts, skipping what collectors skip. */
export function findIn(paths: readonly string[], match: (rel: string) => boolean, limit: number): string[] {
  const out: string[] = [];
  for (const rel of paths) {
    if (out.length >= limit) break;
    const dirs = rel.split('/').slice(0, -1);
    if (dirs.some((d) => NOT_COLLECTED.test(d))) continue;
    if (match(rel)) out.push(rel);
  }
  return out;
}

/** A checkout on disk. */
export function dirFiles(dir: string): RepoFiles {
  return {
    find: (match, limit) => {
      const out: string[] = [];
      const queue = [''];
      let seen = 0;
      // Breadth first: the files near the top (where a project's tests usually are) come first.
      while (queue.length && out.length < limit && seen < WALK_LIMIT) {
        const rel = queue.shift()!;
        let entries;
        try {
          entries = readdirSync(join(dir, rel), { withFileTypes: true });
        } catch {
          continue; // unreadable: nothing to collect there
        }
        for (const e of entries) {
          seen++;
          const path = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) {
            if (!NOT_COLLECTED.test(e.name)) queue.push(path);
          } else if (e.isFile() && match(path) && out.length < limit) out.push(path);
        }
      }
      return out;
    },
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
  /** Every path of the tree, when known (`git ls-tree -r`); without it `find` throws. */
  paths?: readonly string[],
): RepoFiles {
  const known = new Set(asked);
  const check = (rel: string) => {
    if (!known.has(rel)) throw new UnplannedRepoPath(rel);
  };
  return {
    find: (match, limit) => {
      if (!paths) throw new UnplannedRepoPath('(every path of the tree)');
      return findIn(paths, match, limit);
    },
    names: () => [...topLevel],
    exists: (rel) => (check(rel), files.has(rel) || (!rel.includes('/') && topLevel.includes(rel))),
    read: (rel) => (check(rel), files.get(rel)),
  };
}

export function repoFiles(repo: string | RepoFiles): RepoFiles {
  return typeof repo === 'string' ? dirFiles(repo) : repo;
}
