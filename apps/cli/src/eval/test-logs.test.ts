import { parseTestLog } from './test-logs';

/** django__django-17087's test run as SWE-bench's harness logs it (Django 5.0 on Python 3.11), the fix applied. */
const DJANGO_5_LOG = [
  "Testing against Django installed in '/testbed/django'",
  'Importing application migrations',
  'Found 4 test(s).',
  'System check identified no issues (0 silenced).',
  'test_custom_operation (migrations.test_writer.WriterTests.test_custom_operation) ... ok',
  'test_migration_file_header_comments (migrations.test_writer.WriterTests.test_migration_file_header_comments)',
  'Test comments at top of file. ... ok',
  'test_models_import_omitted (migrations.test_writer.WriterTests.test_models_import_omitted)',
  "django.db.models shouldn't be imported if unused. ... ok",
  'test_serialize_nested_class_method (migrations.test_writer.WriterTests.test_serialize_nested_class_method) ... ERROR',
  "test_register_serializer (migrations.test_writer.WriterTests.test_register_serializer) ... skipped 'no serializer'",
  'test_sorted_imports (migrations.test_writer.WriterTests.test_sorted_imports)',
  '#24155 - Tests ordering of imports. ... FAIL',
  '',
  '======================================================================',
  'ERROR: test_serialize_nested_class_method (migrations.test_writer.WriterTests.test_serialize_nested_class_method)',
  '----------------------------------------------------------------------',
  'Traceback (most recent call last):',
  'ValueError: Could not find function method in migrations.test_writer.',
  '',
  '----------------------------------------------------------------------',
  'Ran 6 tests in 0.062s',
  '',
  'FAILED (errors=1, failures=1, skipped=1)',
].join('\n');

test("Django's runner on Python 3.11+: each test under SWE-bench's name for it, the docstring's line for a documented test", () => {
  const s = parseTestLog('django', DJANGO_5_LOG);
  // SWE-bench's ids: what the line says before " ... "
  expect(s.get('test_custom_operation (migrations.test_writer.WriterTests.test_custom_operation)')).toBe('PASSED');
  expect(s.get('Test comments at top of file.')).toBe('PASSED');
  expect(s.get("django.db.models shouldn't be imported if unused.")).toBe('PASSED');
  expect(
    s.get('test_serialize_nested_class_method (migrations.test_writer.WriterTests.test_serialize_nested_class_method)'),
  ).toBe('ERROR');
  expect(s.get('test_register_serializer (migrations.test_writer.WriterTests.test_register_serializer)')).toBe(
    'SKIPPED',
  );
  expect(s.get('#24155 - Tests ordering of imports.')).toBe('FAILED');
  // the documented test under its own name too, and each test as a dotted id and in the older Python's form
  expect(s.get('test_migration_file_header_comments (migrations.test_writer.WriterTests)')).toBe('PASSED');
  expect(s.get('migrations.test_writer.WriterTests.test_migration_file_header_comments')).toBe('PASSED');
  expect(s.get('migrations.test_writer.WriterTests.test_sorted_imports')).toBe('FAILED');
  expect(s.get('test_custom_operation (migrations.test_writer.WriterTests)')).toBe('PASSED');
  // what no test is: the runner's own lines
  expect([...s.keys()].filter((k) => /Testing against|System check|Ran \d/.test(k))).toEqual([]);
  // "ERROR: name (...)": SWE-bench names the test by its method there
  expect(s.get('test_serialize_nested_class_method')).toBe('ERROR');
});

test('unittest before Python 3.11, and a verdict printed lines after the dots (the test wrote output between)', () => {
  const log = [
    'test_a (tests.test_x.T) ... ok',
    'test_b (tests.test_x.T) ... FAIL',
    'test_c (tests.test_x.T)',
    'Check c. ... ERROR',
    'test_d (tests.test_x.T) ... skipped "no"',
    'test_e (tests.test_x.T) ... expected failure',
    'test_f (tests.test_x.T) ... unexpected success',
    "test_g (tests.test_x.T) ... Testing against Django installed in '/testbed/django' with up to 2 processes",
    'System check identified no issues (0 silenced).',
    'ok',
    'test_h (tests.test_x.T) ... some output ... ok',
    'ok',
    'Applying sites.0002_alter_domain_unique...test_i (tests.test_x.T) ... ok',
  ].join('\n');
  const s = parseTestLog('unittest', log);
  expect(s.get('test_a (tests.test_x.T)')).toBe('PASSED');
  expect(s.get('tests.test_x.T.test_a')).toBe('PASSED');
  expect(s.get('test_a (tests.test_x.T.test_a)')).toBe('PASSED'); // the 3.11 form of the same test
  expect(s.get('tests.test_x.T.test_b')).toBe('FAILED');
  expect(s.get('Check c.')).toBe('ERROR');
  expect(s.get('tests.test_x.T.test_c')).toBe('ERROR');
  expect(s.get('tests.test_x.T.test_d')).toBe('SKIPPED');
  expect(s.get('tests.test_x.T.test_e')).toBe('XFAIL');
  expect(s.get('tests.test_x.T.test_f')).toBe('FAILED');
  expect(s.get('test_g (tests.test_x.T)')).toBe('PASSED');
  expect(s.get('tests.test_x.T.test_h')).toBe('PASSED');
  expect(s.get('test_i (tests.test_x.T)')).toBe('PASSED'); // a migration's output ran into its line
  // the "ok" after test_h's verdict is nobody's
  expect([...s.keys()].filter((k) => !/test_[a-i]|Check c\./.test(k))).toEqual([]);
});

/** A pytest -rA run as SWE-bench's harness logs it (colours on), with -v lines above the summary. */
const PYTEST_LOG = [
  '============================= test session starts ==============================',
  'collected 7 items',
  '',
  'tests/test_a.py::test_v PASSED                                           [ 14%]',
  'tests/test_a.py::test_y[1-2] PASSED                                      [ 28%]',
  'tests/test_a.py::test_p[a b] PASSED                                      [ 42%]',
  '',
  '=========================== short test summary info ============================',
  '\x1b[32mPASSED\x1b[0m tests/test_a.py::test_x',
  'PASSED tests/test_a.py::test_p[a b]',
  'PASSED tests/test_a.py::test_p[a  c]',
  'SKIPPED [1] tests/test_a.py:12: requires the network',
  'SKIPPED tests/test_a.py::test_s',
  'FAILED tests/test_a.py::test_y[1-2] - AssertionError: boom',
  'FAILED tests/test_a.py::test_m[a - b] - assert 1 == 2',
  'ERROR tests/test_a.py::test_z - RuntimeError: no fixture',
  'XFAIL tests/test_a.py::test_w - reason: not yet',
  'XPASS tests/test_a.py::test_u unexpectedly passing',
  '==================== 2 failed, 3 passed, 1 skipped in 0.12s ====================',
].join('\n');

test("pytest: SWE-bench's id cut at its first space, and the whole id; the summary overrides -v lines", () => {
  const s = parseTestLog('pytest', PYTEST_LOG);
  expect(Object.fromEntries(s)).toEqual({
    'tests/test_a.py::test_v': 'PASSED', // a -v line ("<id> PASSED [ 14%]")
    'tests/test_a.py::test_x': 'PASSED', // "PASSED <id>", its colour codes gone
    'tests/test_a.py::test_y[1-2]': 'FAILED', // the summary's word over the -v line's
    'tests/test_a.py::test_p[a b]': 'PASSED',
    'tests/test_a.py::test_p[a c]': 'PASSED', // white space as one space
    'tests/test_a.py::test_p[a': 'PASSED', // SWE-bench's name of both: the id cut at its first space
    'tests/test_a.py::test_s': 'SKIPPED', // "SKIPPED [1] file:line: reason" counts skips, names no test
    'tests/test_a.py::test_m[a - b]': 'FAILED', // the message cut at the " - " outside the brackets
    'tests/test_a.py::test_m[a': 'FAILED',
    'tests/test_a.py::test_z': 'ERROR',
    'tests/test_a.py::test_w': 'XFAIL',
    // XPASS is no status of SWE-bench's: the test is not named
  });
});

test("pytest-v2 (astropy, scikit-learn, sphinx): the whole id only, as SWE-bench's v2 parser keeps it", () => {
  const log = [
    'astropy/units/tests/test_format.py::test_unit_grammar PASSED',
    'PASSED astropy/units/tests/test_format.py::test_ogip_grammar_fail[log(photon / m**2 s)]',
    'XFAIL astropy/units/tests/test_format.py::test_w - reason',
  ].join('\n');
  const s = parseTestLog('pytest-v2', log);
  expect(s.get('astropy/units/tests/test_format.py::test_ogip_grammar_fail[log(photon / m**2 s)]')).toBe('PASSED');
  expect(s.has('astropy/units/tests/test_format.py::test_ogip_grammar_fail[log(photon')).toBe(false);
  expect(s.get('astropy/units/tests/test_format.py::test_unit_grammar')).toBe('PASSED'); // older pytest's "<id> PASSED"
  expect(s.get('astropy/units/tests/test_format.py::test_w')).toBe('XFAIL');
  expect(s.get('astropy/units/tests/test_format.py::test_w - reason')).toBe('XFAIL'); // v2's own name of it
});

test("node's test runner: TAP and spec output", () => {
  const tap = ['ok 1 - adds', 'not ok 2 - subtracts', '    ok 1 - nested', 'ok 3 - later # SKIP not yet'].join('\n');
  expect(Object.fromEntries(parseTestLog('node-test', tap))).toEqual({
    adds: 'PASSED',
    subtracts: 'FAILED',
    nested: 'PASSED',
    later: 'SKIPPED',
  });
  const spec = ['✔ adds (0.5ms)', '✖ subtracts (1.2ms)'].join('\n');
  expect(Object.fromEntries(parseTestLog('node-test', spec))).toEqual({ adds: 'PASSED', subtracts: 'FAILED' });
});
