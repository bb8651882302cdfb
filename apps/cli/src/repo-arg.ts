import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ConfigError } from '@farm/runtime';
import type { ChangeRequestInput } from '@farm/farm-api';
import type { SubmitInput } from './submit';

/** An absolute path or a file:// URL: a repository on this machine rather than a git remote. */
export function localRepoPath(repo: string): string | undefined {
  if (repo.startsWith('file://')) return fileURLToPath(repo);
  return path.isAbsolute(repo) ? repo : undefined;
}

const run = promisify(execFile);

/**
 * `--repo` as the user gave it: a clone URL stays as it is; a directory (`.`, `../app`) becomes the absolute
 * path of its repository, and without `--base` the branch checked out there.
 */
export async function resolveRepoArg(repo: string, base?: string): Promise<{ repoUrl: string; baseRef: string }> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo) && !repo.startsWith('file://')) {
    return { repoUrl: repo, baseRef: base || 'main' };
  }
  const dir = path.resolve(repo.startsWith('file://') ? new URL(repo).pathname : repo);
  if (!existsSync(dir)) throw new ConfigError(`--repo ${repo}: not a clone URL and no such directory`);
  let top: string;
  try {
    top = (await run('git', ['-C', dir, 'rev-parse', '--show-toplevel'])).stdout.trim();
  } catch {
    try {
      top = (await run('git', ['-C', dir, 'rev-parse', '--absolute-git-dir'])).stdout.trim(); // a bare repository
    } catch {
      throw new ConfigError(`--repo ${repo}: ${dir} is not a git repository`);
    }
  }
  if (base) return { repoUrl: top, baseRef: base };
  const branch = (await run('git', ['-C', top, 'rev-parse', '--abbrev-ref', 'HEAD'])).stdout.trim();
  // Detached HEAD: the commit itself.
  const baseRef = branch === 'HEAD' ? (await run('git', ['-C', top, 'rev-parse', 'HEAD'])).stdout.trim() : branch;
  return { repoUrl: top, baseRef };
}

/** The proto3 JSON of a ChangeRequest, as the HTTP API takes it. */
export function changeRequestJson(input: SubmitInput): ChangeRequestInput {
  return {
    ...(input.id ? { changeRequestId: input.id } : {}),
    title: input.title,
    description: input.description ?? '',
    checkCommand: input.checkCommand ?? '',
    repo: { url: input.repoUrl, baseRef: input.baseRef || 'main' },
    requestedBy: input.requestedBy ?? process.env.USER ?? '',
    ...(input.requireApproval ? { requireApproval: true } : {}),
  };
}
