import { brokenAtBase, gradeTests, resolveTest } from './grading';
import { parseTestLog, type TestStatus } from './test-logs';

const statuses = (o: Record<string, TestStatus>) => new Map(Object.entries(o));
const clean = { exitCode: 1, timedOut: false };

test('resolved when every FAIL_TO_PASS passes and every PASS_TO_PASS is kept', () => {
  const g = gradeTests(statuses({ f: 'PASSED', p: 'PASSED' }), ['f'], ['p']);
  expect(g).toEqual({
    resolved: true,
    failToPass: { passed: ['f'], failed: [] },
    passToPass: { passed: ['p'], failed: [] },
  });
});

test('unresolved when a FAIL_TO_PASS still fails, a PASS_TO_PASS broke, or a listed test did not run', () => {
  expect(gradeTests(statuses({ f: 'FAILED', p: 'PASSED' }), ['f'], ['p']).resolved).toBe(false);
  expect(gradeTests(statuses({ f: 'PASSED', p: 'FAILED' }), ['f'], ['p']).resolved).toBe(false);
  expect(gradeTests(statuses({ f: 'PASSED', p: 'ERROR' }), ['f'], ['p']).resolved).toBe(false);
  const missing = gradeTests(statuses({ f: 'PASSED' }), ['f'], ['p']);
  expect(missing.resolved).toBe(false);
  expect(missing.passToPass.failed).toEqual(['p']);
});

test("SWE-bench's readings of XFAIL and SKIPPED: XFAIL passes; a skip is no FAIL_TO_PASS pass, and no PASS_TO_PASS regression", () => {
  expect(gradeTests(statuses({ f: 'XFAIL' }), ['f'], []).resolved).toBe(true);
  expect(gradeTests(statuses({ f: 'SKIPPED' }), ['f'], []).resolved).toBe(false);
  expect(gradeTests(statuses({ f: 'PASSED', p: 'SKIPPED' }), ['f'], ['p']).resolved).toBe(true);
});

describe('an id is found exactly; only one cut inside its brackets matches the names it begins', () => {
  const truncated = 'astropy/units/tests/test_format.py::test_ogip_grammar_fail[log(photon';

  test('a cut id matches the one whole id it begins', () => {
    const s = statuses({ [`${truncated} / m**2 s)]`]: 'PASSED' });
    expect(resolveTest(truncated, s)).toBe(`${truncated} / m**2 s)]`);
    expect(gradeTests(s, [truncated], []).resolved).toBe(true);
  });

  test('names it begins that agree on passing (PASSED, XFAIL) count; names that disagree leave it failed', () => {
    const cut = "sklearn/feature_extraction/tests/test_text.py::test_callable_analyzer_error[file-AttributeError-'str'";
    const agree = statuses({ [`${cut} object has no attribute]`]: 'PASSED', [`${cut} has no]`]: 'XFAIL' });
    expect(gradeTests(agree, [cut], []).resolved).toBe(true);
    const disagree = statuses({ [`${truncated} / m**2 s)]`]: 'PASSED', [`${truncated} s)]`]: 'FAILED' });
    expect(resolveTest(truncated, disagree)).toBeUndefined();
    expect(gradeTests(disagree, [truncated], []).failToPass.failed).toEqual([truncated]);
  });

  test('a whole id never matches a longer name: test_x[case-1] is not test_x[case-1-extended], nor test_a test_ab', () => {
    const s = statuses({ 'tests/test_a.py::test_x[case-1-extended]': 'PASSED', 'tests/test_a.py::test_ab': 'PASSED' });
    expect(resolveTest('tests/test_a.py::test_x[case-1]', s)).toBeUndefined();
    expect(resolveTest('tests/test_a.py::test_a', s)).toBeUndefined();
    // a Django docstring id with an open bracket finds nothing it does not begin
    expect(resolveTest('Regression for [#123', statuses({ 'Regression for #123': 'PASSED' }))).toBeUndefined();
  });
});

test('a log that does not describe its run grades nothing: exited non-zero naming no failure, or timed out', () => {
  const passing = statuses({ f: 'PASSED', p: 'PASSED' });
  const spoofed = gradeTests(passing, ['f'], ['p'], { exitCode: 2, timedOut: false });
  expect(spoofed.resolved).toBe(false);
  expect(spoofed.invalidLog).toBe(
    'the test command exited 2 while its log names no failing test: the log does not describe the run',
  );
  expect(spoofed.failToPass.failed).toEqual(['f']);
  expect(gradeTests(passing, ['f'], ['p'], { exitCode: null, timedOut: true }).invalidLog).toMatch(/timed out/);
  // a failing test that is not listed explains the exit: the listed ones are graded
  const withFailure = statuses({ f: 'PASSED', p: 'PASSED', other: 'FAILED' });
  expect(gradeTests(withFailure, ['f'], ['p'], clean)).toMatchObject({ resolved: true });
  expect(gradeTests(passing, ['f'], ['p'], { exitCode: 0, timedOut: false }).resolved).toBe(true);
});

test('tests are sound at the base when no FAIL_TO_PASS passes and every PASS_TO_PASS is kept', () => {
  expect(brokenAtBase(statuses({ f: 'FAILED', p: 'PASSED' }), ['f', 'g'], ['p'])).toBeUndefined();
  expect(brokenAtBase(statuses({ f: 'FAILED', p: 'SKIPPED' }), ['f'], ['p'])).toBeUndefined();
  expect(brokenAtBase(statuses({ f: 'PASSED', p: 'PASSED' }), ['f'], ['p'])).toBe(
    'tests broken at base (with the test patch applied): FAIL_TO_PASS already passes at the base: f',
  );
  expect(brokenAtBase(statuses({ f: 'FAILED' }), ['f'], ['p', 'q', 'r', 's'])).toBe(
    'tests broken at base (with the test patch applied): PASS_TO_PASS does not pass at the base: p, q, r and 1 more',
  );
});

describe("published instances graded from logs shaped like SWE-bench's", () => {
  test("django__django-17087: Python 3.11 ids and docstring ids, as SWE-bench's Django parser names them", () => {
    const f2p = [
      'test_serialize_nested_class_method (migrations.test_writer.WriterTests.test_serialize_nested_class_method)',
    ];
    const p2p = [
      'test_custom_operation (migrations.test_writer.WriterTests.test_custom_operation)',
      'Test comments at top of file.',
      "django.db.models shouldn't be imported if unused.",
      'Ticket #22943: Test serialization of class-based validators, including',
    ];
    const run = (nested: string) =>
      parseTestLog(
        'django',
        [
          'test_custom_operation (migrations.test_writer.WriterTests.test_custom_operation) ... ok',
          'test_migration_file_header_comments (migrations.test_writer.WriterTests.test_migration_file_header_comments)',
          'Test comments at top of file. ... ok',
          'test_models_import_omitted (migrations.test_writer.WriterTests.test_models_import_omitted)',
          "django.db.models shouldn't be imported if unused. ... ok",
          `test_serialize_nested_class_method (migrations.test_writer.WriterTests.test_serialize_nested_class_method) ... ${nested}`,
          'test_serialize_class_based_validators (migrations.test_writer.WriterTests.test_serialize_class_based_validators)',
          'Ticket #22943: Test serialization of class-based validators, including ... ok',
        ].join('\n'),
      );
    expect(brokenAtBase(run('ERROR'), f2p, p2p)).toBeUndefined();
    expect(gradeTests(run('ok'), f2p, p2p, { exitCode: 0, timedOut: false })).toMatchObject({
      resolved: true,
      passToPass: { failed: [] },
    });
  });

  test('an older Django instance, its ids without the method, run on Python 3.11: found all the same', () => {
    const log = 'test_custom_operation (migrations.test_writer.WriterTests.test_custom_operation) ... ok';
    expect(
      gradeTests(parseTestLog('django', log), ['test_custom_operation (migrations.test_writer.WriterTests)'], []),
    ).toMatchObject({ resolved: true });
  });

  test("a pytest instance whose ids SWE-bench cut at the first space (parse_log_pytest's) and one v2 keeps whole", () => {
    const log = [
      'PASSED tests/test_basic.py::test_method_route[get post]',
      'PASSED tests/test_basic.py::test_run',
      'FAILED tests/test_basic.py::test_other[a b] - assert 0',
    ].join('\n');
    const cut = ['tests/test_basic.py::test_method_route[get', 'tests/test_basic.py::test_run'];
    expect(gradeTests(parseTestLog('pytest', log), cut, []).resolved).toBe(true);
    expect(gradeTests(parseTestLog('pytest', log), ['tests/test_basic.py::test_other[a'], []).resolved).toBe(false);
    // the v2 reading keeps whole ids: the cut one is found through the names it begins
    expect(gradeTests(parseTestLog('pytest-v2', log), cut, []).resolved).toBe(true);
    expect(
      gradeTests(parseTestLog('pytest-v2', log), ['tests/test_basic.py::test_method_route[get post]'], []).resolved,
    ).toBe(true);
  });
});
