import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { LIVE_SPOOL, SpoolDirBus, publishSpooled, readSpoolDir, type EventBus } from '@farm/bus';
import {
  BackgroundWork,
  errorMessage,
  isSameProcess,
  nodeArgsFor,
  signalGroup,
  startTicksOf,
  whenProcessEnds,
  type Logger,
} from '@farm/runtime';

export interface DetachedProcessRunnerConfig<R extends object> {
  /** Where the spooled results go. */
  bus: Pick<EventBus, 'publishRaw'>;
  log: Logger;
  /** What a process is called in logs ("agent", "build"); also names the temp state dir. */
  kind: string;
  /** One directory per process (record, log, spooled results), kept across restarts; a temp dir when omitted. */
  stateDir?: string;
  /** The record's file name in a process's directory (its presence means the process was started). */
  recordFile: string;
  /** A process that spooled a message on this topic has reported; one that ends without is reported for. */
  resultTopic: string;
  /** Spools the failure published on behalf of a process that ended without a result; `how` says how it ended. */
  reportFor(spool: EventBus, record: R, how: string): Promise<void>;
  /** The record's log fields (task and change request ids). */
  logFields(record: R): Record<string, unknown>;
  /** Told once of each process that ended (`how`: howItEnded's words, or why it never ran), before its results go. */
  onEnded?(record: R, how: string): void;
  /**
   * On `close('stop')`: publish results for the processes the close stops (for `closeGraceMs`), or leave them
   * untouched for the next start's `resume` to decide (run them again, or report them).
   */
  finishOnClose: boolean;
  closeGraceMs?: number;
  /** How often an adopted process (not our child) is checked for having ended. */
  adoptPollMs?: number;
  /** First wait before publishing a result again while the bus refuses it (default 1 s, doubling). */
  publishRetryMs?: number;
  /** Called whenever the number of processes followed changes (a gauge). */
  onFollowedChange?(count: number): void;
  /**
   * At most this many processes run at once (adopted ones count); further starts wait, in order, for one to
   * end. Unbounded when omitted. A burst of tasks would otherwise start a process each at once and take the
   * machine's memory and CPU.
   */
  maxRunning?: number;
  /**
   * How often what running processes spool in `out/live/` (their steps as they happen, LIVE_SPOOL) is published
   * while they run; also once when a process ends, before its result. Never when omitted.
   */
  liveEveryMs?: number;
}

/** What is written to a process's record file: the launcher's fields and the process's identity. */
export type ProcessRecord<R extends object> = R & {
  pid?: number;
  /** The process's start time (from /proc), so a recycled pid is not taken for it. */
  startTicks?: string;
};

export interface ProcessSpec {
  /** The script this Node.js runs: a built entry (`entryScript`), or a TypeScript one (with tsx). */
  entry: string;
  env: NodeJS.ProcessEnv;
  /** Appended to with the process's stdout and stderr. */
  logFile: string;
}

const SPOOL_DIR = 'out';
/** Marks a process whose results nobody wants (a cancelled request): it is stopped and forgotten, never reported. */
const ABANDONED_FILE = 'cancelled';

/** How a child ended, in the words of the report published on its behalf. */
export function howItEnded(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exited with code ${code}`;
}

/**
 * One machine: task processes (agents, builds) each in its own process group, detached so that they outlive a
 * restart of the process that started them. A process spools its result to files (SpoolDirBus); when it ends
 * the runner publishes them, or a failure on its behalf saying how it ended when it reported nothing, then
 * forgets it. Each message is marked once published, so a publish the bus refused is tried again (with backoff)
 * without publishing anything twice; a crash between a publish and its mark republishes the same bytes, which
 * consumers apply once. `resume` adopts what a previous run left: running processes are followed until they
 * end, ended ones are published (or started again, as the launcher decides).
 */
export class DetachedProcessRunner<R extends object> {
  readonly stateDir: string;
  private readonly followed = new Map<string, ProcessRecord<R>>(); // by directory name
  /** Starts waiting for a slot (maxRunning), in order; their records have no pid yet. */
  private readonly waiting = new Map<string, { record: ProcessRecord<R>; spec: ProcessSpec }>();
  private readonly finishing = new Set<string>(); // exit and error may both come
  private readonly background: BackgroundWork;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing: 'stop' | 'leave' | undefined;
  /** Aborted on close: results still unpublished stay spooled for the next start. */
  private readonly publishing = new AbortController();
  /** The live spools being published now, by directory name: one pass at a time per process. */
  private readonly liveFlushes = new Map<string, Promise<void>>();

  constructor(private readonly config: DetachedProcessRunnerConfig<R>) {
    this.stateDir = config.stateDir ?? mkdtempSync(join(os.tmpdir(), `farm-${config.kind}s-`));
    this.background = new BackgroundWork(config.log, `publishing a ${config.kind} result failed`);
    mkdirSync(this.stateDir, { recursive: true });
    if (config.liveEveryMs) {
      const timer = setInterval(() => {
        for (const name of this.followed.keys()) void this.publishLive(name);
      }, config.liveEveryMs);
      timer.unref();
      this.timers.add(timer);
    }
  }

  /**
   * Publishes what the process `name` spooled in its live spool so far, in order, each file marked once published
   * (as publishSpooled does). One pass, no retries: a bus that refuses now is tried again at the next tick, and
   * what is left when the process ends is published before its result.
   */
  private publishLive(name: string): Promise<void> {
    const running = this.liveFlushes.get(name);
    if (running) return running;
    const dir = join(this.spoolDirOf(name), LIVE_SPOOL);
    const pass = (async () => {
      try {
        for (const m of readSpoolDir(dir)) {
          await this.config.bus.publishRaw(m.topic, m.value, { key: m.key ?? undefined, headers: m.headers });
          renameSync(m.file, `${m.file}.published`);
        }
      } catch (err) {
        this.config.log.warn(`publishing a running ${this.config.kind}'s live steps failed; trying again later`, {
          dir,
          err: errorMessage(err),
        });
      }
    })().finally(() => this.liveFlushes.delete(name)); // after the set below: a callback of finally never runs at once
    this.liveFlushes.set(name, pass);
    return pass;
  }

  dirOf(name: string): string {
    return join(this.stateDir, name);
  }

  spoolDirOf(name: string): string {
    return join(this.dirOf(name), SPOOL_DIR);
  }

  /** Whether a process was started under `name` and not yet forgotten (a second launch is a no-op). */
  started(name: string): boolean {
    return existsSync(join(this.dirOf(name), this.config.recordFile));
  }

  /** Processes followed now (started here or adopted) that have not ended. */
  get count(): number {
    return this.followed.size;
  }

  /** Starts waiting for a running process to end (see maxRunning). */
  get queued(): number {
    return this.waiting.size;
  }

  /** The processes followed, then those waiting to start (without a pid). */
  *records(): IterableIterator<ProcessRecord<R>> {
    yield* this.followed.values();
    for (const w of this.waiting.values()) yield w.record;
  }

  /**
   * Starts `spec` detached under `name`, or queues it while maxRunning processes run; the record is written
   * at once (so a second start of `name` is seen) and again with the pid once it runs. A record without a pid
   * found by `resume` never started: it is removed, and the launcher starts it again.
   */
  start(name: string, record: R, spec: ProcessSpec): ProcessRecord<R> {
    const max = this.config.maxRunning;
    if (max !== undefined && (this.followed.size >= max || this.waiting.size)) {
      mkdirSync(this.dirOf(name), { recursive: true });
      const queued: ProcessRecord<R> = { ...record };
      writeFileSync(join(this.dirOf(name), this.config.recordFile), JSON.stringify(queued));
      this.waiting.set(name, { record: queued, spec });
      return queued;
    }
    return this.spawnNow(name, record, spec);
  }

  private spawnNow(name: string, record: R, spec: ProcessSpec): ProcessRecord<R> {
    const dir = this.dirOf(name);
    mkdirSync(dir, { recursive: true });
    const fd = openSync(spec.logFile, 'a');
    let child;
    try {
      child = spawn(process.execPath, nodeArgsFor(spec.entry), {
        env: spec.env,
        stdio: ['ignore', fd, fd],
        detached: true, // its own process group: stopping it stops what it runs; Ctrl-C on the parent does not
      });
    } finally {
      closeSync(fd);
    }
    const pid = child.pid;
    const started: ProcessRecord<R> = { ...record, pid, startTicks: pid ? startTicksOf(pid) : undefined };
    writeFileSync(join(dir, this.config.recordFile), JSON.stringify(started));
    child.unref(); // the parent may exit while it runs; the next one adopts it
    this.follow(name, started);
    child.on('error', (err) => this.background.add(this.finish(name, `could not be started: ${err.message}`)));
    child.on('exit', (code, signal) => this.background.add(this.finish(name, howItEnded(code, signal))));
    return started;
  }

  /**
   * Signals a followed process's whole group (it and what it runs). One still waiting to start never starts:
   * it is reported as stopped, as a running one that the signal stopped would be.
   */
  signal(record: ProcessRecord<R>, signal: NodeJS.Signals): void {
    if (record.pid) return signalGroup(record.pid, signal);
    for (const [name, w] of this.waiting) {
      if (w.record !== record) continue;
      this.waiting.delete(name);
      this.background.add(this.finish(name, `stopped by ${signal} before it started`));
    }
  }

  /** Starts waiting processes while there are free slots. */
  private startWaiting(): void {
    const max = this.config.maxRunning ?? Infinity;
    for (const [name, w] of this.waiting) {
      if (this.closing || this.followed.size >= max) return;
      this.waiting.delete(name);
      try {
        this.spawnNow(name, w.record, w.spec);
      } catch (err) {
        this.background.add(this.finish(name, `could not be started: ${(err as Error).message}`));
      }
    }
  }

  /**
   * Stops the process under `name` and forgets it without reporting anything: marked first, so that its
   * exit (seen here or by the next start) is not reported. Returns its record, if it was started.
   */
  abandon(name: string): ProcessRecord<R> | undefined {
    const dir = this.dirOf(name);
    const record = this.readRecord(name);
    if (!record) return undefined;
    this.waiting.delete(name);
    writeFileSync(join(dir, ABANDONED_FILE), '');
    if (record.pid && isSameProcess(record.pid, record.startTicks)) signalGroup(record.pid, 'SIGTERM');
    if (!this.followed.has(name)) rmSync(dir, { recursive: true, force: true }); // nobody follows it
    return record;
  }

  /**
   * After a restart: adopts what a previous run left. A directory without a record never started and is
   * removed; an abandoned process is stopped and removed; a running one is followed until it ends; one that
   * ended meanwhile is offered to `endedMeanwhile` (true: the launcher handled it, e.g. started it again),
   * else its result is published in the background, reported as `how` when it has none. Returns the names
   * found, and a promise of those publications.
   */
  resume(
    how: string,
    endedMeanwhile: (name: string, record: ProcessRecord<R>) => boolean = () => false,
  ): { found: Map<string, ProcessRecord<R>>; published: Promise<void> } {
    const found = new Map<string, ProcessRecord<R>>();
    const publishing: Promise<void>[] = [];
    for (const name of readdirSync(this.stateDir)) {
      const dir = this.dirOf(name);
      const record = this.readRecord(name);
      const alive = !!record?.pid && isSameProcess(record.pid, record.startTicks);
      // Without a pid it was still waiting for a slot: it never started.
      if (!record?.pid || existsSync(join(dir, ABANDONED_FILE))) {
        if (record?.pid && alive) signalGroup(record.pid, 'SIGTERM');
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      found.set(name, record);
      if (alive) {
        this.config.log.info(`adopting running ${this.config.kind}`, {
          ...this.config.logFields(record),
          pid: record.pid,
        });
        this.follow(name, record);
        this.pollUntilExit(name, record);
      } else if (!endedMeanwhile(name, record)) {
        // In the background: with the bus away, start-up goes on and the result is published once it is back.
        const work = this.finish(name, how);
        this.background.add(work);
        publishing.push(work.catch(() => undefined)); // logged by the background work
      }
    }
    return { found, published: Promise.all(publishing).then(() => undefined) };
  }

  /** A spooled result (the process's own or one for it), published already or not. */
  hasResult(name: string): boolean {
    return readSpoolDir(this.spoolDirOf(name), { withPublished: true }).some(
      (m) => m.topic === this.config.resultTopic,
    );
  }

  /**
   * `stop`: signals every followed process and waits for their ends to be handled (published when
   * `finishOnClose`, for `closeGraceMs`); `leave`: leaves them running for the next start to adopt.
   */
  async close(mode: 'stop' | 'leave'): Promise<void> {
    this.closing = mode;
    const finishing = this.finishesWhileClosing();
    // Waiting starts never start now: reported like the processes the close stops, or left for the next start.
    const notStarted = [...this.waiting.keys()];
    this.waiting.clear();
    if (finishing) for (const name of notStarted) this.background.add(this.finish(name, 'stopped before it started'));
    if (!finishing) this.publishing.abort();
    if (mode === 'stop') {
      for (const record of this.followed.values()) this.signal(record, 'SIGTERM');
      // With the bus away, what is not published by the deadline stays spooled for the next start.
      const giveUp = finishing
        ? setTimeout(() => this.publishing.abort(), this.config.closeGraceMs ?? 30_000)
        : undefined;
      while (this.followed.size || this.background.size) {
        await this.background.settled();
        if (this.followed.size) await new Promise((r) => setTimeout(r, 20));
      }
      clearTimeout(giveUp);
    } else if (this.followed.size) {
      this.config.log.info(`${this.config.kind}s left running; the next start follows them`, {
        running: this.followed.size,
      });
    }
    for (const t of this.timers) clearInterval(t);
  }

  private finishesWhileClosing(): boolean {
    return this.closing === undefined || (this.closing === 'stop' && this.config.finishOnClose);
  }

  private follow(name: string, record: ProcessRecord<R>): void {
    this.followed.set(name, record);
    this.config.onFollowedChange?.(this.followed.size);
  }

  private pollUntilExit(name: string, record: ProcessRecord<R>): void {
    const timer = whenProcessEnds(record.pid!, record.startTicks, this.config.adoptPollMs ?? 1000, () => {
      this.timers.delete(timer);
      this.background.add(this.finish(name, 'exited'));
    });
    this.timers.add(timer);
  }

  /** Publishes what the process spooled, or a failure on its behalf, then forgets it. */
  private async finish(name: string, how: string): Promise<void> {
    if (this.finishing.has(name)) return;
    this.finishing.add(name);
    const dir = this.dirOf(name);
    try {
      if (!this.finishesWhileClosing()) return; // left as it is: the next start finishes it
      const record = this.readRecord(name);
      if (!record) return;
      if (existsSync(join(dir, ABANDONED_FILE))) {
        rmSync(dir, { recursive: true, force: true });
        return;
      }
      const fields = this.config.logFields(record);
      this.config.onEnded?.(record, how);
      const out = this.spoolDirOf(name);
      // Its last steps before its result, so that a follower sees them before the task ends (twice: a pass that
      // was under way may have listed the spool before the process wrote its last ones).
      if (this.config.liveEveryMs) {
        await this.publishLive(name);
        await this.publishLive(name);
      }
      if (!this.hasResult(name)) {
        this.config.log.error(`${this.config.kind} ended without a result`, { ...fields, how });
        // Spooled like the process's own result, so a bus that is away gets it later, and once.
        await this.config.reportFor(new SpoolDirBus(out, this.config.log), record, how);
      }
      try {
        await publishSpooled(out, this.config.bus, {
          log: this.config.log,
          signal: this.publishing.signal,
          firstRetryMs: this.config.publishRetryMs,
          fields,
        });
      } catch (err) {
        if (!this.publishing.signal.aborted) throw err;
        this.config.log.warn(`${this.config.kind} result left spooled for the next start`, fields);
        return;
      }
      rmSync(dir, { recursive: true, force: true });
    } finally {
      this.finishing.delete(name);
      if (this.followed.delete(name)) this.config.onFollowedChange?.(this.followed.size);
      this.startWaiting();
    }
  }

  private readRecord(name: string): ProcessRecord<R> | undefined {
    try {
      return JSON.parse(readFileSync(join(this.dirOf(name), this.config.recordFile), 'utf8')) as ProcessRecord<R>;
    } catch {
      return undefined; // never started, or not a process directory
    }
  }
}
