/**
 * A real Gitea for the forge adapter's tests: built once from the Go module proxy (SQLite build; see
 * /work/shared/FORGE.md for why this version and these flags), cached outside the clone, run on loopback in
 * a temp dir with an admin and a token.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from '@farm/runtime';
import { buildLock } from './kube-control-plane';
import { run } from './proc';

export const GITEA_VERSION = '1.26.0';
const MODULE = `code.gitea.io/gitea@v${GITEA_VERSION}`;
// Without CGO there is no SQLite (`migrate` refuses); SQLite starts in ~2 s where PostgreSQL takes ~26 s.
const TAGS = 'sqlite sqlite_unlock_notify';
const LDFLAGS = `-s -w -X main.Version=${GITEA_VERSION}`;
const COLD_BUILD_NOTE = 'a cold build takes ~11 CPU-minutes and 1.4 GiB; later runs use the cache';

export class GiteaError extends Error {
  override name = 'GiteaError';
}

export interface GiteaBuild {
  bin: string;
  /** STATIC_ROOT_PATH: holds the module's `templates/` and `options/` (no frontend build is needed for the API). */
  staticRoot: string;
}

/** Where the build is kept between runs and clones: one directory per version, tags and link flags. */
export function giteaCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const hash = createHash('sha256').update(`${GITEA_VERSION}\n${TAGS}\n${LDFLAGS}`).digest('hex').slice(0, 12);
  return join(base, 'agent-farm', `gitea-${GITEA_VERSION}-${hash}`);
}

/** Builds Gitea once (one builder at a time; a staging dir + rename keeps a half-built one from being used). */
export async function ensureGitea(log: Logger): Promise<GiteaBuild> {
  const dir = giteaCacheDir();
  const build = { bin: join(dir, 'gitea'), staticRoot: dir };
  const complete = () =>
    existsSync(build.bin) && existsSync(join(dir, 'options')) && existsSync(join(dir, 'templates'));
  if (complete()) return build;
  await requireToolchain();
  mkdirSync(resolve(dir, '..'), { recursive: true });
  const release = await buildLock(`${dir}.lock`, log);
  try {
    if (!complete()) await buildInto(dir, complete, log);
    return build;
  } finally {
    release();
  }
}

/** The build environment: no checksum database (unreachable; go.sum still checks), no fallback to origin hosts. */
async function goEnv(): Promise<NodeJS.ProcessEnv> {
  const proxy = (process.env.GOPROXY ?? (await run('go', ['env', 'GOPROXY'])).trim())
    .split(/[,|]/)
    .filter((p) => p && p !== 'direct')
    .join(',');
  return {
    ...process.env,
    GOPROXY: proxy || 'https://proxy.golang.org',
    GOSUMDB: 'off',
    GOFLAGS: '-buildvcs=false',
    CGO_ENABLED: '1',
  };
}

async function requireToolchain(): Promise<void> {
  for (const [cmd, arg, what] of [
    ['go', 'version', 'Go 1.26 (https://go.dev/dl)'],
    ['gcc', '--version', 'a C compiler (gcc; Debian: apt-get install gcc) for the SQLite build'],
  ] as const) {
    try {
      await run(cmd, [arg]);
    } catch (err) {
      throw new GiteaError(`building Gitea ${GITEA_VERSION} needs ${what}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
}

async function buildInto(dir: string, complete: () => boolean, log: Logger): Promise<void> {
  const staging = mkdtempSync(`${dir}.build-`);
  const started = Date.now();
  log.info(`building Gitea ${GITEA_VERSION} with go (${COLD_BUILD_NOTE})`, { cacheDir: dir });
  try {
    const env = await goEnv();
    const { Dir: moduleDir } = JSON.parse(
      await run('go', ['mod', 'download', '-json', MODULE], { env, cwd: staging }),
    ) as {
      Dir?: string;
    };
    if (!moduleDir) throw new GiteaError(`go mod download ${MODULE} named no directory`);
    // `go install` refuses the module (its go.mod has replace lines): build inside a writable copy of it.
    const src = join(staging, 'src');
    await run('cp', ['-R', moduleDir, src]);
    await run('chmod', ['-R', 'u+w', src]);
    await run('go', ['build', '-tags', TAGS, '-ldflags', LDFLAGS, '-o', join(staging, 'gitea'), '.'], {
      env,
      cwd: src,
    });
    for (const d of ['templates', 'options']) renameSync(join(src, d), join(staging, d));
    rmSync(src, { recursive: true, force: true });
    if (complete()) rmSync(staging, { recursive: true, force: true });
    else renameSync(staging, dir);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    if (complete()) return; // a concurrent builder won
    throw new GiteaError(`building Gitea ${GITEA_VERSION} failed: ${(err as Error).message}`);
  }
  log.info(`Gitea ${GITEA_VERSION} built`, { cacheDir: dir, ms: Date.now() - started });
}
