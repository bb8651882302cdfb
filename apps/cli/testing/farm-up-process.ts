// `farm up` as a separate process, as a user starts it, for the tests that watch it from outside: started from its
// bundle with the given environment (the embedded farm: no Kafka, PostgreSQL or remote farm), its output in a
// log file, answered once /healthz does, with the admin token it made at its first start.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ChangeRequestClient } from '@farm/farm-api';
import { freePort } from '../../../scripts/local-services/proc';

const FARM_BIN = path.join(__dirname, '..', 'bin', 'farm');

export interface FarmUpProcess {
  process: ChildProcess;
  url: string;
  port: number;
  token: string;
  api: ChangeRequestClient;
}

/**
 * An embedded `farm up` on a free port with `stateDir`, `workDir` and `env` (LOG_LEVEL info unless given);
 * the variables that would point it elsewhere are removed. Throws with the end of its log when it exits first.
 */
export async function startFarmUpProcess(opts: {
  stateDir: string;
  workDir: string;
  logFile: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<FarmUpProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'info',
    ...opts.env,
    FARM_STATE_DIR: opts.stateDir,
    FARM_WORK_DIR: opts.workDir,
    FARM_METRICS_PORT: String(port),
  };
  for (const name of ['KAFKA_BROKERS', 'DATABASE_URL', 'FARM_URL', 'FARM_TOKEN']) delete env[name];
  const child = spawn(FARM_BIN, ['up', ...(opts.args ?? [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) {
      const said = (await readFile(opts.logFile, 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
      throw new Error(`farm up exited with ${child.exitCode}; the end of ${opts.logFile}:\n${said}`);
    }
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`farm up did not answer in ${(opts.timeoutMs ?? 120_000) / 1000} s; see ${opts.logFile}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const token = (await readFile(path.join(opts.stateDir, 'admin-token'), 'utf8')).trim();
  return { process: child, url, port, token, api: new ChangeRequestClient({ baseUrl: url, token, maxReconnects: 60 }) };
}
