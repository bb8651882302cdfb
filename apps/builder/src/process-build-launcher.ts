import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeBuildRequestBase64, type farm } from '@farm/proto';
import { SpoolDirBus, Topics, publishSpooled, readSpoolDir, type EventBus } from '@farm/bus';
import { BackgroundWork, isSameProcess, signalGroup, startTicksOf, whenProcessEnds, type Logger } from '@farm/runtime';
import { reportForBuild, type BuildLauncher } from './build-launcher';
import { builderMetrics } from './metrics';

export interface ProcessBuildLauncherConfig {
  bus: EventBus;
  log: Logger;
  /** The build's Job-style entry point (BUILD_JOB_ENTRY). */
  buildEntry: string;
  /** Environment of the build process (git credentials, check timeout); the sandbox scrubs it for the checks. */
  env?: NodeJS.ProcessEnv;
  /** One directory per build (request, pid, log, checkout, spooled result), kept across restarts; a temp dir when omitted. */
  stateDir?: string;
  /** On close: stop running builds (they run again when the builder comes back) or leave them running (default). */
  onClose?: 'stop' | 'leave';
  /** A build the builder found dead without a result is run again this many times before it fails. */
  maxRuns?: number;
  /** How often an adopted build (not our child) is checked for having ended. */
  adoptPollMs?: number;
}

interface BuildRecord {
  changeRequestId: string;
  pid?: number;
  startTicks?: string;
  runs: number;
}

const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;
const REQUEST_FILE = 'request.b64';
const RECORD_FILE = 'build.json';
const CANCELLED_FILE = 'cancelled';

/**
 * One machine: a process per build, in its own process group, detached so that it outlives a restart of the
 * farm. The build spools its BuildResult to files; when it exits the launcher publishes them, or BUILD_FAILED
 * saying how it ended when it reported nothing. A build found dead after a restart without a result (the farm
 * stopped it) runs again, up to `maxRuns`: a build is idempotent (it force-pushes the farm's own branch).
 */
export class ProcessBuildLauncher implements BuildLauncher {
  private readonly stateDir: string;
  private readonly running = new Map<string, { pid?: number; dir: string }>(); // by dir
  private readonly background: BackgroundWork;
  private readonly finishing = new Set<string>(); // build dirs being published (exit and error may both come)
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;
  /** Aborts the retries of publishing spooled results when the launcher closes. */
  private readonly closed = new AbortController();

  constructor(private readonly config: ProcessBuildLauncherConfig) {
    this.stateDir = config.stateDir ?? mkdtempSync(join(os.tmpdir(), 'farm-builds-'));
    this.background = new BackgroundWork(config.log, 'publishing a build result failed');
    mkdirSync(this.stateDir, { recursive: true });
  }

  async launch(request: farm.v1.IBuildRequest): Promise<void> {
    const dir = join(this.stateDir, buildDirName(request.changeRequestId!));
    if (existsSync(join(dir, RECORD_FILE))) {
      this.config.log.info('build already started', { changeRequestId: request.changeRequestId });
      return;
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, REQUEST_FILE), encodeBuildRequestBase64(request));
    this.start(dir, { changeRequestId: request.changeRequestId!, runs: 0 });
  }

  async cancel(changeRequestId: string): Promise<void> {
    const dir = join(this.stateDir, buildDirName(changeRequestId));
    const record = readRecord(dir);
    if (!record) return;
    writeFileSync(join(dir, CANCELLED_FILE), ''); // before the signal: its exit must not be reported
    if (record.pid && isSameProcess(record.pid, record.startTicks)) signalGroup(record.pid, 'SIGTERM');
    this.config.log.info('build cancelled', { changeRequestId, pid: record.pid });
    if (!this.running.has(dir)) rmSync(dir, { recursive: true, force: true }); // nobody follows it
  }

  async resume(): Promise<void> {
    for (const name of readdirSync(this.stateDir)) {
      const dir = join(this.stateDir, name);
      const record = readRecord(dir);
      if (!record) {
        // Never started (the builder stopped between the two writes): the request is redelivered.
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (existsSync(join(dir, CANCELLED_FILE))) {
        if (record.pid && isSameProcess(record.pid, record.startTicks)) signalGroup(record.pid, 'SIGTERM');
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (record.pid && isSameProcess(record.pid, record.startTicks)) {
        this.config.log.info('adopting running build', { changeRequestId: record.changeRequestId, pid: record.pid });
        this.follow(dir, record.pid);
        this.pollUntilExit(dir, record.pid, record.startTicks);
      } else if (!hasResult(dir) && record.runs < (this.config.maxRuns ?? 2)) {
        this.config.log.warn('build ended while the builder was down; running it again', {
          changeRequestId: record.changeRequestId,
        });
        rmSync(join(dir, 'work'), { recursive: true, force: true });
        this.start(dir, record);
      } else {
        await this.finish(dir, 'ended while the builder was not running');
      }
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.closed.abort(); // a result not yet published stays spooled: the next builder publishes it
    for (const t of this.timers) clearInterval(t);
    if (this.config.onClose !== 'stop') {
      if (this.running.size)
        this.config.log.info('builds left running; the next builder follows them', { builds: this.running.size });
      return;
    }
    for (const b of this.running.values()) if (b.pid) signalGroup(b.pid, 'SIGTERM');
    while (this.running.size) await new Promise((r) => setTimeout(r, 20));
    await this.background.settled();
  }

  private start(dir: string, previous: BuildRecord): void {
    const fd = openSync(join(dir, 'build.log'), 'a');
    let child;
    try {
      child = spawn(process.execPath, ['--import', TSX_LOADER, this.config.buildEntry], {
        env: {
          ...(this.config.env ?? process.env),
          FARM_BUILD_REQUEST: readFileSync(join(dir, REQUEST_FILE), 'utf8'),
          FARM_BUILD_SPOOL_DIR: join(dir, 'out'),
          FARM_WORK_DIR: join(dir, 'work'),
        },
        stdio: ['ignore', fd, fd],
        detached: true, // its own process group: the checks it runs are stopped with it
      });
    } finally {
      closeSync(fd);
    }
    const pid = child.pid;
    const record: BuildRecord = {
      ...previous,
      pid,
      startTicks: pid ? startTicksOf(pid) : undefined,
      runs: previous.runs + 1,
    };
    writeFileSync(join(dir, RECORD_FILE), JSON.stringify(record));
    child.unref();
    this.follow(dir, pid);
    child.on('error', (err) => this.background.add(this.finish(dir, `could not be started: ${err.message}`)));
    child.on('exit', (code, signal) =>
      this.background.add(this.finish(dir, signal ? `killed by ${signal}` : `exited with code ${code}`)),
    );
    builderMetrics.launched.inc();
    this.config.log.info('build process started', { changeRequestId: record.changeRequestId, pid, run: record.runs });
  }

  private follow(dir: string, pid: number | undefined): void {
    this.running.set(dir, { pid, dir });
    builderMetrics.running.set(this.running.size);
  }

  private pollUntilExit(dir: string, pid: number, startTicks: string | undefined): void {
    const timer = whenProcessEnds(pid, startTicks, this.config.adoptPollMs ?? 1000, () => {
      this.timers.delete(timer);
      this.background.add(this.finish(dir, 'exited'));
    });
    this.timers.add(timer);
  }

  /**
   * Publishes what the build spooled, or BUILD_FAILED on its behalf, then forgets it. Publishing comes first:
   * a crash in between republishes, and the orchestrator applies one build result per request. A closed
   * launcher leaves every build, stopped or still running, to the next builder.
   */
  private async finish(dir: string, how: string): Promise<void> {
    if (this.finishing.has(dir)) return;
    this.finishing.add(dir);
    try {
      if (this.closing) return; // stopped or left running: the next builder finishes it
      const record = readRecord(dir);
      if (!record) return;
      if (existsSync(join(dir, CANCELLED_FILE))) {
        rmSync(dir, { recursive: true, force: true });
        return;
      }
      const out = join(dir, 'out');
      const fields = { changeRequestId: record.changeRequestId };
      if (!hasResult(dir)) {
        this.config.log.error('build ended without a result', { ...fields, how });
        builderMetrics.unreported.inc();
        // Spooled like the build's own result, so a bus that is away gets it later, and once.
        await reportForBuild(new SpoolDirBus(out, this.config.log), record.changeRequestId, `process ${how}`);
      }
      try {
        await publishSpooled(out, this.config.bus, { log: this.config.log, signal: this.closed.signal, fields });
      } catch (err) {
        if (!this.closed.signal.aborted) throw err;
        this.config.log.warn('build result left spooled for the next builder', fields);
        return;
      }
      rmSync(dir, { recursive: true, force: true });
    } finally {
      this.finishing.delete(dir);
      this.running.delete(dir);
      builderMetrics.running.set(this.running.size);
    }
  }
}

/** A directory name for a change request id: readable, and a hash so two ids never share one. */
function buildDirName(changeRequestId: string): string {
  const slug = changeRequestId.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 60);
  return `${slug}.${createHash('sha256').update(changeRequestId).digest('hex').slice(0, 10)}`;
}

function readRecord(dir: string): BuildRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, RECORD_FILE), 'utf8')) as BuildRecord;
  } catch {
    return undefined;
  }
}

/** A result spooled by the build (or for it), published already or not. */
function hasResult(dir: string): boolean {
  return readSpoolDir(join(dir, 'out'), { withPublished: true }).some((m) => m.topic === Topics.buildResults.name);
}
