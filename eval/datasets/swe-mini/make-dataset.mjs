// Rebuilds instances.jsonl and the repositories' bundles from clones of https://github.com/tkem/cachetools and
// https://github.com/skorokithakis/shortuuid:
//   node make-dataset.mjs /path/to/cachetools /path/to/shortuuid
// Each instance is a real upstream commit: base_commit is its parent, `test_patch` its change to the test files,
// `patch` the rest of it. FAIL_TO_PASS and PASS_TO_PASS are measured here by running the tests on the base with
// the test patch, and with both patches.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const git = (cwd, ...args) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

const CACHETOOLS_INSTANCES = [
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

const SHORTUUID_INSTANCES = [
  {
    number: 49,
    fix: '6565a3b44837a3b42f1aab0adbefa768adea010f',
    problem:
      'encode() and decode() accept anything and fail obscurely\n\n' +
      '`ShortUUID().encode([])` fails deep inside with an AttributeError, and `decode(42)` or `decode({})` fail ' +
      'with unrelated errors (or return garbage). Both should check their input: encode() takes a `uuid.UUID`, ' +
      'decode() a `str`, and anything else should raise a ValueError saying what was expected.',
  },
  {
    number: 107,
    fix: '6843c128cb334c272954cce8f1dce1e9f9bf4054',
    problem:
      'Allow an alphabet to be used in the order given (compatibility with other ShortUUID libraries)\n\n' +
      'set_alphabet() (and the ShortUUID constructor) always sort the alphabet, so IDs made by ShortUUID libraries ' +
      'of other languages, which use the alphabet in the order given, cannot be decoded. Add a keyword argument ' +
      '`dont_sort_alphabet` (default False) to both: when true the alphabet keeps its order (duplicates still ' +
      'removed, first occurrence kept), and encode/decode round-trip with it.',
  },
];

const REPOS = [
  {
    name: 'cachetools',
    repo: 'tkem/cachetools',
    instances: CACHETOOLS_INSTANCES,
    isTest: (file) => file.startsWith('tests/'),
    testCmd: (inst) => `PYTHONPATH=src python3 -m unittest -v ${inst.module}`,
    parser: 'unittest',
    checkCmd: 'PYTHONPATH=src python3 -m unittest -q',
  },
  {
    name: 'shortuuid',
    repo: 'skorokithakis/shortuuid',
    instances: SHORTUUID_INSTANCES,
    isTest: (file) => /(^|\/)test[^/]*\.py$/.test(file),
    // no test_cmd: farm eval runs pytest -rA over the test patch's files
    testCmd: undefined,
    parser: 'pytest',
    checkCmd: 'python3 -m pytest -q -p no:cacheprovider shortuuid/test*.py',
  },
];

function statuses(cwd, command, parser) {
  let out;
  try {
    out = execFileSync('bash', ['-c', `${command} 2>&1`], { cwd, encoding: 'utf8' });
  } catch (err) {
    out = err.stdout;
  }
  const status = new Map();
  if (parser === 'unittest') {
    for (const m of out.matchAll(/^(\w+) \(([\w.]+)\)(?:\n.*)?\s\.\.\. (ok|FAIL|ERROR|skipped.*)$/gm)) {
      const id = m[2].endsWith(`.${m[1]}`) ? m[2] : `${m[2]}.${m[1]}`;
      status.set(id, m[3] === 'ok' ? 'PASSED' : m[3].startsWith('skipped') ? 'SKIPPED' : 'FAILED');
    }
  } else {
    for (const m of out.matchAll(/^(PASSED|FAILED|ERROR|SKIPPED) (\S+::.+?)(?: - .*)?$/gm)) {
      status.set(m[2], m[1] === 'PASSED' ? 'PASSED' : m[1] === 'SKIPPED' ? 'SKIPPED' : 'FAILED');
    }
  }
  return status;
}

const lines = [];
const work = mkdtempSync(path.join(os.tmpdir(), 'swe-mini-'));
REPOS.forEach((spec, index) => {
  const upstream = path.resolve(process.argv[2 + index] ?? '');
  const checkout = path.join(work, spec.name);
  git(work, 'clone', '-q', upstream, checkout);
  const made = [];
  for (const inst of spec.instances) {
    const fix = git(upstream, 'rev-parse', inst.fix).trim();
    const base = git(upstream, 'rev-parse', `${fix}^`).trim();
    const changed = git(upstream, 'diff', '--name-only', base, fix).trim().split('\n');
    const testFiles = changed.filter(spec.isTest);
    const patch = git(upstream, 'diff', base, fix, '--', ...changed.filter((f) => !spec.isTest(f)));
    const testPatch = git(upstream, 'diff', base, fix, '--', ...testFiles);
    const command = spec.testCmd
      ? spec.testCmd(inst)
      : `python3 -m pytest -rA -p no:cacheprovider ${testFiles.join(' ')}`;
    git(checkout, 'checkout', '-qf', base);
    git(checkout, 'clean', '-qfdx');
    writeFileSync(path.join(work, 't.patch'), testPatch);
    writeFileSync(path.join(work, 'g.patch'), patch);
    git(checkout, 'apply', path.join(work, 't.patch'));
    const before = statuses(checkout, command, spec.parser);
    git(checkout, 'apply', path.join(work, 'g.patch'));
    const after = statuses(checkout, command, spec.parser);
    const f2p = [...after].filter(([id, s]) => s === 'PASSED' && before.get(id) === 'FAILED').map(([id]) => id);
    const p2p = [...after].filter(([id, s]) => s === 'PASSED' && before.get(id) === 'PASSED').map(([id]) => id);
    if (!f2p.length) throw new Error(`${spec.name} ${inst.number}: no test fails before the fix`);
    const instance = {
      instance_id: `${spec.repo.replace('/', '__')}-${inst.number}`,
      repo: spec.repo,
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
      repo_path: `${spec.name}.bundle`,
      ...(spec.testCmd ? { test_cmd: command, log_parser: spec.parser } : {}),
      check_cmd: spec.checkCmd,
    };
    made.push(instance);
    lines.push(JSON.stringify(instance));
  }
  // The bundle holds the history up to the newest base commit only: no fix commit of a later instance is in it.
  for (const inst of made) git(checkout, 'branch', '-f', `eval/${inst.instance_id}`, inst.base_commit);
  const count = (sha) => Number(git(checkout, 'rev-list', '--count', sha).trim());
  const newest = made.map((i) => i.base_commit).sort((a, b) => count(b) - count(a))[0];
  git(checkout, 'branch', '-f', 'main', newest);
  git(
    checkout,
    'bundle',
    'create',
    path.join(here, `${spec.name}.bundle`),
    'main',
    ...made.map((i) => `eval/${i.instance_id}`),
  );
});
writeFileSync(path.join(here, 'instances.jsonl'), lines.join('\n') + '\n');
rmSync(work, { recursive: true, force: true });
