import { parseTestLog } from './test-logs';

test('unittest -v lines of Python 3.11 and earlier, a docstring line between, give dotted ids', () => {
  const log = [
    'test_a (tests.test_x.T.test_a) ... ok',
    'test_b (tests.test_x.T) ... FAIL',
    'test_c (tests.test_x.T.test_c)',
    'Check c. ... ERROR',
    'test_d (tests.test_x.T.test_d) ... skipped "no"',
    'test_e (tests.test_x.T.test_e) ... expected failure',
  ].join('\n');
  const s = parseTestLog('unittest', log);
  expect(s.get('tests.test_x.T.test_a')).toBe('PASSED');
  expect(s.get('tests.test_x.T.test_b')).toBe('FAILED');
  expect(s.get('tests.test_x.T.test_c')).toBe('FAILED');
  expect(s.get('tests.test_x.T.test_d')).toBe('SKIPPED');
  expect(s.get('tests.test_x.T.test_e')).toBe('PASSED');
  expect(s.get('test_a (tests.test_x.T)')).toBe('PASSED'); // Django's form of the id
});

test('pytest -rA summary and -v lines', () => {
  const log = [
    'tests/test_a.py::test_v PASSED                      [ 50%]',
    '=========================== short test summary info ===========================',
    'PASSED tests/test_a.py::test_x',
    'FAILED tests/test_a.py::test_y[1-2] - AssertionError: boom',
    'ERROR tests/test_a.py::test_z',
    'XFAIL tests/test_a.py::test_w - reason',
    'PASSED tests/test_a.py::test_p[a b]',
  ].join('\n');
  const s = parseTestLog('pytest', log);
  expect(Object.fromEntries(s)).toEqual({
    'tests/test_a.py::test_x': 'PASSED',
    'tests/test_a.py::test_y[1-2]': 'FAILED',
    'tests/test_a.py::test_z': 'FAILED',
    'tests/test_a.py::test_w': 'PASSED',
    'tests/test_a.py::test_v': 'PASSED',
    'tests/test_a.py::test_p[a b]': 'PASSED',
  });
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
