// Confinement is proven once per machine and kind of sandbox, not once per agent process: the verdict one
// process proved is read by the next, kept while nothing it depends on changes, proven again when it expires or a
// run finds it broken, and only ever read from a directory and files this user alone owns.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runSandboxed } from './sandbox';
import { sharedVerdict, type SharedProbe } from './shared-verdict';

const exec = promisify(execFile);
const ROOT = join(__dirname, '../../..');

let dir: string;
const savedDir = process.env.FARM_SANDBOX_VERDICT_DIR;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdicts-test-'));
  chmodSync(dir, 0o700);
  process.env.FARM_SANDBOX_VERDICT_DIR = join(dir, 'store');
});
afterEach(() => {
  if (savedDir === undefined) delete process.env.FARM_SANDBOX_VERDICT_DIR;
  else process.env.FARM_SANDBOX_VERDICT_DIR = savedDir;
  rmSync(dir, { recursive: true, force: true });
});

/** A probe that counts its runs and answers `answer`. */
function counted<T>(answer: T, more: Partial<SharedProbe<T>> = {}): SharedProbe<T> & { runs: () => number } {
  let runs = 0;
  return {
    name: 'test',
    key: 'k',
    programs: ['sh'],
    probe: async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 20));
      return answer;
    },
    ttlMs: () => 60_000,
    runs: () => runs,
    ...more,
  };
}

test('a verdict proven once is read by the next caller, and concurrent callers wait for the one prover', async () => {
  const spec = counted({ pid: true });
  const [a, b, c] = await Promise.all([sharedVerdict(spec), sharedVerdict(spec), sharedVerdict(spec)]);
  expect(spec.runs()).toBe(1);
  expect([a, b, c].map((v) => v.proven).sort()).toEqual([false, false, true]);
  expect([a.value, b.value, c.value]).toEqual([{ pid: true }, { pid: true }, { pid: true }]);
  const later = await sharedVerdict(spec);
  expect(later).toMatchObject({ value: { pid: true }, proven: false });
  expect(spec.runs()).toBe(1);
  // no lock or temporary file is left behind
  expect(readdirSync(join(dir, 'store')).filter((f) => !f.endsWith('.json'))).toEqual([]);
});

test('what the answer depends on changes the key: another probe option or a replaced program is proven again', async () => {
  const first = counted('a');
  await sharedVerdict(first);
  const otherKey = counted('b', { key: 'other' });
  expect((await sharedVerdict(otherKey)).value).toBe('b');
  expect(otherKey.runs()).toBe(1);
  // a program of the probe found elsewhere on PATH (a new util-linux, a wrapper) is another machine for it
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'sh'), '#!/bin/sh\nexec /bin/sh "$@"\n', { mode: 0o755 });
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  try {
    const replaced = counted('c');
    expect((await sharedVerdict(replaced)).value).toBe('c');
    expect(replaced.runs()).toBe(1);
  } finally {
    process.env.PATH = path;
  }
  const again = counted('z');
  expect((await sharedVerdict(again)).value).toBe('a'); // the first verdict still holds where nothing changed
  expect(again.runs()).toBe(0);
});

test('an expired verdict is proven again; a probe without an answer shares nothing', async () => {
  const short = counted('old', { ttlMs: () => 1 });
  await sharedVerdict(short);
  await new Promise((r) => setTimeout(r, 5));
  const next = counted('new');
  expect(await sharedVerdict(next)).toMatchObject({ value: 'new', proven: true });
  const failing = counted('x', {
    key: 'fails',
    probe: async () => {
      throw new Error('out of time');
    },
  });
  await expect(sharedVerdict(failing)).rejects.toThrow('out of time');
  const after = counted('answered', { key: 'fails' });
  expect(await sharedVerdict(after)).toMatchObject({ value: 'answered', proven: true });
});

test('a lock left by a prover that is gone is taken over', async () => {
  const spec = counted('v');
  await sharedVerdict(spec); // creates the store; the lock file sits beside the verdict
  const [verdictFile] = readdirSync(join(dir, 'store'));
  rmSync(join(dir, 'store', verdictFile));
  const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  writeFileSync(join(dir, 'store', `${verdictFile}.lock`), `2147483646 ${boot}`); // no such process
  const next = counted('w');
  expect(await sharedVerdict(next)).toMatchObject({ value: 'w', proven: true });
});

test('a directory others can write, or a verdict another user could have put there, is not trusted', async () => {
  const open = join(dir, 'open');
  mkdirSync(open, { mode: 0o777 });
  chmodSync(open, 0o777);
  process.env.FARM_SANDBOX_VERDICT_DIR = open;
  const spec = counted('v');
  await sharedVerdict(spec);
  await sharedVerdict(spec);
  expect(spec.runs()).toBe(2); // every call proves for itself
  expect(readdirSync(open)).toEqual([]);
  process.env.FARM_SANDBOX_VERDICT_DIR = 'off';
  const off = counted('v');
  await sharedVerdict(off);
  await sharedVerdict(off);
  expect(off.runs()).toBe(2);
});

/** A PATH whose `unshare` logs each run before running the real one: how many namespace probes a process made. */
function countingUnshare(): { path: string; runs: () => number } {
  const bin = join(dir, 'counting-bin');
  const log = join(dir, 'unshare.log');
  mkdirSync(bin);
  const real = execFileSync('sh', ['-c', 'command -v unshare'], { encoding: 'utf8' });
  writeFileSync(join(bin, 'unshare'), `#!/bin/sh\necho run >> ${log}\nexec ${real.trim()} "$@"\n`, { mode: 0o755 });
  return {
    path: `${bin}:${process.env.PATH}`,
    runs: () => {
      try {
        return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
      } catch {
        return 0;
      }
    },
  };
}

/** What a fresh agent process would do first: ask for the namespace plan (the full probe when none is shared). */
async function planInFreshProcess(path: string): Promise<{ pid: boolean; filesystem: boolean }> {
  const code = `import('${join(ROOT, 'clients/sandbox/src/isolation.ts')}').then(async (m) => {
    const plan = await (m.namespacesFor ?? m.default.namespacesFor)('none');
    console.log(JSON.stringify({ pid: plan.pid, filesystem: plan.filesystem }));
  });`;
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, PATH: path },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

test('the second agent process on a machine runs no namespace probe: it reads the first one’s verdict', async () => {
  const unshare = countingUnshare();
  const first = await planInFreshProcess(unshare.path);
  const probesOfFirst = unshare.runs();
  expect(probesOfFirst).toBeGreaterThan(0);
  const second = await planInFreshProcess(unshare.path);
  expect(second).toEqual(first);
  expect(unshare.runs()).toBe(probesOfFirst);
});

test('a run whose confinement set-up fails forgets the verdict, and the next process proves it again', async () => {
  const unshare = countingUnshare();
  const plan = await planInFreshProcess(unshare.path);
  if (!plan.pid) return; // no namespaces here: nothing to set up, nothing to forget (the plan is proven again at 30 s)
  const savedPath = process.env.PATH;
  process.env.PATH = unshare.path; // the same machine as the fresh processes see it
  try {
    const work = mkdtempSync(join(dir, 'checkout-'));
    // a set-up failure is the set-up's exit 125 with its own words, as namespace-setup.ts stops a run
    const result = await runSandboxed({
      argv: ['sh', '-c', 'echo "farm-sandbox: cannot mount a private /tmp" >&2; exit 125'],
      cwd: work,
      timeoutMs: 30_000,
    });
    expect(result.exitCode).toBe(125);
  } finally {
    process.env.PATH = savedPath;
  }
  const before = unshare.runs();
  await planInFreshProcess(unshare.path);
  expect(unshare.runs()).toBeGreaterThan(before);
});
