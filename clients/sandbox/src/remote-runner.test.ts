// The sandbox runner's protocol and its error paths, with the runner in this test's process (this file's module
// registry becomes the runner's): one request per connection, the same results and errors as a run here, a runner
// that is not there, a request it refuses, an answer too large to be one. The runner in its own container, with
// the agent in another, is scripts/image/pod-sandbox.integration.test.ts.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@farm/runtime';
import { ConfinementUnavailable } from './confinement';
import { CommandDenied, SandboxError, SandboxRunnerUnavailable } from './errors';
import { explainFailure } from './output';
import { leftoverProcesses, startSandboxRunner, sweepLeftovers, type SandboxRunner } from './remote-runner';
import { ask, sandboxRunnerClient } from './runner-client';
import { MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES } from './runner-protocol';

let dir: string;
let checkouts: string;
let repo: string;
let control: string;
let runner: SandboxRunner;
const socketPath = () => join(control, 'runner.sock');

beforeAll(async () => {
  dir = mkdtempSync(join('/var/tmp', 'remote-runner-test-')); // outside /tmp, which the runs cover
  checkouts = join(dir, 'checkouts');
  control = join(dir, 'control');
  repo = join(checkouts, 'task-1', 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(control);
  writeFileSync(join(repo, '.git', 'config'), '[core]\n');
  runner = await startSandboxRunner({
    socketPath: socketPath(),
    checkoutRoot: checkouts,
    log: silentLogger,
    sweep: false,
  });
});
afterAll(async () => {
  await runner?.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = () => sandboxRunnerClient(socketPath(), { connectWaitMs: 2000 });

describe('the sandbox runner', () => {
  it("listens on its socket, for the containers' user only, and says what its runs get", async () => {
    expect(statSync(socketPath()).isSocket()).toBe(true);
    expect(statSync(socketPath()).mode & 0o777).toBe(0o600);
    const status = await client().status('none');
    expect(status.isolation.network).toBe('namespace');
    expect(status.isolation.filesystem).toBe('checkout-only');
    expect(status.isolation.processTree).toBe('pid-namespace');
    expect(status.gaps).toEqual([]);
  });

  it('runs a command and hands back its result: exit code, output, what was dropped from its environment', async () => {
    const result = await client().run({
      command: 'echo "in $PWD"; echo "$GREETING"; echo "${OPENAI_API_KEY:-no key}"; exit 3',
      cwd: repo,
      timeoutMs: 30_000,
      env: { GREETING: 'hello', OPENAI_API_KEY: 'sk-secret' },
    });
    expect(result.exitCode).toBe(3);
    expect(result.output).toBe(`in ${repo}\nhello\nno key\n`);
    expect(result.droppedEnv).toEqual(['OPENAI_API_KEY']);
    expect(result.isolation.network).toBe('namespace');
  });

  it("hides its control socket from the runs and keeps the checkout's .git read-only", async () => {
    const result = await client().run({
      command: [
        `ls -A ${control} | wc -l`,
        `(echo hook > .git/hooks-planted) 2>/dev/null || echo git-read-only`,
        'echo changed > file && cat file',
      ].join('; '),
      cwd: repo,
      timeoutMs: 30_000,
    });
    expect(result.output.split('\n')).toEqual(['0', 'git-read-only', 'changed', '']);
    expect(existsSync(join(repo, '.git', 'hooks-planted'))).toBe(false);
    expect(existsSync(join(repo, 'file'))).toBe(true);
  });

  it('cuts output as asked, failure reports included, and bounds what it sends', async () => {
    const result = await client().run({
      command: 'seq 1 200000; echo "=== FAILURES ==="; echo boom; exit 1',
      cwd: repo,
      timeoutMs: 30_000,
      limits: { maxOutputBytes: 2000 },
      explainOutput: explainFailure,
    });
    expect(result.outputChars).toBeGreaterThan(1_000_000);
    expect(result.output.length).toBeLessThanOrEqual(2100);
    expect(result.output).toContain('boom');
    expect(result.output).toContain('lines before the failures omitted');
  });

  it('throws the errors a run here throws: denied, not startable, refused for a missing guarantee', async () => {
    await expect(
      client().run({ command: 'git push --force origin main', cwd: repo, timeoutMs: 5000 }),
    ).rejects.toBeInstanceOf(CommandDenied);
    await expect(client().run({ argv: ['true'], cwd: join(repo, 'missing'), timeoutMs: 5000 })).rejects.toThrow(
      SandboxError,
    );
    // only checkouts: a run elsewhere is refused whatever the caller asks
    await expect(client().run({ argv: ['true'], cwd: dir, timeoutMs: 5000 })).rejects.toThrow(
      /runs commands only in checkouts under/,
    );
    // what cannot travel is refused before anything is sent
    await expect(client().run({ argv: ['true'], cwd: repo, timeoutMs: 5000, explainOutput: (o) => o })).rejects.toThrow(
      /headAndTail and explainFailure/,
    );
  });

  it('refuses a run for a guarantee its container lacks, naming the chart value', async () => {
    const gaps = [{ risk: 'network' as const, consequence: 'no private network namespace' }];
    const refused = new ConfinementUnavailable(gaps, { runner: true });
    expect(refused.message).toContain('sandbox.seccompProfile');
    // the runner answers a refusal as `unconfined`, which the client throws as this class again
    const server = createServer((c) =>
      c.once('data', () =>
        c.end(JSON.stringify({ ok: false, error: { kind: 'unconfined', message: refused.message, gaps } })),
      ),
    );
    const fake = join(control, 'fake.sock');
    await new Promise<void>((r) => server.listen(fake, r));
    try {
      const err = await sandboxRunnerClient(fake, { connectWaitMs: 1000 })
        .run({ argv: ['true'], cwd: repo, timeoutMs: 5000 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfinementUnavailable);
      expect((err as ConfinementUnavailable).gaps).toEqual(gaps);
      expect((err as Error).message).toContain('Helm value sandbox.acceptRisk');
    } finally {
      server.close();
    }
  });

  it('refuses a bad request with the reason, and a request larger than its limit unread', async () => {
    const bad = await ask(socketPath(), { op: 'run', request: { cwd: 'relative', timeoutMs: 0 } } as never, {
      connectWaitMs: 1000,
      answerTimeoutMs: 10_000,
    });
    expect(bad).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: expect.stringMatching(/cwd: must be an absolute path/) },
    });
    const raw = await rawExchange(`${'x'.repeat(MAX_REQUEST_BYTES + 10)}\n`);
    expect(JSON.parse(raw)).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: `the request is larger than ${MAX_REQUEST_BYTES} bytes` },
    });
    expect(JSON.parse(await rawExchange('not json\n'))).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: 'the request is not JSON' },
    });
  });

  it('cancels a run whose caller went away, and kills its whole tree', async () => {
    const tag = `${Date.now() % 100000}.${process.pid}`;
    const aborted = new AbortController();
    const running = client().run({
      command: `sleep 7${tag} & sleep 8${tag}`,
      cwd: repo,
      timeoutMs: 60_000,
      signal: aborted.signal,
    });
    await eventually(() => sleeps(tag).length === 2);
    aborted.abort();
    await expect(running).rejects.toThrow(/cancelled/);
    expect(await eventually(() => sleeps(tag).length === 0)).toBe(true);
    // and the runner goes on serving
    expect((await client().run({ argv: ['true'], cwd: repo, timeoutMs: 5000 })).exitCode).toBe(0);
  });
});

describe('a caller of a runner that is not there', () => {
  it('waits for a socket that appears, then gives up with SandboxRunnerUnavailable naming it', async () => {
    const missing = join(control, 'nobody.sock');
    const started = Date.now();
    const err = await sandboxRunnerClient(missing, { connectWaitMs: 600 })
      .status()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxRunnerUnavailable);
    expect((err as Error).message).toMatch(/nobody\.sock .*(ENOENT|does not answer)/);
    expect((err as SandboxRunnerUnavailable).retryable).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('says so when the runner goes away without answering, or answers too much or nonsense', async () => {
    const cases: [string, (c: Socket) => void, RegExp][] = [
      ['closes', (c) => c.destroy(), /closed the connection without answering|went away/],
      ['floods', (c) => c.end(Buffer.alloc(MAX_RESPONSE_BYTES + 1024, 0x20)), /answered more than/],
      ['babbles', (c) => c.end('hello'), /not JSON/],
    ];
    for (const [name, behave, expected] of cases) {
      const path = join(control, `${name}.sock`);
      const server = createServer((c) => c.once('data', () => behave(c)));
      await new Promise<void>((r) => server.listen(path, r));
      try {
        const err = await sandboxRunnerClient(path, { connectWaitMs: 1000 })
          .run({ argv: ['true'], cwd: repo, timeoutMs: 5000 })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(SandboxRunnerUnavailable);
        expect((err as Error).message).toMatch(expected);
      } finally {
        server.close();
      }
    }
  });

  it('reaches a socket whose path is longer than the kernel takes', async () => {
    const deep = join(dir, 'd'.repeat(60), 'e'.repeat(60));
    mkdirSync(deep, { recursive: true });
    const long = await startSandboxRunner({
      socketPath: join(deep, 'runner.sock'),
      checkoutRoot: checkouts,
      log: silentLogger,
      sweep: false,
    });
    try {
      expect(Buffer.byteLength(long.socketPath)).toBeGreaterThan(108);
      const result = await sandboxRunnerClient(long.socketPath).run({
        argv: ['echo', 'far'],
        cwd: repo,
        timeoutMs: 10_000,
      });
      expect(result.output).toBe('far\n');
    } finally {
      await long.close();
    }
  });
});

describe('the sweep after each run', () => {
  /** A /proc of processes 1 (init), `self`, and the others given with their state. */
  function fakeProc(self: number, others: Record<number, string>): string {
    const proc = mkdtempSync(join(tmpdir(), 'fake-proc-'));
    for (const [pid, state] of Object.entries({ 1: 'S', [self]: 'S', ...others })) {
      mkdirSync(join(proc, String(pid)));
      writeFileSync(join(proc, String(pid), 'stat'), `${pid} (a (strange) name) ${state} 1 1 1`);
    }
    mkdirSync(join(proc, 'self'));
    return proc;
  }

  it('kills every process but init and the runner, zombies left to init, until none is left', async () => {
    const proc = fakeProc(process.pid, { 20: 'S', 21: 'R', 22: 'Z' });
    try {
      expect(leftoverProcesses(proc).sort()).toEqual([20, 21]);
      let round = 0;
      const killed = await sweepLeftovers(proc, (pid) => {
        rmSync(join(proc, String(pid)), { recursive: true });
        // a process that forked as it died: the next round finds its child
        if (pid === 21 && round++ === 0) {
          mkdirSync(join(proc, '23'));
          writeFileSync(join(proc, '23', 'stat'), '23 (sh) S 21 1 1');
        }
      });
      expect(killed.sort()).toEqual([20, 21, 23]);
      expect(leftoverProcesses(proc)).toEqual([]);
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });

  it('is off where the runner is not alone in its PID namespace (this machine)', () => {
    expect(leftoverProcesses().length).toBeGreaterThan(0);
    expect(runner.sweeping).toBe(false);
  });
});

function sleeps(tag: string): number[] {
  return leftoverProcesses().filter((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmdline.startsWith('sleep\0') && cmdline.includes(tag);
    } catch {
      return false;
    }
  });
}

async function eventually(check: () => boolean, withinMs = 10_000): Promise<boolean> {
  for (let i = 0; i < withinMs / 50 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  return check();
}

/** Sends `text` as it is and returns the whole answer. */
function rawExchange(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath());
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(text);
  });
}
