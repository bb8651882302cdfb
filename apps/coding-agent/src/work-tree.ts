import fs from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';

/** Puts the files a failed attempt touched back as they are at HEAD, so the next attempt starts clean. */
export async function revertFiles(dir: string, files: { path: string; change: string }[]): Promise<void> {
  const tracked = files.filter((f) => f.change !== 'added').map((f) => f.path);
  if (tracked.length) await git.checkout({ fs, dir, force: true, filepaths: tracked });
  for (const f of files.filter((f) => f.change === 'added')) await rm(path.join(dir, f.path), { force: true });
}
