/**
 * A real model gateway nobody here wrote, for the tests of how the farm reads what gateways answer: LiteLLM's
 * proxy (PyPI `litellm[proxy]`, pinned), in front of an upstream server (the scripted model). Installed once into
 * ~/.cache/agent-farm (a venv):
 *
 *   node --import tsx scripts/local-services/litellm-proxy.ts install
 *
 * scripts/test.sh starts that in the background; a test that asks meanwhile waits for it (a lock), then starts a
 * proxy of its own (startLiteLlmProxy) with the routes it needs.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger, type Logger } from '@farm/runtime';
import { buildLock } from './kube-control-plane';
import { freePort, ownedTempDir, run, sleep, spawnGuarded, tail } from './proc';

export const LITELLM_VERSION = '1.108.7';

export const litellmCacheDir = () =>
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-farm', `litellm-${LITELLM_VERSION}`);

const binIn = (dir: string) => join(dir, 'venv/bin/litellm');
/** Written last: a venv is not relocatable (its scripts name their interpreter by path), so it is built in place. */
const readyIn = (dir: string) => join(dir, 'installed');

/** The venv with LiteLLM's proxy, made once (a lock keeps concurrent installers to one). */
export async function ensureLiteLlm(log: Logger): Promise<string> {
  const dir = litellmCacheDir();
  if (existsSync(readyIn(dir))) return binIn(dir);
  mkdirSync(resolve(dir, '..'), { recursive: true });
  const release = await buildLock(`${dir}.lock`, log, "LiteLLM's proxy");
  try {
    if (existsSync(readyIn(dir))) return binIn(dir);
    rmSync(dir, { recursive: true, force: true }); // what an interrupted install left
    const started = Date.now();
    log.info("installing LiteLLM's proxy from PyPI", { dir, version: LITELLM_VERSION });
    try {
      await run('python3', ['-m', 'venv', join(dir, 'venv')]);
      await run(join(dir, 'venv/bin/pip'), ['install', '-q', `litellm[proxy]==${LITELLM_VERSION}`]);
      writeFileSync(readyIn(dir), `${LITELLM_VERSION}\n`);
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`installing LiteLLM's proxy failed: ${(err as Error).message}`);
    }
    log.info("LiteLLM's proxy installed", { dir, ms: Date.now() - started });
    return binIn(dir);
  } finally {
    release();
  }
}

/** One model name the proxy routes to the upstream's model, with LiteLLM's own limits. */
export interface LiteLlmRoute {
  name: string;
  upstreamModel: string;
  /** Requests per minute LiteLLM allows the route (its router answers 429 beyond). */
  rpm?: number;
}

export interface LiteLlmProxy {
  /** Ends with /v1. */
  baseURL: string;
  /** The proxy's master key: what a client sends as its API key. */
  apiKey: string;
  stop(): Promise<void>;
}

/** A LiteLLM proxy of its own on a free loopback port, ready, routing `routes` to `upstreamBaseURL`. */
export async function startLiteLlmProxy(opts: {
  upstreamBaseURL: string;
  routes: LiteLlmRoute[];
  log?: Logger;
  readyWithinMs?: number;
}): Promise<LiteLlmProxy> {
  const log = opts.log ?? createLogger('litellm');
  const bin = await ensureLiteLlm(log);
  const port = await freePort();
  const dir = ownedTempDir('farm-litellm-');
  const config = join(dir, 'config.yaml');
  // JSON is YAML: no YAML writer needed.
  writeFileSync(
    config,
    JSON.stringify({
      model_list: opts.routes.map((r) => ({
        model_name: r.name,
        litellm_params: {
          model: `openai/${r.upstreamModel}`,
          api_base: opts.upstreamBaseURL,
          api_key: 'none',
          ...(r.rpm ? { rpm: r.rpm } : {}),
        },
      })),
      router_settings: { num_retries: 0 },
      litellm_settings: { num_retries: 0, request_timeout: 120 },
    }),
  );
  const apiKey = 'sk-farm-litellm-test-master-key-0123456789';
  const logFile = join(dir, 'proxy.log');
  const proxy = spawnGuarded(bin, ['--config', config, '--host', '127.0.0.1', '--port', String(port)], {
    logFile,
    // Only what a proxy needs: given the tests' DATABASE_URL, LiteLLM would try to set up its own tables there.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? dir,
      LITELLM_MASTER_KEY: apiKey,
      // No internet here: the price map shipped with the package, not a fetch that fails three times first.
      LITELLM_LOCAL_MODEL_COST_MAP: 'True',
      LITELLM_TELEMETRY: 'False',
    },
  });
  const root = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.readyWithinMs ?? 180_000);
  for (;;) {
    const ok = await fetch(`${root}/health/liveliness`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (proxy.child.exitCode !== null || Date.now() > deadline) {
      await proxy.stop();
      throw new Error(`LiteLLM's proxy did not become ready on ${root}:\n${tail(logFile)}`);
    }
    await sleep(250);
  }
  log.info("LiteLLM's proxy ready", { url: root, routes: opts.routes.map((r) => r.name) });
  return {
    baseURL: `${root}/v1`,
    apiKey,
    async stop() {
      await proxy.stop(5000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (require.main === module) {
  const [command] = process.argv.slice(2);
  if (command !== 'install') {
    process.stderr.write('usage: litellm-proxy.ts install\n');
    process.exit(2);
  }
  ensureLiteLlm(createLogger('litellm')).then(
    (bin) => process.stdout.write(`${bin}\n`),
    (err: Error) => {
      process.stderr.write(`litellm-proxy: ${err.message}\n`);
      process.exit(1);
    },
  );
}
