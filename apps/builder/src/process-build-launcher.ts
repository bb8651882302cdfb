import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeBuildRequestBase64, type farm } from '@farm/proto';
import { Topics, type EventBus } from '@farm/bus';
import { DetachedProcessRunner } from '@farm/process-runner';
import type { Logger } from '@farm/runtime';
import { reportForBuild, type BuildLauncher } from './build-launcher';
import { builderMetrics } from './metrics';

export interface ProcessBuildLauncherConfig {
  bus: EventBus;
  log: Logger;
  /** The script a build process runs: `entryScript('build-job')`, or a test's own. */
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
  runs: number;
}

const REQUEST_FILE = 'request.b64';

/**
 * One machine: a detached process per build (DetachedProcessRunner), so that it outlives a restart of the
 * farm. The build spools its BuildResult; when it exits the runner publishes it, or BUILD_FAILED saying how it
 * ended when it reported nothing. A build found dead after a restart without a result (the farm stopped it)
 * runs again, up to `maxRuns`: a build is idempotent (it force-pushes the farm's own branch).
 */
export class ProcessBuildLauncher implements BuildLauncher {
  private readonly runner: DetachedProcessRunner<BuildRecord>;

  constructor(private readonly config: ProcessBuildLauncherConfig) {
    this.runner = new DetachedProcessRunner<BuildRecord>({
      bus: config.bus,
      log: config.log,
      kind: 'build',
      stateDir: config.stateDir,
      recordFile: 'build.json',
      resultTopic: Topics.buildResults.name,
      reportFor: (spool, r, how) => {
        builderMetrics.unreported.inc();
        return reportForBuild(spool, r.changeRequestId, `process ${how}`);
      },
      logFields: (r) => ({ changeRequestId: r.changeRequestId }),
      // Builds stopped with the builder are left as they are: the next builder runs them again.
      finishOnClose: false,
      adoptPollMs: config.adoptPollMs,
      onFollowedChange: (count) => builderMetrics.running.set(count),
    });
  }

  async launch(request: farm.v1.IBuildRequest): Promise<void> {
    const name = buildDirName(request.changeRequestId!);
    if (this.runner.started(name)) {
      this.config.log.info('build already started', { changeRequestId: request.changeRequestId });
      return;
    }
    mkdirSync(this.runner.dirOf(name), { recursive: true });
    writeFileSync(join(this.runner.dirOf(name), REQUEST_FILE), encodeBuildRequestBase64(request));
    this.start(name, { changeRequestId: request.changeRequestId!, runs: 0 });
  }

  async cancel(changeRequestId: string): Promise<void> {
    // Nothing is reported for it, now or after a restart.
    const record = this.runner.abandon(buildDirName(changeRequestId));
    if (record) this.config.log.info('build cancelled', { changeRequestId, pid: record.pid });
  }

  async resume(): Promise<void> {
    const { published } = this.runner.resume('ended while the builder was not running', (name, record) => {
      if (this.runner.hasResult(name) || record.runs >= (this.config.maxRuns ?? 2)) return false;
      this.config.log.warn('build ended while the builder was down; running it again', {
        changeRequestId: record.changeRequestId,
      });
      rmSync(join(this.runner.dirOf(name), 'work'), { recursive: true, force: true });
      this.start(name, record);
      return true;
    });
    await published;
  }

  async close(): Promise<void> {
    await this.runner.close(this.config.onClose ?? 'leave');
  }

  private start(name: string, previous: BuildRecord): void {
    const dir = this.runner.dirOf(name);
    const { pid } = this.runner.start(
      name,
      { changeRequestId: previous.changeRequestId, runs: previous.runs + 1 },
      {
        entry: this.config.buildEntry,
        env: {
          ...(this.config.env ?? process.env),
          FARM_BUILD_REQUEST: readFileSync(join(dir, REQUEST_FILE), 'utf8'),
          FARM_BUILD_SPOOL_DIR: this.runner.spoolDirOf(name),
          FARM_WORK_DIR: join(dir, 'work'),
        },
        logFile: join(dir, 'build.log'),
      },
    );
    builderMetrics.launched.inc();
    this.config.log.info('build process started', {
      changeRequestId: previous.changeRequestId,
      pid,
      run: previous.runs + 1,
    });
  }
}

/** A directory name for a change request id: readable, and a hash so two ids never share one. */
function buildDirName(changeRequestId: string): string {
  const slug = changeRequestId.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 60);
  return `${slug}.${createHash('sha256').update(changeRequestId).digest('hex').slice(0, 10)}`;
}
