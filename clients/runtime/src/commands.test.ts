import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CommandFailed,
  CommandHelperLost,
  commandHelperPid,
  runCommand,
  startCommand,
  useCommandHelper,
  type PipedCommand,
} from './commands';
import { isProcessAlive } from './process-identity';

const ENTRY = path.join(__dirname, 'command-helper-main.ts');

/** Everything a piped command wrote on stdout, and how it ended. */
function outcome(c: PipedCommand): Promise<{ out: string; err: string; code: number | null }> {
  let out = '';
  let err = '';
  c.stdout.on('data', (d: Buffer) => (out += d.toString()));
  c.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => c.on('close', (code) => resolve({ out, err, code })));
}

async function waitUntil(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
}

describe.each([
  ['in this process', false],
  ['by the command helper process', true],
])('commands run %s', (_how, withHelper) => {
  let tmp: string;
  let stop: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-commands-'));
    if (withHelper) stop = await useCommandHelper({ entry: ENTRY });
  });
  afterEach(async () => {
    await stop?.();
    stop = undefined;
    await rm(tmp, { recursive: true, force: true });
  });

  it('runs a command in its directory with its environment and returns what it printed', async () => {
    const { stdout } = await runCommand('sh', ['-c', 'pwd; echo "$FARM_TEST_VALUE"; echo warn >&2'], {
      cwd: tmp,
      env: { ...process.env, FARM_TEST_VALUE: 'from the caller' },
    });
    expect(stdout.split('\n').slice(0, 2)).toEqual([tmp, 'from the caller']);
    expect(commandHelperPid() !== undefined).toBe(withHelper);
  });

  it('a command that exits non-zero or cannot start fails with its code and stderr, as execFile says', async () => {
    const failed = await runCommand('git', ['-C', tmp, 'rev-parse', '--git-dir']).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CommandFailed);
    expect(failed).toMatchObject({ code: 128, stderr: expect.stringMatching(/not a git repository/) });
    const missing = await runCommand('farm-no-such-command', []).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the output of many commands at once apart', async () => {
    const outs = await Promise.all(
      Array.from({ length: 40 }, (_, i) => runCommand('sh', ['-c', `echo ${i}`]).then((o) => o.stdout.trim())),
    );
    expect(outs).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
  });

  it('streams a piped command both ways, and closes after its last output', async () => {
    const c = startCommand('sh', ['-c', 'while read line; do echo "got $line"; done; echo bye >&2; exit 3']);
    const ended = outcome(c);
    c.stdin.write('one\n');
    c.stdin.write(Buffer.from('two\n'));
    c.stdin.end();
    expect(await ended).toEqual({ out: 'got one\ngot two\n', err: 'bye\n', code: 3 });
  });

  it('a piped command can be killed', async () => {
    const c = startCommand('sleep', ['30']);
    const ended = outcome(c);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.kill('SIGKILL')).toBe(true);
    expect((await ended).code).toBeNull();
  });
});

describe('the command helper process', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('killed mid-command: that command fails as lost, the next one starts a new helper', async () => {
    stop = await useCommandHelper({ entry: ENTRY });
    const first = commandHelperPid()!;
    const slow = runCommand('sleep', ['30']).catch((e: unknown) => e);
    const piped = startCommand('sleep', ['30']);
    const pipedError = new Promise<Error>((resolve) => piped.on('error', resolve));
    await new Promise((r) => setTimeout(r, 100));
    process.kill(first, 'SIGKILL');
    expect(await slow).toBeInstanceOf(CommandHelperLost);
    expect(await pipedError).toBeInstanceOf(CommandHelperLost);

    const { stdout } = await runCommand('sh', ['-c', 'echo again']);
    expect(stdout).toBe('again\n');
    expect(commandHelperPid()).toBeGreaterThan(0);
    expect(commandHelperPid()).not.toBe(first);
  });

  it('stopped, it is gone and commands run in this process again', async () => {
    const script = path.join(os.tmpdir(), `farm-commands-ppid-${process.pid}.sh`);
    await writeFile(script, 'echo $PPID\n');
    try {
      const stopHelper = await useCommandHelper({ entry: ENTRY });
      const pid = commandHelperPid()!;
      expect((await runCommand('sh', [script])).stdout.trim()).toBe(String(pid));
      await stopHelper();
      await waitUntil(() => !isProcessAlive(pid), 'the helper to exit');
      expect(commandHelperPid()).toBeUndefined();
      expect((await runCommand('sh', [script])).stdout.trim()).toBe(String(process.pid));
    } finally {
      await rm(script, { force: true });
    }
  });
});
