/**
 * Runs a command in the farm's image confined as the chart runs it (read-only root filesystem, uid 1000, no
 * capabilities) and without network; /tmp and /work are the writable places (the chart's emptyDirs).
 */
import { spawn } from 'node:child_process';
import { alive } from '../local-services/proc';
import type { Podman } from './podman';

export const CONFINED = [
  '--network=none',
  '--read-only',
  '--user=1000:1000',
  '--cap-drop=ALL',
  '--tmpfs=/tmp',
  // Owned by the container's user (a plain tmpfs is root's, 755, under runc).
  '--tmpfs=/work:rw,exec,U',
];
/** Every container a test starts carries its pid: one left by a killed run is removed by the next. */
export const OWNER_LABEL = 'farm.test.owner';
/** conmon kills a container after this, even if the process that started it is gone. */
const MAX_SECONDS = 120;

export interface InImage {
  code: number | null;
  stdout: string;
  stderr: string;
}

let runs = 0;

export function runInImage(
  podman: Podman,
  image: string,
  argv: string[],
  opts: { env?: Record<string, string> } = {},
): Promise<InImage> {
  const name = `farm-image-test-${process.pid}-${++runs}`;
  const env = Object.entries(opts.env ?? {}).map(([k, v]) => `--env=${k}=${v}`);
  const args = ['run', '--rm', `--name=${name}`, `--label=${OWNER_LABEL}=${process.pid}`, `--timeout=${MAX_SECONDS}`];
  return new Promise((resolve, reject) => {
    const child = spawn('podman', [...args, ...CONFINED, ...env, image, ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...podman.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Removes the containers of test runs that were killed before theirs ended. */
export async function removeContainersOfDeadRuns(podman: Podman): Promise<string[]> {
  const listed = await podman.run([
    'ps',
    '--all',
    `--filter=label=${OWNER_LABEL}`,
    '--format',
    `{{.ID}} {{index .Labels "${OWNER_LABEL}"}}`,
  ]);
  const dead = listed
    .split('\n')
    .map((l) => l.trim().split(' '))
    .filter(([id, owner]) => id && !alive(Number(owner)))
    .map(([id]) => id);
  if (dead.length) await podman.run(['rm', '--force', ...dead]);
  return dead;
}

/** The JSON log lines of an output (one object a line), other lines left out. */
export function logLines(output: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return []; // a line that only looks like JSON: not a log line
    }
  });
}
