import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { farm } from '@farm/proto';

const exec = promisify(execFile);
let made = 0;

/**
 * A bare repository under `dir` with `base` committed on main and a task's commit of `change` on agt/<task>,
 * and the build request of that one-task request, as the orchestrator sends it. The repository has no checks,
 * so nothing is left to run: it is built in place. `url` is the repository as the request names it (default:
 * the bare repository's path).
 */
export async function oneTaskBuild(
  dir: string,
  base: Record<string, string>,
  change: Record<string, string>,
  url?: string,
): Promise<{ gitDir: string; request: farm.v1.IBuildRequest; baseCommit: string }> {
  const id = `${process.pid}-${++made}`;
  const gitDir = path.join(dir, `r${id}.git`);
  const work = path.join(dir, `work-${id}`);
  await exec('git', ['init', '-q', '--bare', '-b', 'main', gitDir]);
  await exec('git', ['init', '-q', '-b', 'main', work]);
  const git = async (...args: string[]) =>
    (await exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: work })).stdout.trim();
  const commit = async (files: Record<string, string>, message: string) => {
    for (const [file, text] of Object.entries(files)) await writeFile(path.join(work, file), text);
    await git('add', '-A');
    await git('commit', '-qm', message);
    return git('rev-parse', 'HEAD');
  };
  const baseCommit = await commit(base, 'base');
  await git('checkout', '-q', '-b', `agt/t${id}`);
  const taskCommit = await commit(change, 'the task');
  await git('push', '-q', gitDir, 'main', `agt/t${id}`);
  const request: farm.v1.IBuildRequest = {
    changeRequestId: `cr-${id}`,
    repo: { url: url ?? gitDir, baseRef: 'main', baseCommit },
    branches: [`agt/t${id}`],
    commits: [taskCommit],
    taskIds: [`t${id}`],
    verifications: [{ treeSha: await git('rev-parse', 'HEAD^{tree}') }],
  };
  return { gitDir, request, baseCommit };
}
