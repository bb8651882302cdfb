import { brokenAtBase, gradeTests } from './grading';
import type { TestStatus } from './test-logs';

const statuses = (o: Record<string, TestStatus>) => new Map(Object.entries(o));

test('resolved when every FAIL_TO_PASS and PASS_TO_PASS test passes', () => {
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
  const missing = gradeTests(statuses({ f: 'PASSED' }), ['f'], ['p']);
  expect(missing.resolved).toBe(false);
  expect(missing.passToPass.failed).toEqual(['p']);
  expect(gradeTests(statuses({ f: 'SKIPPED' }), ['f'], []).resolved).toBe(false);
});

test('tests are sound at the base when FAIL_TO_PASS fails (or does not run) and PASS_TO_PASS passes', () => {
  expect(brokenAtBase(statuses({ f: 'FAILED', p: 'PASSED' }), ['f', 'g'], ['p'])).toBeUndefined();
  expect(brokenAtBase(statuses({ f: 'PASSED', p: 'PASSED' }), ['f'], ['p'])).toBe(
    'tests broken at base (with the test patch applied): FAIL_TO_PASS already passes at the base: f',
  );
  expect(brokenAtBase(statuses({ f: 'FAILED' }), ['f'], ['p', 'q', 'r', 's'])).toBe(
    'tests broken at base (with the test patch applied): PASS_TO_PASS does not pass at the base: p, q, r and 1 more',
  );
});
