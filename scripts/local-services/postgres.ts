/** Throwaway PostgreSQL server in a temp dir for tests and local dev, using the system's server binaries. */
import { chownSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { createLogger, type Logger } from '@farm/runtime';
import { freePort, ownedTempDir, run, sleep, spawnGuarded, tail, type SpawnOpts } from './proc';

const PG_ROOT = '/usr/lib/postgresql';
const READY_TIMEOUT_MS = 30_000;

export interface LocalPostgres {
  url: string;
  /** Stops the server (`fast`: a clean shutdown; `immediate`: like a crash), keeping its data. */
  halt(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts a halted server again, on the same port with the same data. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres(opts: { log?: Logger; database?: string } = {}): Promise<LocalPostgres> {
  const log = opts.log ?? createLogger('local-services', { fields: { service: 'postgres' } });
  const database = opts.database ?? 'farm';
  const bin = await findBinDir(log);
  const asUser = await serverUser();

  const dir = ownedTempDir('farm-pg-');
  // /tmp itself is world-traversable, so the postgres user can reach a dir it owns inside it.
  if (asUser.uid !== undefined) chownSync(dir, asUser.uid, asUser.gid!);
  const data = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  const port = await freePort();
  const spawnOpts: SpawnOpts = { ...asUser, cwd: dir };

  let proc: ReturnType<typeof spawnGuarded> | undefined;
  const stop = async () => {
    if (proc) {
      await run(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w'], spawnOpts).catch((err) =>
        log.warn('pg_ctl stop failed, killing instead', { err }),
      );
      await proc.stop(); // reaps the guard; INT (= fast shutdown) if pg_ctl could not stop it
    }
    rmSync(dir, { recursive: true, force: true });
  };

  // Run the postmaster in the foreground (not `pg_ctl start`, which daemonizes) so the guard can stop it if we die.
  const launch = async () => {
    proc = spawnGuarded(
      join(bin, 'postgres'),
      // Durability is pointless for a throwaway server; these make tests' DDL/commits much cheaper.
      [
        '-D',
        data,
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      { ...spawnOpts, logFile, stopSignal: 'INT' },
    );
    log.debug('postgres starting', { port, pid: proc.child.pid, logFile });
    await waitReady(port, proc.exited);
  };
  const halt = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!proc) return;
    await run(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', mode, '-w'], spawnOpts);
    await proc.exited;
    proc = undefined;
  };

  try {
    // C locale: minimal containers often lack the locale in $LANG. --no-sync: the data is thrown away anyway.
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
      spawnOpts,
    );
    await launch();
    const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${database}"`);
    } finally {
      await admin.end();
    }
  } catch (err) {
    const logTail = tail(logFile);
    await stop();
    throw new Error(`postgres failed to start: ${(err as Error).message}\n--- tail of ${logFile} ---\n${logTail}`);
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/${database}`, halt, resume: launch, stop };
}

/** Newest /usr/lib/postgresql/<major>/bin; installs the distro package when missing and we are root. */
async function findBinDir(log: Logger): Promise<string> {
  const find = () =>
    (existsSync(PG_ROOT) ? readdirSync(PG_ROOT) : [])
      .filter((v) => existsSync(join(PG_ROOT, v, 'bin/postgres')))
      .sort((a, b) => Number(b) - Number(a))
      .map((v) => join(PG_ROOT, v, 'bin'))[0];
  const found = find();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `PostgreSQL server binaries not found under ${PG_ROOT}; install them (e.g. sudo apt-get install -y postgresql)`,
    );
  }
  const started = Date.now();
  log.info('installing postgresql with apt-get (not found under /usr/lib/postgresql)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env });
  await run('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { env });
  log.info('postgresql installed', { ms: Date.now() - started });
  const installed = find();
  if (!installed) throw new Error(`apt-get installed postgresql but no server binaries appeared under ${PG_ROOT}`);
  return installed;
}

/** PostgreSQL refuses to run as root, so as root everything server-side runs as the distro's `postgres` user. */
async function serverUser(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    throw new Error(
      'running as root but there is no `postgres` user to run the server as (the postgresql package creates it)',
    );
  }
}

async function waitReady(port: number, exited: Promise<number | null>): Promise<void> {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastErr: unknown;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`postgres exited with code ${exitCode} before accepting connections`);
    const client = new Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      database: 'postgres',
      connectionTimeoutMillis: 1000,
    });
    try {
      await client.connect();
      return;
    } catch (err) {
      lastErr = err;
    } finally {
      await client.end().catch(() => {});
    }
    await sleep(100);
  }
  throw new Error(
    `not accepting connections on 127.0.0.1:${port} after ${READY_TIMEOUT_MS / 1000}s: ${(lastErr as Error)?.message}`,
  );
}
