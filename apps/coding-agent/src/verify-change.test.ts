// What verifies a change: the pure rules (test files, narrowing, the verdict), and the differential run for
// real in the sandbox on a small Node repository (node --test) and a Python one (pytest).
import fs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { farm } from '@farm/proto';
import { Workspace } from './tools/workspace';
import {
  describeVerification,
  isRunnableTest,
  isTestFile,
  narrowTestStep,
  noTestsRefusal,
  unverifiedMayPass,
  unverifiedReason,
} from './verify-change';

const K = farm.v1.TaskKind;
const R = farm.v1.TestRunOutcome;

test('test files by convention', () => {
  const tests = ['tests/test_calc.py', 'calc_test.py', 'test_x.py', 'src/a.test.ts', 'lib/b.spec.js', 'test/app.js'];
  const code = ['calc.py', 'src/testing.ts', 'lib/contest.js', 'latest.py'];
  expect(tests.filter(isTestFile)).toEqual(tests);
  expect(code.filter(isTestFile)).toEqual([]);
  // Test helpers and data count as tests (a change of only those is tests-only) but are not run on their own.
  const helpers = ['tests/conftest.py', 'test/support/env.js', 'tests/fixtures/a.py', 'test/data.json'];
  expect(helpers.filter(isTestFile)).toEqual(helpers);
  expect([...tests, ...helpers].filter(isRunnableTest)).toEqual(tests);
});

test.each([
  ['pytest -q -p no:cacheprovider -m fast', 'pytest -q -p no:cacheprovider tests/test_a.py', true],
  ['node --test', 'node --test tests/test_a.py', true],
  ['python3 -m pytest -m fast -q', 'python3 -m pytest -q tests/test_a.py', true],
  ['npx --no-install jest --ci --bail', 'npx --no-install jest --ci --bail tests/test_a.py', true],
  ['npm run --silent test', 'npm run --silent test', false],
  ['pytest && echo ok', 'pytest && echo ok', false],
])('the test step %s narrowed to the change’s test files: %s', (run, narrowedRun, narrowed) => {
  expect(narrowTestStep({ name: 'test', run }, ['tests/test_a.py'])).toEqual({
    step: { name: 'test', run: narrowedRun },
    narrowed,
  });
});

test('a behaviour goal is unverified when the change is tests-only or its tests pass on the base', () => {
  const differential = (base: farm.v1.TestRunOutcome, branch = R.TEST_RUN_PASSED) => ({
    testFiles: ['t.test.js'],
    command: 'node --test t.test.js',
    base,
    branch,
  });
  expect(unverifiedReason(K.FEATURE, { testsOnly: true })).toMatch(/only adds or changes tests/);
  expect(unverifiedReason(K.TEST, { testsOnly: true })).toBeUndefined();
  expect(unverifiedReason(K.FIX, { differential: differential(R.TEST_RUN_PASSED) })).toMatch(
    /pass on the base commit without the change/,
  );
  expect(unverifiedReason(K.FIX, { differential: differential(R.TEST_RUN_FAILED) })).toBeUndefined();
  expect(unverifiedReason(K.REFACTOR, { differential: differential(R.TEST_RUN_PASSED) })).toBeUndefined();
  expect(unverifiedReason(K.DOCS, { differential: differential(R.TEST_RUN_FAILED, R.TEST_RUN_FAILED) })).toMatch(
    /fail on the branch/,
  );
});

test('a behaviour goal whose change no test exercises is unverified, saying so; other kinds are judged by their checks', () => {
  expect(unverifiedReason(K.FEATURE, { checks: [{ name: 'test', ok: true }] })).toMatch(
    /^no test exercises the change: it adds or changes no test/,
  );
  expect(unverifiedReason(K.FIX, {})).toMatch(/^no test exercises the change/);
  for (const kind of [K.DOCS, K.REFACTOR, K.TEST, K.TASK_KIND_UNSPECIFIED])
    expect(unverifiedReason(kind, {})).toBeUndefined();
  // New tests that could not run on the base show nothing either.
  expect(
    unverifiedReason(K.FIX, {
      differential: {
        testFiles: ['t.test.js'],
        base: R.TEST_RUN_NOT_RUN,
        branch: R.TEST_RUN_NOT_RUN,
        reason: 'the check plan has no test step',
      },
    }),
  ).toBe(
    "the change's tests (t.test.js) could not be run on the base commit (the check plan has no test step): nothing shows they fail without the change",
  );
});

test.each([
  ['review', false, false],
  ['review', true, true],
  ['deliver', false, true],
  ['deliver', true, true],
  ['refuse', false, false],
  ['refuse', true, false],
] as const)('FARM_UNVERIFIED_CHANGES=%s, accepted by the reviewer: %s -> may pass: %s', (policy, accepted, passes) => {
  expect(unverifiedMayPass(policy, accepted)).toBe(passes);
});

describe('the differential, run in the sandbox', () => {
  let root: string;
  let base: string;
  const commitBase = async (files: Record<string, string>) => {
    await git.init({ fs, dir: root, defaultBranch: 'main' });
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
      await git.add({ fs, dir: root, filepath: file });
    }
    base = await git.commit({ fs, dir: root, message: 'base', author: { name: 't', email: 't@t' } });
  };
  const write = (file: string, text: string) => writeFile(path.join(root, file), text);
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'verify-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const NODE_TEST = `const test = require('node:test');\nconst assert = require('node:assert');\nconst { mul } = require('../calc');\ntest('mul', () => assert.strictEqual(mul(2, 3), 6));\n`;

  test('node --test: the new test fails on the base and passes on the branch; the checks are recorded', async () => {
    await commitBase({ 'calc.js': 'exports.add = (a, b) => a + b;\n', 'test/add.test.js': '' });
    await write('calc.js', 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n');
    await write('test/mul.test.js', NODE_TEST);
    const ws = new Workspace({
      root,
      base,
      checks: [{ name: 'test', run: 'node --test' }],
      skippedChecks: [{ name: 'lint', reason: 'eslint is not installed here' }],
      checkTimeoutSeconds: 60,
    });
    const checks = await ws.runRepositoryChecks();
    expect(checks.ok).toBe(true);
    const v = await ws.verify(K.FEATURE, checks);
    expect(v).toEqual({
      checks: [
        { name: 'test', run: 'node --test', ok: true },
        { name: 'lint', skipped: true, reason: 'eslint is not installed here' },
      ],
      testsOnly: false,
      differential: {
        testFiles: ['test/mul.test.js'],
        command: 'node --test test/mul.test.js',
        narrowed: true,
        base: R.TEST_RUN_FAILED,
        branch: R.TEST_RUN_PASSED,
      },
    });
    expect(describeVerification(v)).toBe(
      'verification: checks: test passed, lint skipped (eslint is not installed here); differential of test/mul.test.js (`node --test test/mul.test.js`): base failed, branch passed',
    );
    // A second finish on the same tree reuses the verification; an edit makes a new one.
    const runs = jest.spyOn(ws, 'runStepsIn');
    expect(await ws.verify(K.FEATURE, checks)).toEqual(v);
    expect(runs).not.toHaveBeenCalled();
    await write('calc.js', 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => b * a;\n');
    expect((await ws.verify(K.FEATURE, checks)).differential).toMatchObject({ base: R.TEST_RUN_FAILED });
    expect(runs).toHaveBeenCalledTimes(2);
    // The base copy is gone; the branch's tree is as it was.
    expect(fs.existsSync(`${root}.base`)).toBe(false);
    expect(fs.readFileSync(path.join(root, 'calc.js'), 'utf8')).toMatch(/mul/);
  });

  test('pytest: a test that passes without the change does not verify a fix; a tests-only change neither', async () => {
    await commitBase({ 'calc.py': 'def add(a, b):\n    return a + b\n', 'tests/test_add.py': '' });
    await write('tests/test_add.py', 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n');
    const ws = new Workspace({
      root,
      base,
      checks: [{ name: 'test', run: 'python3 -m pytest -q -p no:cacheprovider' }],
      checkTimeoutSeconds: 60,
      env: { PYTHONPATH: '.' },
    });
    const testsOnly = await ws.verify(K.FIX, await ws.runRepositoryChecks());
    expect(testsOnly).toMatchObject({
      testsOnly: true,
      differential: { base: R.TEST_RUN_PASSED, branch: R.TEST_RUN_PASSED, narrowed: true },
      unverifiedReason: 'the goal asks for behaviour, but the change only adds or changes tests',
    });

    await write('calc.py', 'def add(a, b):\n    return b + a\n'); // a change that the new test does not need
    const refactor = await ws.verify(K.FIX, await ws.runRepositoryChecks());
    expect(refactor).toMatchObject({ testsOnly: false, differential: { base: R.TEST_RUN_PASSED } });
    expect(refactor.unverifiedReason).toMatch(/^the change's tests \(tests\/test_add\.py\) pass on the base commit/);
  });
});

describe('a behaviour goal no test could verify ends before the model is asked', () => {
  const K = farm.v1.TaskKind;
  const none = { steps: [{ name: 'lint', run: 'ruff check .' }], skipped: [], source: 'detected' };

  it('names what was looked for, and --check-command and .farm/checks.json', () => {
    const why = noTestsRefusal(K.FIX, none, 'review')!;
    expect(why).toMatch(/^this change cannot be verified: no tests were found/);
    expect(why).toMatch(/farm submit --check-command/);
    expect(why).toMatch(/\.farm\/checks\.json/);
    expect(why).toMatch(/FARM_UNVERIFIED_CHANGES=deliver/);
  });

  it('says the tests it found but cannot run, and a configuration without a test step', () => {
    const skipped = {
      ...none,
      skipped: [{ name: 'test', reason: 'the repository uses pytest but it is not installed here' }],
    };
    expect(noTestsRefusal(K.FEATURE, skipped, 'refuse')).toMatch(
      /^this change cannot be verified: its tests cannot run here: the repository uses pytest but it is not installed here/,
    );
    expect(noTestsRefusal(K.FEATURE, { ...none, source: 'config' }, 'review')).toMatch(/no step named "test"/);
  });

  it('lets through what needs no test, what has one, and what the operator lets through unverified', () => {
    expect(noTestsRefusal(K.DOCS, none, 'review')).toBeUndefined();
    expect(noTestsRefusal(K.REFACTOR, none, 'review')).toBeUndefined();
    expect(noTestsRefusal(K.FIX, none, 'deliver')).toBeUndefined();
    const tested = { ...none, steps: [{ name: 'test', run: 'pytest -q' }] };
    expect(noTestsRefusal(K.FIX, tested, 'refuse')).toBeUndefined();
    // a task's own check command is its test step
    expect(
      noTestsRefusal(K.FIX, { ...none, steps: [{ name: 'check', run: 'make test' }], source: 'config' }, 'review'),
    ).toBeUndefined();
  });
});
