import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { failedStepName, farm } from '@farm/proto';
import { InProcessBus, Topics, type EventBus } from '@farm/bus';
import { isProcessAlive, silentLogger } from '@farm/runtime';
import { ChildProcessLauncher, processOutcome } from './child-process-launcher';

const AGENT = path.join(__dirname, '..', 'testing', 'scripted-agent.ts');
/**
 * A bus wrapper that refuses the first `failures` publishes, as a broker that is away would, then passes
 * them on: stands in for an unreachable Kafka in these unit tests of the launcher's publish retries.
 */
function refusingBus(bus: EventBus, failures: number): Pick<EventBus, 'publishRaw'> & { refused: number } {
  const wrapper = {
    refused: 0,
    async publishRaw(...args: Parameters<EventBus['publishRaw']>) {
      if (wrapper.refused < failures) {
        wrapper.refused++;
        throw new Error('KafkaJSConnectionError: Connection error: connect ECONNREFUSED 127.0.0.1:9092');
      }
      return bus.publishRaw(...args);
    },
  };
  return wrapper;
}

const task = (id: string, dispatch = 1) => farm.v1.CodingTask.create({ id, changeRequestId: 'cr-1', dispatch });

describe('the process launcher', () => {
  let tmp: string;
  let bus: InProcessBus;
  let results: farm.v1.CommitResult[];

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-launcher-'));
    bus = new InProcessBus();
    results = [];
    await bus.subscribe(Topics.commitResults, 'test', async (r) => void results.push(r));
  });
  afterEach(async () => {
    await bus.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const launcher = (
    behaviour: string,
    onClose: 'stop' | 'leave' = 'stop',
    via: Pick<EventBus, 'publishRaw'> = bus,
    maxRunning?: number,
  ) =>
    new ChildProcessLauncher({
      maxRunning,
      bus: via as EventBus,
      publishRetryMs: 20,
      log: silentLogger,
      agentEntry: AGENT,
      env: { ...process.env, FARM_TEST_AGENT: behaviour },
      stateDir: path.join(tmp, 'agents'),
      adoptPollMs: 50,
      onClose,
    });
  const until = async (what: () => boolean) => {
    for (let i = 0; i < 400 && !what(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(what()).toBe(true);
  };

  it('publishes the result the agent spooled, then forgets the agent', async () => {
    const l = launcher('succeed');
    await l.launch(task('t1'));
    await until(() => results.length === 1 && l.inFlight === 0);
    expect(results[0]).toMatchObject({ taskId: 't1', status: farm.v1.CommitStatus.SUCCESS, dispatch: 1 });
    expect(await readdir(path.join(tmp, 'agents'))).toEqual([]);
    await l.close();
  });

  it('reports a died agent (no result) as SOFT_FAIL agent-died with how it ended, so the task is dispatched again', async () => {
    const l = launcher('crash');
    await l.launch(task('t2'));
    await until(() => results.length === 1);
    expect([results[0].status, failedStepName(results[0].failedStep)]).toEqual([
      farm.v1.CommitStatus.SOFT_FAIL,
      'agent-died',
    ]);
    expect(results[0].notes.join()).toContain('exited with code 7');
    await l.close();
  });

  it('after a restart, re-attaches to an agent still running and publishes its result once', async () => {
    const go = path.join(tmp, 'go');
    const first = launcher(`wait-for-file:${go}`, 'leave');
    await first.launch(task('t3'));
    await first.close(); // the farm stops; the agent goes on
    const second = launcher('succeed');
    await second.resume([task('t3')]);
    expect(second.inFlight).toBe(1);
    expect(results).toHaveLength(0);
    await writeFile(go, '');
    await until(() => results.length === 1 && second.inFlight === 0);
    expect(results[0]).toMatchObject({ taskId: 't3', status: farm.v1.CommitStatus.SUCCESS });
    await second.close();
    expect(results).toHaveLength(1);
  });

  it('after a restart, publishes what a finished agent wrote, and starts a dispatched task that never was', async () => {
    const first = launcher('succeed', 'leave');
    await first.launch(task('t4'));
    await first.close(); // the farm stops; the agent finishes while it is down
    const spool = path.join(tmp, 'agents', 't4.1', 'out');
    await until(() => existsSync(spool) && readdirSync(spool).some((f) => f.endsWith('.json')));
    const { pid } = JSON.parse(readFileSync(path.join(tmp, 'agents', 't4.1', 'agent.json'), 'utf8')) as { pid: number };
    await until(() => !isProcessAlive(pid)); // and exits
    expect(results).toHaveLength(0);
    const second = launcher('succeed');
    await second.resume([task('t4'), task('t5')]);
    await until(() => results.some((r) => r.taskId === 't5'));
    expect(results.filter((r) => r.taskId === 't4').map((r) => r.status)).toEqual([farm.v1.CommitStatus.SUCCESS]);
    await second.close();
  });

  it('keeps trying to publish a result while the bus refuses it, and publishes it once when it is back', async () => {
    const flaky = refusingBus(bus, 4);
    const l = launcher('succeed', 'stop', flaky);
    await l.launch(task('t6'));
    await until(() => results.length === 1 && l.inFlight === 0);
    expect(flaky.refused).toBe(4);
    expect(results[0]).toMatchObject({ taskId: 't6', status: farm.v1.CommitStatus.SUCCESS });
    await l.close();
    await bus.drain();
    expect(results).toHaveLength(1);
    expect(await readdir(path.join(tmp, 'agents'))).toEqual([]);
  });

  it('a SOFT_FAIL agent-died on behalf of a crashed agent is retried the same way and published once', async () => {
    const flaky = refusingBus(bus, 3);
    const l = launcher('crash', 'stop', flaky);
    await l.launch(task('t7'));
    await until(() => results.length === 1 && l.inFlight === 0);
    expect(flaky.refused).toBe(3);
    expect(results[0]).toMatchObject({
      taskId: 't7',
      status: farm.v1.CommitStatus.SOFT_FAIL,
      failedStep: farm.v1.FailedStep.STEP_AGENT_DIED,
    });
    await l.close();
    await bus.drain();
    expect(results).toHaveLength(1);
  });

  it('after a restart with the bus still away, start-up goes on and the result is published once it is back', async () => {
    const first = launcher('succeed', 'leave');
    await first.launch(task('t8'));
    await first.close();
    const spool = path.join(tmp, 'agents', 't8.1', 'out');
    await until(() => existsSync(spool) && readdirSync(spool).some((f) => f.endsWith('.json')));
    const { pid } = JSON.parse(readFileSync(path.join(tmp, 'agents', 't8.1', 'agent.json'), 'utf8')) as { pid: number };
    await until(() => !isProcessAlive(pid));
    const flaky = refusingBus(bus, 5);
    const second = launcher('succeed', 'stop', flaky);
    await second.resume([task('t8')]); // returns while the bus still refuses
    await until(() => results.length === 1);
    expect(flaky.refused).toBe(5);
    await second.close();
    await bus.drain();
    expect(results.map((r) => r.taskId)).toEqual(['t8']);
  });

  it('a launcher closed while the bus refuses leaves the result spooled, and the next one publishes it once', async () => {
    const never = refusingBus(bus, Number.MAX_SAFE_INTEGER);
    const first = launcher('succeed', 'leave', never);
    await first.launch(task('t9'));
    await until(() => never.refused > 0); // the agent finished; its result is refused
    await first.close();
    expect(results).toHaveLength(0);
    const second = launcher('succeed');
    await second.resume([task('t9')]);
    await until(() => results.length === 1);
    await second.close();
    await bus.drain();
    expect(results.map((r) => r.taskId)).toEqual(['t9']);
  });

  it('with a bound on agents at once, a burst waits its turn, also across a restart, and each result is published once', async () => {
    const go = path.join(tmp, 'go');
    const first = launcher(`wait-for-file:${go}`, 'leave', bus, 1);
    await first.launch(task('t10'));
    await first.launch(task('t11'));
    expect([first.inFlight, first.waiting]).toEqual([1, 1]);
    await first.close(); // the farm stops: t10 runs on, t11 never started
    const second = launcher(`wait-for-file:${go}`, 'stop', bus, 1);
    await second.resume([task('t10'), task('t11')]);
    expect([second.inFlight, second.waiting]).toEqual([1, 1]); // t10 adopted, t11 launched again and waiting
    await writeFile(go, '');
    await until(() => results.length === 2 && second.inFlight === 0);
    expect(results.map((r) => [r.taskId, r.status])).toEqual([
      ['t10', farm.v1.CommitStatus.SUCCESS],
      ['t11', farm.v1.CommitStatus.SUCCESS],
    ]);
    await second.close();
    await bus.drain();
    expect(results).toHaveLength(2);
  });
});

describe("an agent process's end as the launcher's job outcome", () => {
  test.each([
    ['exited with code 0', 'succeeded'],
    ['exited with code 2', 'agent_failed'],
    ['exited with code 3', 'agent_failed'],
    ['exited with code 64', 'bad_input'],
    ['exited with code 1', 'crashed'],
    ['killed by SIGKILL', 'crashed'],
    ['killed by SIGTERM', 'cancelled'],
    ['stopped before it started', 'cancelled'],
    ['could not be started: spawn ENOENT', 'create_failed'],
    ['ended while the farm was not running', 'lost'],
  ])('%s: %s', (how, outcome) => {
    expect(processOutcome(how)).toBe(outcome);
  });
});
