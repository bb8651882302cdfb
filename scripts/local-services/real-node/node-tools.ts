/**
 * The real node's own binaries, built like the control plane and cached beside it (~/.cache/agent-farm):
 * the kubelet from the control plane's Go module (same version, same replace lines and ldflags), kube-router
 * from scripts/k8s-node (its own module: it pins older k8s.io libraries) as the NetworkPolicy engine, and the
 * pause program of the pod sandboxes compiled from the kubernetes module's own source (no image registry here).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from '@farm/runtime';
import { KUBERNETES_VERSION, LDFLAGS, MODULE_DIR, buildLock } from '../kube-control-plane';
import { run } from '../proc';

const NODE_MODULE_DIR = resolve(__dirname, '../../k8s-node');
const BINARIES = ['kubelet', 'kube-router', 'pause'] as const;

export class NodeToolsError extends Error {
  override name = 'NodeToolsError';
}

export interface NodeTools {
  dir: string;
  kubelet: string;
  kubeRouter: string;
  /** The static pause program of the pod sandbox image. */
  pause: string;
}

export function nodeToolsDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const hash = createHash('sha256');
  for (const f of ['go.mod', 'go.sum']) hash.update(readFileSync(join(MODULE_DIR, f)));
  for (const f of ['go.mod', 'go.sum']) hash.update(readFileSync(join(NODE_MODULE_DIR, f)));
  hash.update(LDFLAGS);
  return join(base, 'agent-farm', `k8s-node-${KUBERNETES_VERSION}-${hash.digest('hex').slice(0, 12)}`);
}

const toolsIn = (dir: string): NodeTools => ({
  dir,
  kubelet: join(dir, 'kubelet'),
  kubeRouter: join(dir, 'kube-router'),
  pause: join(dir, 'pause'),
});

/** Builds what is missing (minutes cold, from the Go module proxy; nothing when cached). */
export async function ensureNodeTools(log: Logger): Promise<NodeTools> {
  const dir = nodeToolsDir();
  const complete = () => BINARIES.every((b) => existsSync(join(dir, b)));
  if (complete()) return toolsIn(dir);
  mkdirSync(resolve(dir, '..'), { recursive: true });
  const release = await buildLock(`${dir}.lock`, log, 'the node tools');
  try {
    if (complete()) return toolsIn(dir);
    const staging = mkdtempSync(`${dir}.build-`);
    const started = Date.now();
    log.info('building the real node (kubelet, kube-router, pause) with go', { dir });
    const env = { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false' };
    try {
      await Promise.all([
        run('go', ['build', `-ldflags=${LDFLAGS}`, '-o', staging + '/', 'k8s.io/kubernetes/cmd/kubelet'], {
          cwd: MODULE_DIR,
          env,
        }),
        run(
          'go',
          ['build', '-ldflags=-s -w', '-o', staging + '/', 'github.com/cloudnativelabs/kube-router/v2/cmd/kube-router'],
          { cwd: NODE_MODULE_DIR, env },
        ),
      ]);
      const modCache = (await run('go', ['env', 'GOMODCACHE'], { cwd: MODULE_DIR })).trim();
      const pauseSource = join(modCache, `k8s.io/kubernetes@${KUBERNETES_VERSION}`, 'build/pause/linux/pause.c');
      await run('gcc', [
        '-static',
        '-O2',
        `-DVERSION=${KUBERNETES_VERSION}`,
        '-o',
        join(staging, 'pause'),
        pauseSource,
      ]);
      renameSync(staging, dir);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      throw new NodeToolsError(`building the real node's tools failed: ${(err as Error).message}`);
    }
    log.info('real node tools built', { dir, ms: Date.now() - started });
    return toolsIn(dir);
  } finally {
    release();
  }
}
