import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export interface TreeEntry {
  /** Repository-relative, forward slashes. */
  path: string;
  symlink: boolean;
}

/** Directories never worth showing to the model, whether or not the repository ignores them. */
const ALWAYS_SKIPPED = new Set([
  '.git',
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.pytest_cache',
  '.mypy_cache',
]);

/**
 * Files under `dir` (repository-relative), honouring the .gitignore files on the way (root and nested),
 * sorted, at most `limit` of them. Symlinks are listed, never followed.
 */
export async function listTreeFiles(
  root: string,
  opts: { dir?: string; limit: number },
): Promise<{ entries: TreeEntry[]; truncated: boolean }> {
  const entries: TreeEntry[] = [];
  let truncated = false;
  const rules: { base: string; ig: Ignore }[] = [];
  const ignored = (rel: string, isDir: boolean) =>
    rules.some(({ base, ig }) => {
      if (base && !rel.startsWith(base + '/')) return false;
      const sub = base ? rel.slice(base.length + 1) : rel;
      return ig.ignores(isDir ? sub + '/' : sub);
    });
  // Rules of the directories above the starting one apply too.
  const start = opts.dir ?? '';
  const parents = start ? start.split('/').map((_, i, a) => a.slice(0, i).join('/')) : [];
  for (const base of parents) await loadRules(root, base, rules);

  async function walk(rel: string): Promise<void> {
    await loadRules(root, rel, rules);
    const children = (await readdir(path.join(root, rel), { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    );
    for (const child of children) {
      if (truncated) return;
      const childRel = rel ? `${rel}/${child.name}` : child.name;
      if (child.isDirectory()) {
        if (ALWAYS_SKIPPED.has(child.name) || ignored(childRel, true)) continue;
        await walk(childRel);
      } else if (child.isFile() || child.isSymbolicLink()) {
        if (ignored(childRel, false)) continue;
        if (entries.length >= opts.limit) {
          truncated = true;
          return;
        }
        entries.push({ path: childRel, symlink: child.isSymbolicLink() });
      }
    }
  }
  await walk(start);
  return { entries, truncated };
}

async function loadRules(root: string, base: string, rules: { base: string; ig: Ignore }[]): Promise<void> {
  const text = await readFile(path.join(root, base, '.gitignore'), 'utf8').catch(() => undefined);
  if (text !== undefined) rules.push({ base, ig: ignore().add(text) });
}
