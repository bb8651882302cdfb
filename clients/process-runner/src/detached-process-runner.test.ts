import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EventBus } from '@farm/bus';
import { isSameProcess, silentLogger } from '@farm/runtime';
import { DetachedProcessRunner, howItEnded } from './detached-process-runner';

const ENTRY = path.join(__dirname, '..', 'testing', 'test-process.ts');

describe('the detached-process runner', () => {
  let tmp: string;
  let published: Array<{ topic: string; value: string }>;
  const bus: Pick<EventBus, 'publishRaw'> = {
    publishRaw: async (topic, value) => void published.push({ topic, value: value.toString() }),
  };
  const runners: DetachedProcessRunner<{ id: string }>[] = [];

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-runner-'));
    published = [];
  });
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.close('stop');
    await rm(tmp, { recursive: true, force: true });
  });

  const runner = (finishOnClose: boolean, maxRunning?: number, liveEveryMs?: number) => {
    const r = new DetachedProcessRunner<{ id: string }>({
      bus,
      log: silentLogger,
      kind: 'job',
      stateDir: path.join(tmp, 'state'),
      recordFile: 'job.json',
      resultTopic: 'results',
      reportFor: (spool, record, how) => spool.publishRaw('results', Buffer.from(`${record.id} ${how}`)),
      logFields: (record) => ({ id: record.id }),
      finishOnClose,
      adoptPollMs: 50,
      maxRunning,
      liveEveryMs,
    });
    runners.push(r);
    return r;
  };
  const start = (r: DetachedProcessRunner<{ id: string }>, id: string, behaviour: string) =>
    r.start(
      id,
      { id },
      {
        entry: ENTRY,
        env: { ...process.env, FARM_TEST_PROCESS: behaviour, FARM_TEST_SPOOL_DIR: r.spoolDirOf(id) },
        logFile: path.join(r.dirOf(id), 'job.log'),
      },
    );
  const until = async (what: () => boolean) => {
    for (let i = 0; i < 400 && !what(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(what()).toBe(true);
  };

  it('says how a process ended: by a signal, or with its exit code', () => {
    expect(howItEnded(null, 'SIGKILL')).toBe('killed by SIGKILL');
    expect(howItEnded(3, null)).toBe('exited with code 3');
  });

  it('publishes what a process spooled, or a report for it saying how it ended, then forgets it', async () => {
    const r = runner(true);
    start(r, 'ok', 'report');
    start(r, 'bad', 'crash');
    await until(() => published.length === 2 && r.count === 0);
    expect(published.map((m) => m.value).sort()).toEqual(['bad exited with code 3', 'done']);
    expect(readdirSync(r.stateDir)).toEqual([]);
  });

  it('publishes what a running process spools live while it runs, and what is left of it before its result', async () => {
    const r = runner(true, undefined, 30);
    start(r, 'steps', 'live');
    // The process goes on only once its first step was published: while it runs.
    await until(() => published.length === 3 && r.count === 0);
    expect(published.map((m) => `${m.topic} ${m.value}`)).toEqual(['steps step 1', 'steps step 2', 'results done']);
  });

  it('an abandoned process is stopped, and nothing is published for it', async () => {
    const r = runner(true);
    const { pid, startTicks } = start(r, 'gone', 'sleep');
    expect(r.abandon('gone')?.pid).toBe(pid);
    await until(() => !isSameProcess(pid!, startTicks) && r.count === 0);
    expect(published).toEqual([]);
    expect(existsSync(r.dirOf('gone'))).toBe(false);
  });

  it('closed with stop, without finishing: its processes, adopted ones too, are stopped and left for the next start', async () => {
    const first = runner(false);
    const { pid, startTicks } = start(first, 'long', 'sleep');
    await first.close('leave');
    const second = runner(false);
    second.resume('ended meanwhile');
    expect(second.count).toBe(1); // adopted
    await second.close('stop'); // returns once the adopted process has ended
    expect(isSameProcess(pid!, startTicks)).toBe(false);
    expect(published).toEqual([]);
    // The next start finds it ended without a result; here it is published for (a launcher may start it again).
    const third = runner(false);
    await third.resume('ended while stopped').published;
    expect(published.map((m) => m.value)).toEqual(['long ended while stopped']);
  });

  describe('with a bound on processes running at once', () => {
    it('starts the next only once one has ended, in order, and publishes both', async () => {
      const r = runner(true, 1);
      const first = start(r, 'first', 'sleep');
      const second = start(r, 'second', 'report');
      expect(first.pid).toBeDefined();
      expect(second.pid).toBeUndefined(); // waiting for the slot
      expect([r.count, r.queued]).toEqual([1, 1]);
      expect(r.started('second')).toBe(true); // a second launch of it is seen as started
      r.signal(first, 'SIGTERM');
      await until(() => published.length === 2 && r.count === 0);
      expect(published.map((m) => m.value)).toEqual(['first killed by SIGTERM', 'done']);
      expect(r.queued).toBe(0);
    });

    it('a waiting process that is stopped never starts, and is reported as stopped', async () => {
      const r = runner(true, 1);
      start(r, 'running', 'sleep');
      const waiting = start(r, 'waiting', 'report');
      expect([...r.records()].map((rec) => rec.id)).toEqual(['running', 'waiting']);
      r.signal(waiting, 'SIGTERM');
      await until(() => published.length === 1);
      expect(published[0].value).toBe('waiting stopped by SIGTERM before it started');
      expect(r.queued).toBe(0);
      expect(r.count).toBe(1); // the running one runs on
    });

    it('after a restart, one that was still waiting is removed, not reported: its launcher starts it again', async () => {
      const first = runner(false, 1);
      start(first, 'running', 'sleep');
      start(first, 'waiting', 'report');
      await first.close('leave');
      const second = runner(false, 1);
      const { found } = second.resume('ended meanwhile');
      expect([...found.keys()]).toEqual(['running']);
      expect(existsSync(second.dirOf('waiting'))).toBe(false);
      await second.close('stop');
      expect(published).toEqual([]);
    });
  });
});
