import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { farm } from '@farm/proto';
import { shellQuote, type CheckStep, type ChecksResult } from '@farm/sandbox';
import type { TreeChange } from './tools/tree-diff';
import { restoreFromBase } from './work-tree';

const K = farm.v1.TaskKind;
const R = farm.v1.TestRunOutcome;

/** Test files by the common conventions: pytest, node --test, jest, mocha, vitest. */
const TEST_FILE =
  /(^|\/)(tests?|__tests__|spec)\/|(^|\/)test_[^/]*\.py$|_test\.py$|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)conftest\.py$/;

export const isTestFile = (file: string): boolean => TEST_FILE.test(file);

/** Test files a runner runs: not conftest.py, fixtures, helpers or test data under a tests directory. */
const NOT_RUNNABLE =
  /(^|\/)conftest\.py$|(^|\/)(fixtures?|support|helpers?|data|__snapshots__)\/|\.(json|txt|md|snap|ya?ml)$/;
export const isRunnableTest = (file: string): boolean => isTestFile(file) && !NOT_RUNNABLE.test(file);

/** Runners that take test files as arguments; a compound command line is never narrowed. */
const NARROWABLE = /(^|\s|\/)(pytest|jest|mocha|vitest(\s+run)?|node\s+--test)(\s|$)/;

/**
 * The test step narrowed to `files` where the runner takes files (pytest paths, node --test files, jest/mocha/
 * vitest paths); otherwise the whole step. A pytest marker filter (`-m fast`) is dropped: new tests need not
 * carry it.
 */
export function narrowTestStep(step: CheckStep, files: string[]): { step: CheckStep; narrowed: boolean } {
  if (/&&|\|\||[;|`]|\$\(/.test(step.run) || !NARROWABLE.test(step.run)) return { step, narrowed: false };
  // Only pytest's own -m (after the runner): `python -m pytest` keeps its -m.
  const at = step.run.search(/pytest\b/);
  const run = at < 0 ? step.run : step.run.slice(0, at) + step.run.slice(at).replace(/\s-m\s+\S+/, '');
  return { step: { ...step, run: `${run} ${files.map(shellQuote).join(' ')}` }, narrowed: true };
}

/** The plan's test step: one named test(s), else a task's own check command (named check). */
export function testStepOf(steps: CheckStep[]): CheckStep | undefined {
  return steps.find((s) => /^tests?$/.test(s.name)) ?? steps.find((s) => s.name === 'check');
}

/** A test run that ran no test is no evidence either way. */
const FOUND_NOTHING = /no tests ran|collected 0 items|no tests found|\b0 passing\b|^# tests 0\b|^ℹ tests 0\b/im;

export function foundNothing(result: ChecksResult): boolean {
  const step = result.steps.at(-1);
  if (!step) return false;
  return (step.exitCode === 5 && /pytest/.test(step.run)) || FOUND_NOTHING.test(step.output);
}

function outcomeOf(result: ChecksResult): { outcome: farm.v1.TestRunOutcome; note?: string } {
  if (result.failed?.denied) return { outcome: R.TEST_RUN_NOT_RUN, note: `refused: ${result.failed.denied.reason}` };
  if (foundNothing(result)) return { outcome: R.TEST_RUN_NOT_RUN, note: 'the run found no tests' };
  return { outcome: result.ok ? R.TEST_RUN_PASSED : R.TEST_RUN_FAILED };
}

/** The plan's checks as they went on the final tree: ran (passed, or found nothing) and skipped. */
export function verifiedChecks(
  checks: ChecksResult,
  skipped: { name: string; reason: string }[],
): farm.v1.IVerifiedCheck[] {
  return [
    ...checks.steps.map((s) => ({
      name: s.name,
      run: s.run,
      ok: s.ok,
      ...(foundNothing({ ...checks, steps: [s] }) ? { foundNothing: true, reason: 'found no tests' } : {}),
    })),
    ...skipped.map((s) => ({ name: s.name, skipped: true, reason: s.reason })),
  ];
}

export interface VerifyInput {
  kind?: farm.v1.TaskKind | null;
  /** The task's checkout, the change in the work tree. */
  repoDir: string;
  /** The commit the task started from. */
  base: string;
  changes: TreeChange[];
  /** The check plan's steps and what it skipped. */
  steps: CheckStep[];
  skipped: { name: string; reason: string }[];
  /** The passing check run on the final tree. */
  checks: ChecksResult;
  /** Runs steps in a directory in the sandbox, with the limits of the task's checks. */
  runSteps: (dir: string, steps: CheckStep[]) => Promise<ChecksResult>;
}

/**
 * What verifies the change: the checks that ran, and for a change that adds or changes tests, the differential
 * (those tests on the base with only the change's test files applied: failure expected; on the branch: pass).
 */
export async function verifyChange(input: VerifyInput): Promise<farm.v1.IVerification> {
  const live = input.changes.filter((c) => c.change !== 'deleted');
  const tests = live.filter((c) => isRunnableTest(c.path)).map((c) => c.path);
  const testsOnly = input.changes.length > 0 && input.changes.every((c) => isTestFile(c.path));
  const differential = tests.length ? await runDifferential(input, tests) : undefined;
  const verification: farm.v1.IVerification = {
    checks: verifiedChecks(input.checks, input.skipped),
    testsOnly,
    ...(differential ? { differential } : {}),
  };
  const unverified = unverifiedReason(input.kind, verification);
  return unverified ? { ...verification, unverifiedReason: unverified } : verification;
}

async function runDifferential(input: VerifyInput, tests: string[]): Promise<farm.v1.IDifferential> {
  const step = testStepOf(input.steps);
  if (!step)
    return {
      testFiles: tests,
      base: R.TEST_RUN_NOT_RUN,
      branch: R.TEST_RUN_NOT_RUN,
      reason: 'the check plan has no test step',
    };
  const { step: narrowed, narrowed: isNarrowed } = narrowTestStep(step, tests);
  const baseDir = `${input.repoDir}.base`;
  try {
    await copyOfBaseWithTests(input, baseDir, tests);
    const base = outcomeOf(await input.runSteps(baseDir, [narrowed]));
    // The whole test step already passed on the branch; a narrowed one runs there too (it may select more).
    const branch = isNarrowed
      ? outcomeOf(await input.runSteps(input.repoDir, [narrowed]))
      : { outcome: R.TEST_RUN_PASSED };
    const notes = [base.note && `base: ${base.note}`, branch.note && `branch: ${branch.note}`].filter(Boolean);
    return {
      testFiles: tests,
      command: narrowed.run,
      narrowed: isNarrowed,
      base: base.outcome,
      branch: branch.outcome,
      ...(notes.length ? { reason: notes.join('; ') } : {}),
    };
  } finally {
    await rm(baseDir, { recursive: true, force: true });
  }
}

/**
 * A copy of the checkout (installed dependencies included, .git left out) with every change undone except the
 * change's test files.
 */
async function copyOfBaseWithTests(input: VerifyInput, baseDir: string, tests: string[]): Promise<void> {
  const gitDir = path.join(input.repoDir, '.git');
  await cp(input.repoDir, baseDir, { recursive: true, verbatimSymlinks: true, filter: (src) => src !== gitDir });
  for (const c of input.changes) {
    if (!tests.includes(c.path)) await restoreFromBase(input.repoDir, input.base, baseDir, c.path);
  }
}

const OUTCOME_NAMES: Record<number, string> = {
  [R.TEST_RUN_PASSED]: 'passed',
  [R.TEST_RUN_FAILED]: 'failed',
  [R.TEST_RUN_NOT_RUN]: 'not run',
};
const name = (o: farm.v1.TestRunOutcome | null | undefined) => OUTCOME_NAMES[o ?? 0] ?? 'unknown';

/** The verification for the trajectory, its outcomes by name. */
export function verificationRecord(v: farm.v1.IVerification): Record<string, unknown> {
  return farm.v1.Verification.toObject(farm.v1.Verification.fromObject(v), { enums: String });
}

/**
 * Why the change does not prove what the goal asks, or undefined. A behaviour goal (FEATURE/FIX) needs a change
 * beyond tests, and its new tests must not pass without it; new tests failing on the branch prove nothing.
 */
export function unverifiedReason(
  kind: farm.v1.TaskKind | null | undefined,
  v: farm.v1.IVerification,
): string | undefined {
  const d = v.differential;
  if (d?.branch === R.TEST_RUN_FAILED)
    return `the change's tests (${d.testFiles!.join(', ')}) fail on the branch when run on their own (\`${d.command}\`)`;
  if (kind !== K.FEATURE && kind !== K.FIX) return undefined;
  if (v.testsOnly) return 'the goal asks for behaviour, but the change only adds or changes tests';
  if (!d)
    return 'no test exercises the change: it adds or changes no test, so nothing shows it does what the goal asks (a test that fails without the change and passes with it would)';
  if (d.base === R.TEST_RUN_PASSED)
    return `the change's tests (${d.testFiles!.join(', ')}) pass on the base commit without the change: they do not show the behaviour the goal asks for`;
  if (d.base !== R.TEST_RUN_FAILED)
    return `the change's tests (${d.testFiles!.join(', ')}) could not be run on the base commit${d.reason ? ` (${d.reason})` : ''}: nothing shows they fail without the change`;
  return undefined;
}

/**
 * Why a task cannot be verified whatever its agent does, said before any model call, or undefined: a behaviour
 * goal (FEATURE/FIX) in a repository where no test step was found (none detected, none configured) could only
 * end unverified, which the policy refuses unless it is `deliver`. Names what the farm looked for, what it
 * found but could not run, and the two ways to give it the tests.
 */
export function noTestsRefusal(
  kind: farm.v1.TaskKind | null | undefined,
  plan: { steps: CheckStep[]; skipped: { name: string; reason: string }[]; source: string },
  policy: UnverifiedPolicy,
): string | undefined {
  if ((kind !== K.FEATURE && kind !== K.FIX) || policy === 'deliver' || testStepOf(plan.steps)) return undefined;
  const skipped = plan.skipped.filter((s) => /^tests?$/.test(s.name)).map((s) => s.reason);
  const found =
    plan.source === 'config'
      ? `its ${plan.steps.length ? 'checks have' : 'check plan has'} no step named "test"`
      : skipped.length
        ? `its tests cannot run here: ${skipped.join('; ')}`
        : 'no tests were found (the farm looks for a package.json test script, pytest or unittest test files, go test and cargo test packages)';
  return (
    `this change cannot be verified: ${found}, so nothing could show that it does what the goal asks. ` +
    'Give the command that runs the repository\'s tests: `farm submit --check-command "<command>"`, or commit ' +
    '.farm/checks.json ({"steps": [{"name": "test", "run": "<command>"}]}); or let unverified changes through ' +
    'with FARM_UNVERIFIED_CHANGES=deliver'
  );
}

/**
 * What a FEATURE/FIX change that is not verified (unverifiedReason) may do, by the operator's
 * FARM_UNVERIFIED_CHANGES: `review` (the default) lets it pass only when the reviewer accepts it explicitly,
 * `deliver` lets it pass marked as unverified, `refuse` never.
 */
export type UnverifiedPolicy = 'review' | 'deliver' | 'refuse';
export const UNVERIFIED_POLICIES: readonly UnverifiedPolicy[] = ['review', 'deliver', 'refuse'];

export function unverifiedMayPass(policy: UnverifiedPolicy, acceptedByReviewer: boolean): boolean {
  return policy === 'deliver' || (policy === 'review' && acceptedByReviewer);
}

/** The verification as one line for the task's notes. */
export function describeVerification(v: farm.v1.IVerification): string {
  const checks = (v.checks ?? []).map((c) =>
    c.skipped
      ? `${c.name} skipped (${c.reason})`
      : `${c.name} ${c.foundNothing ? 'found no tests' : c.ok ? 'passed' : 'failed'}`,
  );
  const parts = [`checks: ${checks.length ? checks.join(', ') : 'none configured'}`];
  const d = v.differential;
  if (d)
    parts.push(
      `differential of ${d.testFiles!.join(', ')}${d.command ? ` (\`${d.command}\`)` : ''}: base ${name(d.base)}, branch ${name(d.branch)}${d.reason ? ` (${d.reason})` : ''}`,
    );
  else parts.push('no tests added or changed');
  if (v.unverifiedReason)
    parts.push(
      `${v.acceptedByReviewer ? 'accepted by the reviewer although ' : 'NOT VERIFIED: '}${v.unverifiedReason}`,
    );
  return `verification: ${parts.join('; ')}`;
}
