import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DatasetInvalid,
  InstanceFormatError,
  parseInstances,
  patchedFiles,
  selectInstances,
  testCommandOf,
} from './instances';

const line = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    instance_id: 'owner__repo-1',
    repo: 'owner/repo',
    base_commit: 'abc1234',
    problem_statement: 'It breaks.',
    test_patch: 'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n',
    patch: '',
    FAIL_TO_PASS: '["tests/test_a.py::test_x"]',
    PASS_TO_PASS: '[]',
    ...over,
  });

test('a SWE-bench line is read with its test lists decoded from their JSON strings, unknown fields kept', () => {
  const [i] = parseInstances(line({ version: '1.0' }) + '\n\n');
  expect(i.FAIL_TO_PASS).toEqual(['tests/test_a.py::test_x']);
  expect(i.PASS_TO_PASS).toEqual([]);
  expect((i as Record<string, unknown>).version).toBe('1.0');
});

test('test lists given as JSON arrays (not strings) are accepted too', () => {
  expect(parseInstances(line({ FAIL_TO_PASS: ['a'], PASS_TO_PASS: ['b'] }))[0].PASS_TO_PASS).toEqual(['b']);
});

test('a bad line is named with its file, line number and each problem', () => {
  const text = [line(), line({ instance_id: 'x-2', FAIL_TO_PASS: 'not json', base_commit: 'main' })].join('\n');
  let error: unknown;
  try {
    parseInstances(text, 'set.jsonl');
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(InstanceFormatError);
  expect((error as InstanceFormatError).line).toBe(2);
  expect((error as Error).message).toMatch(/^set\.jsonl:2: not a task instance: /);
  expect((error as Error).message).toContain('base_commit: expected a commit id');
  expect((error as Error).message).toContain('FAIL_TO_PASS: expected a JSON-encoded list of test ids');
});

test('several bad lines are all reported; invalid JSON and a repeated id included', () => {
  const text = ['{oops', line(), line(), line({ FAIL_TO_PASS: '[]' })].join('\n');
  expect(() => parseInstances(text, 'd.jsonl')).toThrow(DatasetInvalid);
  try {
    parseInstances(text, 'd.jsonl');
  } catch (err) {
    const lines = (err as DatasetInvalid).errors.map((e) => e.line);
    expect(lines).toEqual([1, 3, 4]);
    expect((err as Error).message).toContain('d.jsonl:1: not a task instance: not valid JSON');
    expect((err as Error).message).toContain('instance_id owner__repo-1 repeats line 2');
    expect((err as Error).message).toContain('at least one test must go from failing to passing');
  }
  try {
    parseInstances('{"instance_id":"x"}', 'e.jsonl');
  } catch (err) {
    expect((err as Error).message).toContain('FAIL_TO_PASS: Required; PASS_TO_PASS: Required');
  }
});

test('selecting instances keeps the dataset order and refuses an unknown id', () => {
  const all = parseInstances([line({ instance_id: 'a-1' }), line({ instance_id: 'b-2' })].join('\n'));
  expect(selectInstances(all, ['b-2', 'a-1']).map((i) => i.instance_id)).toEqual(['a-1', 'b-2']);
  expect(() => selectInstances(all, ['c-3'])).toThrow('no such instance in the dataset: c-3');
});

test('without a test command an instance runs pytest on the files its test patch touches', () => {
  const [i] = parseInstances(line());
  expect(patchedFiles(i.test_patch)).toEqual(['tests/test_a.py']);
  expect(testCommandOf(i)).toEqual({
    command: 'python3 -m pytest -rA -p no:cacheprovider tests/test_a.py',
    parser: 'pytest',
  });
});

test("without a log parser, a published instance's log is read with the parser SWE-bench's harness uses for its repository", () => {
  const parserOf = (over: Record<string, unknown>) => testCommandOf(parseInstances(line(over))[0]).parser;
  const runtests = { test_cmd: './tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 migrations' };
  expect(parserOf({ repo: 'django/django', ...runtests })).toBe('django');
  expect(parserOf({ repo: 'astropy/astropy', test_cmd: 'pytest -rA astropy/units' })).toBe('pytest-v2');
  expect(parserOf({ repo: 'pallets/flask', test_cmd: 'pytest -rA tests/test_basic.py' })).toBe('pytest');
  // the instance's own log_parser first; the default command is pytest's, read as pytest is for the repository
  expect(parserOf({ repo: 'django/django', ...runtests, log_parser: 'unittest' })).toBe('unittest');
  expect(parserOf({ repo: 'django/django' })).toBe('pytest');
  expect(parserOf({ repo: 'scikit-learn/scikit-learn' })).toBe('pytest-v2');
});

test('a hostile test file name is one word of the default command: its $(...) is not run', () => {
  const hostile = 'test/m$(touch${IFS}x).test.js';
  const [i] = parseInstances(
    line({
      test_patch: `diff --git a/${hostile} b/${hostile}\nnew file mode 100644\n--- /dev/null\n+++ b/${hostile}\n`,
      FAIL_TO_PASS: JSON.stringify(['m']),
    }),
  );
  const { command, parser } = testCommandOf(i);
  expect(parser).toBe('node-test');
  expect(command).toBe(`node --test --test-reporter=tap 'test/m$(touch\${IFS}x).test.js'`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'eval-test-cmd-'));
  try {
    mkdirSync(path.join(dir, 'test'));
    writeFileSync(path.join(dir, hostile), "require('node:test')('m', () => {});\n");
    const log = execFileSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' });
    expect(log).toMatch(/^ok 1 - m$/m); // the file itself ran, under its own name
    expect(existsSync(path.join(dir, 'x'))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a test file named like an option is passed as a file, not an option', () => {
  const [i] = parseInstances(
    line({
      test_patch: 'diff --git a/--basetemp=x.py b/--basetemp=x.py\n--- a/--basetemp=x.py\n+++ b/--basetemp=x.py\n',
    }),
  );
  expect(testCommandOf(i).command).toBe('python3 -m pytest -rA -p no:cacheprovider ./--basetemp=x.py');
});

test('the shipped dataset parses: each instance with its repository bundle, and a test command or pytest by default', () => {
  const file = path.join(__dirname, '..', '..', '..', '..', 'eval', 'datasets', 'swe-mini', 'instances.jsonl');
  const all = parseInstances(readFileSync(file, 'utf8'), file);
  expect(all.map((i) => i.instance_id)).toEqual([
    'tkem__cachetools-387',
    'tkem__cachetools-292',
    'tkem__cachetools-218',
    'tkem__cachetools-221',
    'skorokithakis__shortuuid-49',
    'skorokithakis__shortuuid-107',
  ]);
  for (const i of all) {
    expect(i.repo_path).toBe(i.repo === 'tkem/cachetools' ? 'cachetools.bundle' : 'shortuuid.bundle');
    expect(testCommandOf(i).parser).toBe(i.repo === 'tkem/cachetools' ? 'unittest' : 'pytest');
    expect(i.FAIL_TO_PASS.length).toBeGreaterThan(0);
  }
  expect(testCommandOf(all[4]).command).toBe('python3 -m pytest -rA -p no:cacheprovider shortuuid/tests.py');
});
