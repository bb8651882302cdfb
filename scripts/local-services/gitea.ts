/**
 * A real Gitea for the forge adapter's tests: built once from the Go module proxy (SQLite build; see
 * /work/shared/FORGE.md for why this version and these flags), cached outside the clone, run on loopback in
 * a temp dir with an admin and a token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger, type Logger } from '@farm/runtime';
import { buildLock } from './kube-control-plane';
import { freePort, ownedTempDir, run, sleep, spawnGuarded, tail, type Guarded } from './proc';

export const GITEA_VERSION = '1.26.0';
const MODULE = `code.gitea.io/gitea@v${GITEA_VERSION}`;
// Without CGO there is no SQLite (`migrate` refuses); SQLite starts in ~2 s where PostgreSQL takes ~26 s.
const TAGS = 'sqlite sqlite_unlock_notify';
const LDFLAGS = `-s -w -X main.Version=${GITEA_VERSION}`;
const COLD_BUILD_NOTE = 'a cold build takes ~11 CPU-minutes and 1.4 GiB; later runs use the cache';
const READY_TIMEOUT_MS = 60_000;

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

export interface LocalGitea {
  /** The web origin, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  /** `${url}/api/v1`. */
  apiUrl: string;
  adminUser: string;
  adminPassword: string;
  /** The admin's access token (scopes: all). */
  token: string;
  /** Another (non-admin) user with a token of these scopes (default all), e.g. a reviewer or the farm's bot. */
  createUser(name: string, opts?: { scopes?: string[] }): Promise<{ token: string; password: string }>;
  stop(): Promise<void>;
}

/** Starts a throwaway Gitea (SQLite, offline, webhooks allowed to loopback) with an admin and its token. */
export async function startGitea(
  opts: { log?: Logger; /** A free one when unset. */ port?: number } = {},
): Promise<LocalGitea> {
  const log = opts.log ?? createLogger('local-services', { fields: { service: 'gitea' } });
  const { bin, staticRoot } = await ensureGitea(log);
  const dir = ownedTempDir('farm-gitea-');
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const apiUrl = `${url}/api/v1`;
  const config = join(dir, 'app.ini');
  const logFile = join(dir, 'gitea.log');
  writeFileSync(config, appIni({ dir, port, staticRoot }), { mode: 0o600 });
  const cli = (args: string[]) =>
    run(bin, ['--config', config, '--work-path', dir, ...args], { cwd: dir, env: giteaEnv(dir) });

  let proc: Guarded | undefined;
  const stop = async () => {
    await proc?.stop(5000);
    proc = undefined;
    rmSync(dir, { recursive: true, force: true });
  };
  const adminUser = 'farm-admin';
  const adminPassword = randomBytes(12).toString('hex');
  let token: string;
  try {
    await cli(['migrate']);
    await cli([
      'admin',
      'user',
      'create',
      '--admin',
      '--username',
      adminUser,
      '--password',
      adminPassword,
      '--email',
      `${adminUser}@example.com`,
      '--must-change-password=false',
    ]);
    // As root a warning line comes first: the token is the last line.
    const out = await cli([
      'admin',
      'user',
      'generate-access-token',
      '--username',
      adminUser,
      '--token-name',
      'farm',
      '--scopes',
      'all',
      '--raw',
    ]);
    token = out.trim().split('\n').pop()!.trim();
    proc = spawnGuarded(bin, ['--config', config, '--work-path', dir, 'web', '--port', String(port)], {
      logFile,
      cwd: dir,
      env: giteaEnv(dir),
    });
    log.debug('gitea starting', { url, pid: proc.child.pid, logFile });
    await waitHealthy(url, proc);
  } catch (err) {
    const logTail = tail(logFile);
    await stop();
    throw new GiteaError(`starting Gitea failed: ${(err as Error).message}\n--- tail of gitea.log ---\n${logTail}`);
  }

  const api = async <T>(path: string, init: { method: string; body: unknown; auth: string }): Promise<T> => {
    const res = await fetch(apiUrl + path, {
      method: init.method,
      headers: { 'content-type': 'application/json', authorization: init.auth },
      body: JSON.stringify(init.body),
    });
    const text = await res.text();
    if (!res.ok) throw new GiteaError(`${init.method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  const createUser = async (name: string, userOpts: { scopes?: string[] } = {}) => {
    const password = randomBytes(12).toString('hex');
    await api('/admin/users', {
      method: 'POST',
      auth: `token ${token}`,
      body: { username: name, email: `${name}@example.com`, password, must_change_password: false },
    });
    const created = await api<{ sha1: string }>(`/users/${encodeURIComponent(name)}/tokens`, {
      method: 'POST',
      auth: `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`,
      body: { name: 'farm', scopes: userOpts.scopes ?? ['all'] },
    });
    return { token: created.sha1, password };
  };
  return { url, apiUrl, adminUser, adminPassword, token, createUser, stop };
}

/** Git (run by Gitea) gets its own HOME: the user's git config must not leak into the server's repositories. */
function giteaEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: join(dir, 'home'), GITEA_WORK_DIR: dir, GIT_CONFIG_NOSYSTEM: '1' };
}

function appIni(o: { dir: string; port: number; staticRoot: string }): string {
  const secret = () => randomBytes(32).toString('hex');
  const runAsRoot = process.getuid?.() === 0;
  return `APP_NAME = agent-farm test forge
RUN_MODE = prod
RUN_USER = ${userName()}
WORK_PATH = ${o.dir}
${runAsRoot ? 'I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = true\n' : ''}
[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = ${o.port}
DOMAIN = 127.0.0.1
ROOT_URL = http://127.0.0.1:${o.port}/
DISABLE_SSH = true
START_SSH_SERVER = false
OFFLINE_MODE = true
LFS_START_SERVER = false
STATIC_ROOT_PATH = ${o.staticRoot}
APP_DATA_PATH = ${join(o.dir, 'data')}

[database]
DB_TYPE = sqlite3
PATH = ${join(o.dir, 'data', 'gitea.db')}
SQLITE_JOURNAL_MODE = WAL

[repository]
ROOT = ${join(o.dir, 'repositories')}
DEFAULT_BRANCH = main

[security]
INSTALL_LOCK = true
SECRET_KEY = ${secret()}
INTERNAL_TOKEN = ${secret()}

[oauth2]
ENABLED = false

[service]
DISABLE_REGISTRATION = true
ENABLE_NOTIFY_MAIL = false

; Deliveries to the test's own server on 127.0.0.1; a short timeout so a stopped receiver does not hold a queue.
[webhook]
ALLOWED_HOST_LIST = loopback
DELIVER_TIMEOUT = 3

[actions]
ENABLED = false

[packages]
ENABLED = false

[queue]
TYPE = channel

[cache]
ADAPTER = memory

[session]
PROVIDER = memory

[mailer]
ENABLED = false

[cron]
ENABLED = false

[indexer]
ISSUE_INDEXER_TYPE = db
REPO_INDEXER_ENABLED = false

[log]
MODE = console
LEVEL = Info
ROOT_PATH = ${join(o.dir, 'log')}
`;
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'root';
  }
}

async function waitHealthy(url: string, proc: Guarded): Promise<void> {
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new GiteaError(`gitea web exited with code ${exitCode} before being ready`);
    try {
      const res = await fetch(`${url}/api/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(200);
  }
  throw new GiteaError(`gitea web not healthy after ${READY_TIMEOUT_MS / 1000}s: ${last}`);
}
