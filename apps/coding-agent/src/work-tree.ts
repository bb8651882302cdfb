import fs from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import type { ContextFile } from './prompt';

/** Tracked text files of the checkout, for the prompt; large and binary files are left out. */
export async function readContextFiles(dir: string, maxFileBytes = 64 * 1024): Promise<ContextFile[]> {
  const files: ContextFile[] = [];
  for (const file of await git.listFiles({ fs, dir })) {
    const buf = await fs.promises.readFile(path.join(dir, file)).catch(() => undefined);
    if (!buf || buf.length > maxFileBytes || buf.includes(0)) continue;
    files.push({ path: file, content: buf.toString('utf8') });
  }
  return files;
}

/** Puts the files a failed attempt touched back as they are at HEAD, so the next attempt starts clean. */
export async function revertFiles(dir: string, files: { path: string; change: string }[]): Promise<void> {
  const tracked = files.filter((f) => f.change !== 'added').map((f) => f.path);
  if (tracked.length) await git.checkout({ fs, dir, force: true, filepaths: tracked });
  for (const f of files.filter((f) => f.change === 'added')) await rm(path.join(dir, f.path), { force: true });
}
