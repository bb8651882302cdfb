/**
 * podman as the farm's scripts run it: its own configuration and storage, so that it works on a machine like
 * CI's (root without CAP_SYS_RESOURCE, no systemd, cgroup v1 hybrid: see ARCHITECTURE.md "The image") and keeps
 * its layers outside any clone (~/.cache/agent-farm/podman), where the next clone's build finds them.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export class ImageBuildError extends Error {
  override name = 'ImageBuildError';
}

/** The tools the image's build and tests run, and the Debian packages that bring them (scripts/test.sh installs them). */
export const PODMAN_PACKAGES = 'podman buildah uidmap debootstrap fuse-overlayfs slirp4netns';

export function podmanCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'agent-farm', 'podman');
}

/** Hard limits of this process (`unlimited` as Infinity): a container may not be given more. */
export function hardLimits(procLimits: string): { nofile: number; nproc: number } {
  const hard = (name: string) => {
    const m = procLimits.match(new RegExp(`^${name}\\s+\\S+\\s+(\\S+)`, 'm'));
    return !m || m[1] === 'unlimited' ? Infinity : Number(m[1]);
  };
  return { nofile: hard('Max open files'), nproc: hard('Max processes') };
}

/**
 * podman's defaults fail here twice: it asks for nofile 1048576 (root without CAP_SYS_RESOURCE may not go above
 * the host's hard limit), and crun refuses cgroup v1 hybrid. runc with cgroupfs (no systemd) and limits within
 * the host's do; nproc above 32768 fails under runc even where the host allows more.
 */
export function containersConf(limits: { nofile: number; nproc: number }, dir: string): string {
  const nofile = Math.min(limits.nofile, 1_048_576);
  const nproc = Math.min(limits.nproc, 32_768);
  return [
    '# Written by scripts/image/podman.ts.',
    '[containers]',
    `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
    '[engine]',
    'runtime = "runc"',
    'cgroup_manager = "cgroupfs"',
    // No journald without systemd.
    'events_logger = "file"',
    `events_logfile_path = "${join(dir, 'events.log')}"`,
    `tmp_dir = "${join(runRoot(dir), 'libpod')}"`,
    '[network]',
    // Not /etc/containers/networks: nothing of podman's outside its directory (its containers have no network).
    `network_config_dir = "${join(dir, 'networks')}"`,
    '',
  ].join('\n');
}

/** State that must not outlive a boot (locks, mounts), apart from any other podman's and storage's. */
function runRoot(dir: string): string {
  return join('/run/agent-farm-podman', createHash('sha256').update(dir).digest('hex').slice(0, 12));
}

export function storageConf(dir: string): string {
  return [
    '# Written by scripts/image/podman.ts.',
    '[storage]',
    'driver = "overlay"',
    `graphroot = "${join(dir, 'storage')}"`,
    `runroot = "${join(runRoot(dir), 'storage')}"`,
    '',
  ].join('\n');
}

export interface Podman {
  /** Its configuration, storage and lock (podmanCacheDir(), or a benchmark's throwaway one). */
  dir: string;
  /** CONTAINERS_CONF and CONTAINERS_STORAGE_CONF: `podman` run with these sees the farm's images. */
  env: { CONTAINERS_CONF: string; CONTAINERS_STORAGE_CONF: string };
  /** Runs podman to completion: resolves with its stdout; all its output is appended to logFile when given. */
  run(args: string[], opts?: { logFile?: string; stdin?: NodeJS.ReadableStream }): Promise<string>;
}

/** Writes the farm's podman configuration (when it changed) and returns a podman that uses it. */
export function farmPodman(dir: string = podmanCacheDir()): Podman {
  if (process.getuid?.() !== 0)
    throw new ImageBuildError(
      'building and running the image needs root (debootstrap of the base, podman storage outside any clone): ' +
        'run the test command as root',
    );
  mkdirSync(dir, { recursive: true });
  const env = {
    CONTAINERS_CONF: writeIfChanged(
      join(dir, 'containers.conf'),
      containersConf(hardLimits(readFileSync('/proc/self/limits', 'utf8')), dir),
    ),
    CONTAINERS_STORAGE_CONF: writeIfChanged(join(dir, 'storage.conf'), storageConf(dir)),
  };
  return { dir, env, run: (args, opts) => runPodman(env, args, opts) };
}

/** Removes a storage and its configuration (a benchmark's throwaway one): every image and container in it. */
export async function removePodmanStorage(podman: Podman): Promise<void> {
  await podman.run(['system', 'reset', '--force']);
  rmSync(podman.dir, { recursive: true, force: true });
  rmSync(runRoot(podman.dir), { recursive: true, force: true });
}

function writeIfChanged(file: string, text: string): string {
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
  return file;
}

function runPodman(
  env: Podman['env'],
  args: string[],
  opts: { logFile?: string; stdin?: NodeJS.ReadableStream } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('podman', args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    if (opts.stdin) opts.stdin.pipe(child.stdin);
    else child.stdin.end();
    let stdout = '';
    let out = '';
    const collect = (d: Buffer) => {
      out += d;
      if (opts.logFile) appendFileSync(opts.logFile, d);
    };
    child.stdout.on('data', (d: Buffer) => ((stdout += d), collect(d)));
    child.stderr.on('data', collect);
    child.once('error', (err) =>
      reject(
        new ImageBuildError(
          (err as NodeJS.ErrnoException).code === 'ENOENT'
            ? `podman is missing (Debian: apt-get install ${PODMAN_PACKAGES}; scripts/test.sh does it as root)`
            : `podman: ${err.message}`,
        ),
      ),
    );
    child.once('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(
            new ImageBuildError(
              `podman ${args.slice(0, 2).join(' ')} exited with ${code}\n${out.trimEnd().split('\n').slice(-30).join('\n')}`,
            ),
          ),
    );
  });
}
