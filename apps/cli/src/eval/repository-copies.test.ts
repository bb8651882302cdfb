import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseInstances } from './instances';
import { InfraFailed, InstanceSetupFailed } from './instance-workspace';
import { RepositoryCopies, gitCopyOps, type CopyOps } from './repository-copies';

const SET = path.join(__dirname, '..', '..', '..', '..', 'eval', 'datasets', 'swe-mini');

const instance = (id: string, base: string, repo = 'acme/lib') =>
  parseInstances(
    JSON.stringify({
      instance_id: id,
      repo,
      base_commit: base,
      problem_statement: 'p',
      test_patch: 't',
      FAIL_TO_PASS: '["x"]',
      PASS_TO_PASS: '[]',
    }),
  )[0];

/** Copy operations the test ends by hand: each call is recorded and waits until the test settles it. */
function manualOps(commits: Set<string>) {
  const calls: { op: string; args: string[]; done(err?: Error): void }[] = [];
  const pending = (op: string, ...args: string[]) =>
    new Promise<void>((resolve, reject) => calls.push({ op, args, done: (err) => (err ? reject(err) : resolve()) }));
  let made = false;
  const branches = new Map<string, string>();
  const ops: CopyOps = {
    exists: () => made,
    clone: (source, dir) => pending('clone', source, dir).then(() => void (made = true)),
    hasCommit: async (_dir, sha) => commits.has(sha),
    fetchBranches: (dir, source) => pending('fetchBranches', dir, source),
    fetchCommit: (dir, source, sha) => pending('fetchCommit', dir, source, sha),
    setBranch: async (_dir, branch, sha) => void branches.set(branch, sha),
  };
  const open = (op: string) => calls.filter((c) => c.op === op);
  return { ops, calls, open, branches };
}
const settle = () => new Promise((r) => setImmediate(r));

describe("instances of one repository share one copy and set up at once, never waiting on one another's work", () => {
  test('made once: the instances arriving while it is made wait for that one clone, then each goes on its own', async () => {
    const m = manualOps(new Set(['aaaaaa1', 'aaaaaa2', 'aaaaaa3', 'aaaaaa4']));
    const copies = new RepositoryCopies(m.ops);
    const order: string[] = [];
    const prepared = ['1', '2', '3', '4'].map((n) =>
      copies.prepare(instance(`acme__lib-${n}`, `aaaaaa${n}`), 'https://x/lib.git', '/run/repos').then((dir) => {
        order.push(n);
        return dir;
      }),
    );
    await settle();
    expect(m.open('clone')).toHaveLength(1); // one clone for the four of them
    expect(order).toEqual([]);
    m.open('clone')[0].done();
    expect(await Promise.all(prepared)).toEqual(Array(4).fill('/run/repos/acme__lib'));
    expect(m.calls.map((c) => c.op)).toEqual(['clone']); // nothing else: every base commit was there
    expect(Object.fromEntries(m.branches)).toEqual({
      'eval-base/acme__lib-1': 'aaaaaa1',
      'eval-base/acme__lib-2': 'aaaaaa2',
      'eval-base/acme__lib-3': 'aaaaaa3',
      'eval-base/acme__lib-4': 'aaaaaa4',
    });
    // a later instance finds the copy made: no clone, no wait
    await copies.prepare(instance('acme__lib-5', 'aaaaaa1'), 'https://x/lib.git', '/run/repos');
    expect(m.open('clone')).toHaveLength(1);
  });

  test('a base commit the copy lacks is fetched for its instances alone: the others are ready meanwhile', async () => {
    const commits = new Set(['aaaaaa1', 'aaaaaa2']);
    const m = manualOps(commits);
    const copies = new RepositoryCopies(m.ops);
    const clone = copies.prepare(instance('acme__lib-0', 'aaaaaa1'), 'https://x/lib.git', '/run/repos');
    await settle();
    m.open('clone')[0].done();
    await clone;
    const missingOne = copies.prepare(instance('acme__lib-1', 'bbbbbb1'), 'https://x/lib.git', '/run/repos');
    const missingTwo = copies.prepare(instance('acme__lib-2', 'bbbbbb2'), 'https://x/lib.git', '/run/repos');
    await settle();
    expect(m.open('fetchBranches')).toHaveLength(1); // one fetch at a time per copy
    // an instance whose commit is there does not wait for the fetch
    await expect(copies.prepare(instance('acme__lib-3', 'aaaaaa2'), 'https://x/lib.git', '/run/repos')).resolves.toBe(
      '/run/repos/acme__lib',
    );
    commits.add('bbbbbb1');
    m.open('fetchBranches')[0].done();
    await expect(missingOne).resolves.toBe('/run/repos/acme__lib');
    await settle();
    // the second asked while the first fetch ran: it gets one that started after it asked
    expect(m.open('fetchBranches')).toHaveLength(2);
    commits.add('bbbbbb2');
    m.open('fetchBranches')[1].done();
    await expect(missingTwo).resolves.toBe('/run/repos/acme__lib');
    expect(m.branches.get('eval-base/acme__lib-2')).toBe('bbbbbb2');
  });

  test("a commit on none of the source's branches is fetched by its id; one the source has not is the instance's error", async () => {
    const full = 'c'.repeat(40);
    const commits = new Set(['aaaaaa1']);
    const m = manualOps(commits);
    const copies = new RepositoryCopies(m.ops);
    const first = copies.prepare(instance('acme__lib-1', full), 'https://x/lib.git', '/run/repos');
    await settle();
    m.open('clone')[0].done();
    await settle();
    m.open('fetchBranches')[0].done();
    await settle();
    expect(m.open('fetchCommit').map((c) => c.args[2])).toEqual([full]);
    commits.add(full);
    m.open('fetchCommit')[0].done();
    await expect(first).resolves.toBe('/run/repos/acme__lib');

    const gone = copies.prepare(instance('acme__lib-2', 'd'.repeat(40)), 'https://x/lib.git', '/run/repos');
    await settle();
    m.open('fetchBranches')[1].done();
    await settle();
    m.open('fetchCommit')[1].done(Object.assign(new Error('x'), { stderr: 'fatal: remote error: not our ref' }));
    await expect(gone).rejects.toThrow(
      new InstanceSetupFailed(`base commit missing: ${'d'.repeat(40)} is not in https://x/lib.git`),
    );
  });

  test('a clone that fails fails every instance waiting for it, the network as the environment, a wrong source as the instance', async () => {
    const m = manualOps(new Set(['aaaaaa1']));
    const copies = new RepositoryCopies(m.ops);
    const waiting = ['1', '2'].map((n) =>
      copies.prepare(instance(`acme__lib-${n}`, 'aaaaaa1'), 'https://x/lib.git', '/r'),
    );
    await settle();
    m.open('clone')[0].done(
      Object.assign(new Error('Command failed: git clone'), {
        stderr: "fatal: unable to access 'https://x/lib.git/': Could not resolve host: x",
      }),
    );
    for (const p of waiting) {
      const err = await p.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InfraFailed);
      expect((err as Error).message).toBe(
        "repository unreachable: https://x/lib.git: fatal: unable to access 'https://x/lib.git/': Could not resolve host: x",
      );
    }
    // the next instance tries again (the network may be back); a source that is not a repository is the instance's
    const next = copies.prepare(instance('acme__lib-3', 'aaaaaa1'), 'https://x/lib.git', '/r');
    await settle();
    expect(m.open('clone')).toHaveLength(2);
    m.open('clone')[1].done(
      Object.assign(new Error('x'), { stderr: "fatal: repository 'https://x/lib.git/' not found" }),
    );
    await expect(next).rejects.toBeInstanceOf(InstanceSetupFailed);
  });
});

test('with git: four instances of the shipped repository at once share one copy, each base on its branch', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'eval-copies-'));
  try {
    const shipped = parseInstances(readFileSync(path.join(SET, 'instances.jsonl'), 'utf8')).filter(
      (i) => i.repo === 'tkem/cachetools',
    );
    expect(shipped).toHaveLength(4);
    const repos = path.join(tmp, 'repos');
    // an interrupted earlier clone: left beside, replaced, never taken for the copy
    mkdirSync(path.join(repos, 'tkem__cachetools..partial', '.git'), { recursive: true });
    writeFileSync(path.join(repos, 'tkem__cachetools..partial', '.git', 'HEAD'), 'junk\n');
    const copies = new RepositoryCopies(gitCopyOps);
    const source = path.join(SET, 'cachetools.bundle');
    const dirs = await Promise.all(shipped.map((i) => copies.prepare(i, source, repos)));
    expect(new Set(dirs)).toEqual(new Set([path.join(repos, 'tkem__cachetools')]));
    expect(readdirSync(repos)).toEqual(['tkem__cachetools']);
    for (const i of shipped) {
      const at = execFileSync('git', ['-C', dirs[0], 'rev-parse', `eval-base/${i.instance_id}`], { encoding: 'utf8' });
      expect(at.trim()).toBe(i.base_commit);
    }
    // no automatic gc in a copy whose objects the scratch checkouts borrow
    expect(execFileSync('git', ['-C', dirs[0], 'config', 'gc.auto'], { encoding: 'utf8' }).trim()).toBe('0');
    expect(existsSync(path.join(dirs[0], '.git'))).toBe(true);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
