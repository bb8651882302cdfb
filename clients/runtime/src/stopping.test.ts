import { createServer, type AddressInfo } from 'node:net';
import { retryWhileRefused, retryWithBackoff } from './retry';
import { ProcessStopping, beginStopping, resetStoppingForTests, sleepUnlessStopping, stoppingSignal } from './stopping';

afterEach(() => resetStoppingForTests());

/** A port nobody listens on: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

test('a call retried while its server refuses connections tries no more once the process begins to stop', async () => {
  const port = await closedPort();
  let tries = 0;
  const call = retryWhileRefused(async () => {
    tries++;
    await fetch(`http://127.0.0.1:${port}/`);
  }).catch((e: unknown) => e);
  while (tries < 2) await new Promise((r) => setTimeout(r, 5));
  beginStopping('SIGTERM');
  const err = await call;
  // The last error of the call itself, after at most one try more; not 90 s of them.
  expect(String((err as Error).cause ?? err)).toMatch(/ECONNREFUSED/);
  expect(tries).toBeLessThanOrEqual(3);
});

test('a retry that did not opt in still retries while stopping (a write the stop itself makes)', async () => {
  beginStopping('SIGTERM');
  let tries = 0;
  const value = await retryWithBackoff(
    async () => {
      if (++tries < 3) throw new Error('not yet');
      return 'written';
    },
    { forMs: 10_000, shouldRetry: () => true },
  );
  expect([value, tries]).toEqual(['written', 3]);
});

test('a wait ends with ProcessStopping when the stop begins; the signal says why', async () => {
  const waiting = sleepUnlessStopping(600_000).catch((e: unknown) => e);
  beginStopping('SIGINT');
  const err = await waiting;
  expect(err).toBeInstanceOf(ProcessStopping);
  expect(stoppingSignal().reason).toBe(err);
  expect((err as Error).message).toMatch(/stopping \(SIGINT\)/);
  await expect(sleepUnlessStopping(1)).rejects.toBeInstanceOf(ProcessStopping);
});
