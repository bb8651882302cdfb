// A machine too busy to answer the sandbox's probe in time is not a machine that cannot confine: the probe's
// running out of time is said as such, never kept as the answer, and the next probe's answer counts.
import { silentLogger } from '@farm/runtime';
import { ProbeTimedOut } from './errors';
import { setProbeTimeoutsForTests } from './isolation';
import { confinementStatus, watchConfinement } from './sandbox';

// No process starts within a millisecond: every probe command runs out of time, as at load 40 with 10 s.
const OUT_OF_TIME = [1, 1];

afterEach(() => setProbeTimeoutsForTests(undefined));

test('a probe out of time on every attempt is ProbeTimedOut, retryable, naming the command', async () => {
  setProbeTimeoutsForTests(OUT_OF_TIME);
  const err = await confinementStatus([]).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProbeTimedOut);
  expect((err as ProbeTimedOut).retryable).toBe(true);
  expect((err as ProbeTimedOut).message).toMatch(/did not answer in time \(attempts of 0.001 s, 0.001 s\): \S+/);
  expect((err as ProbeTimedOut).message).toMatch(/the machine is busy/);
});

test('no answer is kept: a long-running process is degraded while probing, not refusing, and takes the answer when it comes', async () => {
  setProbeTimeoutsForTests(OUT_OF_TIME);
  const watch = await watchConfinement(silentLogger, 20);
  try {
    const probing = watch.health();
    expect(probing.healthy).toBe(true);
    expect(probing.reasons).toEqual([expect.stringMatching(/^degraded: probing the sandbox \(the sandbox probe/)]);
    expect(watch.missing()).toEqual([]);
    setProbeTimeoutsForTests(undefined);
    // A probe the watch started before is still out of time (its attempts were 1 ms): asked again, as any caller is.
    let status: Awaited<ReturnType<typeof confinementStatus>> | undefined;
    for (let tries = 0; !status; tries++) {
      status = await confinementStatus().catch((err: unknown) => {
        if (!(err instanceof ProbeTimedOut) || tries >= 20) throw err;
        expect(err.message).toMatch(/attempts of 0.001 s, 0.001 s/); // never the default attempts' words
        return undefined;
      });
    }
    for (let i = 0; watch.health().reasons.some((r) => r.startsWith('degraded')); i++) {
      if (i > 500) throw new Error('the watch never took the probe’s answer');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(watch.missing()).toEqual(status.missing);
    expect(watch.health().healthy).toBe(status.missing.length === 0);
  } finally {
    watch.stop();
  }
});
