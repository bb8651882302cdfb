// Rebuilds instances.jsonl and cachetools.bundle from a clone of https://github.com/tkem/cachetools:
//   node make-dataset.mjs /path/to/cachetools
// Each instance is a real upstream commit: base_commit is its parent, `patch` its change to src/, `test_patch` its
// change to tests/. FAIL_TO_PASS and PASS_TO_PASS are measured here by running the module's tests on the base
// with the test patch, and with both patches.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const upstream = path.resolve(process.argv[2] ?? '');
const here = path.dirname(new URL(import.meta.url).pathname);
const git = (cwd, ...args) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

const INSTANCES = [
  {
    number: 387,
    fix: '57d2e4813d9801f97034559e22428bac6f7c6c9b',
    module: 'tests.test_cachedmethod',
    problem:
      '@cachedmethod breaks unittest.mock.create_autospec\n\n' +
      'Creating an autospec of a class that has a method decorated with @cachedmethod, e.g. ' +
      '`unittest.mock.create_autospec(MyClass, instance=True)`, fails: inspecting the decorated method through the ' +
      'class (where `__get__` is called with `obj=None`) tries to replace the descriptor in the instance dict of ' +
      '`None` and raises or warns. Accessing the method through the class should return the wrapper without ' +
      'touching any instance, so that autospec works without errors or warnings.',
  },
  {
    number: 292,
    fix: 'bb4b37cfc76ba42707db59a90220bf724393d263',
    module: 'tests.test_ttl',
    problem:
      'TTLCache.expire() should tell which items expired\n\n' +
      'TTLCache.expire(time=None) removes the expired items but returns None, so a caller who needs to release ' +
      'resources held by expired values cannot find out which ones went. expire() should return an iterable of the ' +
      'expired `(key, value)` pairs (empty when nothing expired), in the order they were removed.',
  },
  {
    number: 218,
    fix: '18e5930ced2cf107c273b81d949dbab8ce3f48e1',
    module: 'tests.test_cachedmethod',
    problem:
      '@cachedmethod: cache_key attribute expects `self` to be passed explicitly\n\n' +
      'For a method decorated with @cachedmethod, `obj.method.cache_key` is the raw key function, so computing the ' +
      'key of a call means passing the instance by hand: `obj.method.cache_key(obj, 42)`. Since the wrapper is ' +
      'already bound to the instance, `obj.method.cache_key(42)` should return the same key as the decorator uses ' +
      'for `obj.method(42)` (for the default key, `keys.methodkey(obj, 42)`).',
  },
  {
    number: 221,
    fix: '91aa4c63f5716d8717ee2f898a01f40ce26986ae',
    module: 'tests.test_ttl',
    problem:
      'TTLCache: an item is still returned at exactly its expiration time\n\n' +
      'With a TTLCache(maxsize, ttl, timer), an item inserted at time t is still in the cache at time t + ttl: the ' +
      'cache treats an item as expired only once the timer is strictly past its expiration time. An item should be ' +
      'expired as soon as timer() >= its expiration time (consistently in lookups, `in`, iteration, len, ' +
      'deletion and expire()).',
  },
];

const testCmd = (module) => `PYTHONPATH=src python3 -m unittest -v ${module}`;

function run(cwd, module) {
  let out;
  try {
    out = execFileSync('bash', ['-c', `${testCmd(module)} 2>&1`], { cwd, encoding: 'utf8' });
  } catch (err) {
    out = err.stdout;
  }
  const status = new Map();
  for (const m of out.matchAll(/^(\w+) \(([\w.]+)\)(?:\n.*)?\s\.\.\. (ok|FAIL|ERROR|skipped.*)$/gm)) {
    const id = m[2].endsWith(`.${m[1]}`) ? m[2] : `${m[2]}.${m[1]}`;
    status.set(id, m[3] === 'ok' ? 'PASSED' : m[3].startsWith('skipped') ? 'SKIPPED' : 'FAILED');
  }
  return status;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'cachetools-'));
const checkout = path.join(work, 'c');
git(work, 'clone', '-q', upstream, checkout);
const lines = [];
for (const inst of INSTANCES) {
  const fix = git(upstream, 'rev-parse', inst.fix).trim();
  const base = git(upstream, 'rev-parse', `${fix}^`).trim();
  const patch = git(upstream, 'diff', base, fix, '--', 'src');
  const testPatch = git(upstream, 'diff', base, fix, '--', 'tests');
  git(checkout, 'checkout', '-qf', base);
  git(checkout, 'clean', '-qfdx');
  writeFileSync(path.join(work, 't.patch'), testPatch);
  writeFileSync(path.join(work, 'g.patch'), patch);
  git(checkout, 'apply', path.join(work, 't.patch'));
  const before = run(checkout, inst.module);
  git(checkout, 'apply', path.join(work, 'g.patch'));
  const after = run(checkout, inst.module);
  const f2p = [...after].filter(([id, s]) => s === 'PASSED' && before.get(id) === 'FAILED').map(([id]) => id);
  const p2p = [...after].filter(([id, s]) => s === 'PASSED' && before.get(id) === 'PASSED').map(([id]) => id);
  if (!f2p.length) throw new Error(`${inst.number}: no test fails before the fix`);
  lines.push(
    JSON.stringify({
      instance_id: `tkem__cachetools-${inst.number}`,
      repo: 'tkem/cachetools',
      base_commit: base,
      problem_statement: inst.problem,
      hints_text: '',
      created_at: git(upstream, 'show', '-s', '--format=%cI', fix).trim(),
      version: '',
      patch,
      test_patch: testPatch,
      FAIL_TO_PASS: JSON.stringify(f2p.sort()),
      PASS_TO_PASS: JSON.stringify(p2p.sort()),
      environment_setup_commit: base,
      repo_path: 'cachetools.bundle',
      test_cmd: testCmd(inst.module),
      log_parser: 'unittest',
      check_cmd: 'PYTHONPATH=src python3 -m unittest -q',
    }),
  );
}
writeFileSync(path.join(here, 'instances.jsonl'), lines.join('\n') + '\n');
// The bundle holds the history up to the newest base commit only: no fix commit of a later instance is in it.
const bases = lines.map((l) => JSON.parse(l));
for (const inst of bases) git(checkout, 'branch', '-f', `eval/${inst.instance_id}`, inst.base_commit);
const newest = bases
  .map((b) => b.base_commit)
  .sort((a, b) => git(checkout, 'rev-list', '--count', b).trim() - git(checkout, 'rev-list', '--count', a).trim())[0];
git(checkout, 'branch', '-f', 'main', newest);
git(
  checkout,
  'bundle',
  'create',
  path.join(here, 'cachetools.bundle'),
  'main',
  ...bases.map((b) => `eval/${b.instance_id}`),
);
rmSync(work, { recursive: true, force: true });
