import { lstat, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readVerifiedFile } from '@farm/git';
import { FarmError } from '@farm/runtime';

/** A directory on the way to a file is a symlink (the repository's commands can make one): nothing is written through it. */
export class SymlinkOnPath extends FarmError {
  constructor(
    readonly filepath: string,
    readonly link: string,
  ) {
    super(`${filepath} is not restored: ${link} is a symlink`, { retryable: false, details: { filepath, link } });
  }
}

/**
 * Puts `filepath` under `root` back as the `base` commit of the checkout `repoDir` has it (mode and symlinks
 * too), or removes it when the base has none. Read from the base, never HEAD, which a check may have moved.
 */
export async function restoreFromBase(repoDir: string, base: string, root: string, filepath: string): Promise<void> {
  const stored = await readVerifiedFile(repoDir, base, filepath);
  const parts = filepath.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    if ((await lstat(path.join(root, dir)).catch(() => undefined))?.isSymbolicLink()) {
      throw new SymlinkOnPath(filepath, dir);
    }
  }
  const target = path.join(root, filepath);
  await rm(target, { recursive: true, force: true }); // a symlink there is removed, not written through
  if (!stored) return;
  await mkdir(path.dirname(target), { recursive: true });
  if (stored.mode === '120000') await symlink(stored.content, target);
  else await writeFile(target, stored.content, { mode: stored.mode === '100755' ? 0o755 : 0o644 });
}

/** Puts the files a failed attempt touched back as the base commit has them, so the next attempt starts clean. */
export async function revertFiles(dir: string, base: string, files: { path: string }[]): Promise<void> {
  for (const f of files) await restoreFromBase(dir, base, dir, f.path);
}
