/**
 * Whether a run of an instance's tests resolves it, and whether its tests are sound at the base commit:
 * resolved = every FAIL_TO_PASS test passes and every PASS_TO_PASS test still passes (a test the log does not
 * mention has not passed). Sound base = with only the test patch applied, every FAIL_TO_PASS test fails (or
 * does not run) and every PASS_TO_PASS test passes; otherwise the instance cannot judge an agent.
 */
import type { TestStatus } from './test-logs';

export interface TestGrade {
  resolved: boolean;
  failToPass: { passed: string[]; failed: string[] };
  passToPass: { passed: string[]; failed: string[] };
}

export function gradeTests(statuses: Map<string, TestStatus>, failToPass: string[], passToPass: string[]): TestGrade {
  const split = (tests: string[]) => ({
    passed: tests.filter((t) => statuses.get(t) === 'PASSED'),
    failed: tests.filter((t) => statuses.get(t) !== 'PASSED'),
  });
  const f2p = split(failToPass);
  const p2p = split(passToPass);
  return { resolved: f2p.failed.length === 0 && p2p.failed.length === 0, failToPass: f2p, passToPass: p2p };
}

/** Why the instance's tests cannot judge a change at its base commit, or undefined when they can. */
export function brokenAtBase(
  statuses: Map<string, TestStatus>,
  failToPass: string[],
  passToPass: string[],
): string | undefined {
  const passing = failToPass.filter((t) => statuses.get(t) === 'PASSED');
  const notPassing = passToPass.filter((t) => statuses.get(t) !== 'PASSED');
  const problems = [
    passing.length ? `FAIL_TO_PASS already passes at the base: ${listed(passing)}` : '',
    notPassing.length ? `PASS_TO_PASS does not pass at the base: ${listed(notPassing)}` : '',
  ].filter(Boolean);
  return problems.length ? `tests broken at base (with the test patch applied): ${problems.join('; ')}` : undefined;
}

function listed(tests: string[]): string {
  return tests.length > 3 ? `${tests.slice(0, 3).join(', ')} and ${tests.length - 3} more` : tests.join(', ');
}
