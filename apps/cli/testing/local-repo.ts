import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { MULTI_REPO_FILES } from './multi-task-repo';

const exec = promisify(execFile);

/** A user's repository: a work tree with `files` (default: the sample library) committed on `branch` (main). */
export async function makeLocalRepo(
  dir: string,
  branch = 'main',
  files: Record<string, string> = MULTI_REPO_FILES,
): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  const git = (...args: string[]) => exec('git', ['-C', dir, ...args]);
  await git('init', '-q', '-b', branch);
  await git('add', '-A');
  await git('-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-qm', 'initial');
}
