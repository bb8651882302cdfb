/**
 * Whether a run of an instance's tests resolves it, judged as SWE-bench's harness judges it
 * (`swebench/harness/grading.py`):
 * - a listed id is looked up exactly in the log's names; only an id cut inside its brackets (more `[` than
 *   `]`, as 676 ids of SWE-bench Verified are, e.g. `test_fail[log(photon`) matches the names it begins, and only
 *   when those agree on passing or not (PASSED and XFAIL pass);
 * - FAIL_TO_PASS passes when its test PASSED or XFAILed; skipped, failed, errored or absent, it did not;
 * - PASS_TO_PASS is kept when its test passed or was skipped (a skip is no regression); failed, errored or
 *   absent, it broke;
 * - resolved: every FAIL_TO_PASS passes and every PASS_TO_PASS is kept;
 * - a log whose command exited non-zero while it names no failing test does not describe the run (a change can
 *   print PASSED lines of its own), nor does one of a run that timed out: nothing in it passes.
 * Sound base: with only the test patch applied, no FAIL_TO_PASS test passes and every PASS_TO_PASS is kept;
 * otherwise the instance cannot judge an agent.
 */
import type { TestStatus } from './test-logs';

export interface TestGrade {
  resolved: boolean;
  failToPass: { passed: string[]; failed: string[] };
  passToPass: { passed: string[]; failed: string[] };
  /** Why the log cannot be graded at all (then nothing in it passed). */
  invalidLog?: string;
}

const PASSING: ReadonlySet<TestStatus | undefined> = new Set<TestStatus | undefined>(['PASSED', 'XFAIL']);

/** The name of the log `test` is found under, or undefined when the log does not tell how it went. */
export function resolveTest(test: string, statuses: ReadonlyMap<string, TestStatus>): string | undefined {
  if (statuses.has(test)) return test;
  if (count(test, '[') <= count(test, ']')) return undefined;
  const begun = [...statuses.keys()].filter((name) => name.startsWith(test));
  const outcomes = new Set(begun.map((name) => PASSING.has(statuses.get(name))));
  return outcomes.size === 1 ? begun[0] : undefined;
}

const count = (s: string, c: string) => s.split(c).length - 1;

/** FAIL_TO_PASS's reading: the test passed (or failed as expected). */
export function testPassed(test: string, statuses: ReadonlyMap<string, TestStatus>): boolean {
  const name = resolveTest(test, statuses);
  return name !== undefined && PASSING.has(statuses.get(name));
}

/** PASS_TO_PASS's reading: the test passed or was skipped. */
export function testKept(test: string, statuses: ReadonlyMap<string, TestStatus>): boolean {
  const name = resolveTest(test, statuses);
  return name !== undefined && (PASSING.has(statuses.get(name)) || statuses.get(name) === 'SKIPPED');
}

/**
 * Why a log cannot be graded: the run did not finish (timed out), or its command exited non-zero (or was
 * killed) while it names no failing test, so it does not describe the run that happened. Undefined when it can.
 */
export function invalidLogReason(
  statuses: ReadonlyMap<string, TestStatus>,
  run: { exitCode: number | null; timedOut: boolean },
): string | undefined {
  if (run.timedOut) return 'the test command timed out: a run that did not finish grades no test';
  if (run.exitCode === 0 || !statuses.size) return undefined;
  if ([...statuses.values()].some((s) => s === 'FAILED' || s === 'ERROR')) return undefined;
  const ended = run.exitCode === null ? 'was killed' : `exited ${run.exitCode}`;
  return `the test command ${ended} while its log names no failing test: the log does not describe the run`;
}

export function gradeTests(
  statuses: ReadonlyMap<string, TestStatus>,
  failToPass: string[],
  passToPass: string[],
  run?: { exitCode: number | null; timedOut: boolean },
): TestGrade {
  const invalidLog = run && invalidLogReason(statuses, run);
  const graded = invalidLog ? new Map<string, TestStatus>() : statuses;
  const split = (tests: string[], ok: (t: string, s: ReadonlyMap<string, TestStatus>) => boolean) => ({
    passed: tests.filter((t) => ok(t, graded)),
    failed: tests.filter((t) => !ok(t, graded)),
  });
  const f2p = split(failToPass, testPassed);
  const p2p = split(passToPass, testKept);
  return {
    resolved: f2p.failed.length === 0 && p2p.failed.length === 0,
    failToPass: f2p,
    passToPass: p2p,
    ...(invalidLog ? { invalidLog } : {}),
  };
}

/** Why the instance's tests cannot judge a change at its base commit, or undefined when they can. */
export function brokenAtBase(
  statuses: ReadonlyMap<string, TestStatus>,
  failToPass: string[],
  passToPass: string[],
): string | undefined {
  const passing = failToPass.filter((t) => testPassed(t, statuses));
  const broken = passToPass.filter((t) => !testKept(t, statuses));
  const problems = [
    passing.length ? `FAIL_TO_PASS already passes at the base: ${listed(passing)}` : '',
    broken.length ? `PASS_TO_PASS does not pass at the base: ${listed(broken)}` : '',
  ].filter(Boolean);
  return problems.length ? `tests broken at base (with the test patch applied): ${problems.join('; ')}` : undefined;
}

function listed(tests: string[]): string {
  return tests.length > 3 ? `${tests.slice(0, 3).join(', ')} and ${tests.length - 3} more` : tests.join(', ');
}
