/**
 * One instance of an evaluation run, start to end: its tests checked sound at the base (else an error of the
 * instance, or of its environment), the request submitted to the farm (once per try: a resumed run finds it again
 * by its id) and followed to its final phase, the farm's branch taken as the model patch and judged by the
 * instance's tests in the sandbox. Every command's output a verdict is graded from is kept in the instance's
 * log directory, so that the verdict can be graded again.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FarmError, errorMessage } from '@farm/runtime';
import type { SandboxResult } from '@farm/sandbox';
import type { EvalFarm, FarmRequestState, TaskReport } from './eval-farm';
import { brokenAtBase, gradeTests, type TestGrade } from './grading';
import { farmInfraFailure } from './infra-failures';
import type { CommandRun, InstanceResult, TestRun } from './instance-result';
import { testCommandOf, type LogParserName, type TaskInstance } from './instances';
import { requestOf, requestRefusal, type InstanceRequest } from './instance-request';
import {
  InfraFailed,
  InstanceSetupFailed,
  applyPatch,
  applyTestPatch,
  baseBranchOf,
  diffOf,
  logDirOf,
  repoCopyDir,
  repoSource,
  runInSandbox,
  scratchCheckout,
  scratchDirOf,
} from './instance-workspace';
import { localRepository } from './repository-copies';
import type { RunLayout } from './run-results';
import { parseTestLog, type TestStatus } from './test-logs';

/** What an instance's run needs of the run's settings. */
export interface InstanceRunSettings {
  runId: string;
  modelName: string;
  /** How long an instance may take in the farm before it is recorded incomplete. */
  instanceTimeoutS: number;
  /** Each run of an instance's tests (and its set-up command). */
  testTimeoutS: number;
  /** Directories holding local mirrors of the repositories (besides the dataset's own directory). */
  mirrorDirs?: string[];
  signal?: AbortSignal;
}

const FINAL = new Set(['DONE', 'FAILED', 'CANCELLED']);

/**
 * The request id of an instance's try in a run: the same on every resume, so the farm's request is found again;
 * another for the next try, after the farm failed the last one for its environment.
 */
export function requestIdOf(runId: string, instanceId: string, attempt = 1): string {
  const key = `farm-eval\0${runId}\0${instanceId}${attempt > 1 ? `\0${attempt}` : ''}`;
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Which try of the instance this run makes: the last one's again (its request is found and followed, or was never
 * made), or the next when the farm ended the last one's request for its environment (a new request is needed).
 */
export function attemptOf(earlier: InstanceResult | undefined): number {
  const attempt = earlier?.attempt ?? 1;
  const farmEnded = earlier?.phase !== undefined && FINAL.has(earlier.phase) && earlier.phase !== 'DONE';
  return earlier?.status === 'infra_error' && farmEnded ? attempt + 1 : attempt;
}

export function incomplete(instance: TaskInstance, modelName: string, reason: string): InstanceResult {
  return blank(instance, modelName, 'incomplete', reason);
}

/** The farm or this machine failed the instance (a thrown failure): no verdict, run again to retry. */
export function infraError(instance: TaskInstance, modelName: string, reason: string): InstanceResult {
  return blank(instance, modelName, 'infra_error', reason);
}

function blank(
  instance: TaskInstance,
  modelName: string,
  status: InstanceResult['status'],
  reason: string,
): InstanceResult {
  return {
    instance_id: instance.instance_id,
    status,
    reason,
    model_name_or_path: modelName,
    model_patch: '',
    costUsd: 0,
    tokens: { prompt: 0, completion: 0, total: 0 },
    wallTimeS: 0,
    scoringTimeS: 0,
    modelCalls: 0,
    turns: 0,
    dispatches: 0,
    editTiers: {},
    finishedAt: new Date().toISOString(),
  };
}

/** One instance, start to end; undefined when the run was interrupted before it ended. */
export async function runInstance(
  instance: TaskInstance,
  farm: EvalFarm,
  layout: RunLayout,
  datasetDir: string,
  o: InstanceRunSettings,
  attempt = 1,
): Promise<InstanceResult | undefined> {
  const started = performance.now();
  let testsMs = 0;
  let scratch = '';
  let logDir = '';
  let testCmd = '';
  let parser: LogParserName = 'pytest';
  const testRuns: NonNullable<InstanceResult['testRuns']> = {};
  /** A command of the instance's in its checkout, its whole output kept as `file` of its log directory. */
  const runKept = async (command: string, file: string): Promise<{ run: SandboxResult; kept: CommandRun }> => {
    const run = await runInSandbox(scratch, command, o.testTimeoutS * 1000);
    const log = path.join(logDir, file);
    await mkdir(logDir, { recursive: true });
    await writeFile(log, run.output);
    const { exitCode, timedOut } = run;
    return {
      run,
      kept: { command, log: path.relative(layout.dir, log), exitCode, timedOut, durationS: run.durationMs / 1000 },
    };
  };
  const runTests = async (
    file: string,
  ): Promise<{ run: SandboxResult; statuses: Map<string, TestStatus>; kept: TestRun }> => {
    const { run, kept } = await runKept(testCmd, file);
    testsMs += run.durationMs;
    return { run, statuses: parseTestLog(parser, run.output), kept: { ...kept, parser } };
  };
  const source = repoSource(instance, datasetDir, [...(o.mirrorDirs ?? []), datasetDir]);
  const id = requestIdOf(o.runId, instance.instance_id, attempt);
  const tried = attempt > 1 ? { attempt } : {};
  let repoDir: string;
  let request: InstanceRequest;
  try {
    // What the instance names (its id, its repository) becomes directories strictly inside the run's, and the
    // request it becomes is one the farm takes: else it is this instance's error, before anything is done.
    scratch = scratchDirOf(instance, layout.scratch);
    logDir = logDirOf(instance, layout.logs);
    const copyDir = repoCopyDir(instance, layout.repos);
    // A farm on this machine is served the local copy (the instance's commits on a branch); one elsewhere clones
    // the repository's URL, where it also pushes its branches.
    if (!farm.onThisMachine && !/^[a-z]+:\/\//.test(source)) {
      throw new InstanceSetupFailed(`a farm on another machine cannot read ${source}: give the instance a repo_url`);
    }
    request = requestOf(instance, {
      id,
      runId: o.runId,
      repoUrl: farm.onThisMachine ? copyDir : source,
      baseRef: farm.onThisMachine ? baseBranchOf(instance) : instance.base_commit,
    });
    const refused = await requestRefusal(instance, request, farm.onThisMachine);
    if (refused) throw new InstanceSetupFailed(refused);
    ({ command: testCmd, parser } = testCommandOf(instance));
    repoDir = await localRepository(instance, source, layout.repos);
    // The tests must be able to judge a change: with only the test patch on the base, FAIL_TO_PASS fails and
    // PASS_TO_PASS passes. Checked before any model is paid.
    await scratchCheckout(repoDir, instance.base_commit, scratch);
    if (instance.setup_cmd) {
      const { run: setup, kept } = await runKept(instance.setup_cmd, 'setup.log');
      testRuns.setup = kept;
      // the environment's failure, not the instance's: a set-up that works on another try, or another machine
      if (setup.timedOut) {
        throw new InfraFailed(`environment set-up timed out after ${o.testTimeoutS} s: ${tail(setup.output)}`);
      }
      if (setup.exitCode !== 0) {
        throw new InfraFailed(`environment set-up failed (exit ${setup.exitCode}): ${tail(setup.output)}`);
      }
    }
    await applyTestPatch(scratch, instance.base_commit, instance.test_patch).catch((err: unknown) => {
      throw new InstanceSetupFailed(`at the base commit: ${errorMessage(err)}`, err);
    });
    const { run, statuses, kept } = await runTests('base-tests.log');
    testRuns.base = kept;
    // Slow is not broken: a run at the base that did not finish tells nothing of the instance.
    if (run.timedOut) {
      throw new InfraFailed(
        `the tests at the base did not finish within ${o.testTimeoutS} s (--test-timeout): ${tail(run.output)}`,
      );
    }
    if (!statuses.size) {
      throw new InstanceSetupFailed(
        `the test command reported no test at the base (exit ${run.exitCode}, ${parser} log): ${tail(run.output)}`,
      );
    }
    const broken = brokenAtBase(statuses, instance.FAIL_TO_PASS, instance.PASS_TO_PASS);
    if (broken) throw new InstanceSetupFailed(broken);
  } catch (err) {
    if (!(err instanceof InstanceSetupFailed) && !(err instanceof InfraFailed)) throw err;
    const infra = err instanceof InfraFailed;
    const reason = infra ? `${err.message}; run again to retry` : err.message;
    return {
      ...blank(instance, o.modelName, infra ? 'infra_error' : 'error', reason),
      ...tried,
      ...(Object.keys(testRuns).length ? { testRuns } : {}),
      wallTimeS: seconds(started),
    };
  }

  const setupS = seconds(started);
  const submitted = performance.now();
  if (!(await farm.request(id))) {
    try {
      await farm.submit(request);
    } catch (err) {
      // The farm's API refused the request (400): the instance's error, not a fault to retry.
      if (!(err instanceof FarmError) || err.details.status !== 400) throw err;
      return {
        ...blank(instance, o.modelName, 'error', `the farm refused the request: ${err.message}`),
        ...tried,
        wallTimeS: seconds(started),
      };
    }
  }
  const state = await untilFinal(farm, id, o.instanceTimeoutS * 1000, o.signal);
  if (!state) return undefined;
  const stageTimesS = { setup: setupS, farm: seconds(submitted), branch: 0, scoring: 0, tests: testsMs / 1000 };
  const reports = await reportsOf(farm, id, state);
  const base = {
    ...blank(instance, o.modelName, 'unresolved', ''),
    ...metricsOf(state, reports),
    ...tried,
    changeRequestId: id,
    phase: state.request.phase,
    wallTimeS: seconds(started),
    stageTimesS,
    testRuns,
  };
  if (!FINAL.has(state.request.phase)) {
    return {
      ...base,
      status: 'incomplete',
      reason: `no final phase within ${o.instanceTimeoutS} s (${state.request.phase})`,
    };
  }
  if (state.request.phase !== 'DONE' || !state.request.integrationBranch) {
    const ends = state.tasks.map((t) => ({
      taskId: t.id,
      status: t.status,
      notes: t.notes,
      reports: reports.get(t.id) ?? [],
    }));
    const infra = farmInfraFailure(state.request, ends);
    if (infra) return { ...base, status: 'infra_error', reason: `${infra}; run again to retry` };
    if (state.request.reason.startsWith('refused: ')) {
      return { ...base, status: 'error', reason: `the farm refused the request: ${state.request.reason.slice(9)}` };
    }
    return { ...base, reason: `the farm delivered no change: ${state.request.phase}: ${state.request.reason}` };
  }
  const fetching = performance.now();
  await farm.branchesBack(id, repoDir, state.request.integrationBranch, source);
  const patch = await diffOf(repoDir, instance.base_commit, state.request.integrationBranch);
  stageTimesS.branch = seconds(fetching);
  const scoring = performance.now();
  const judged = { ...base, model_patch: patch };
  try {
    await scratchCheckout(repoDir, instance.base_commit, scratch);
    await applyPatch(scratch, patch, 'model patch');
    await applyTestPatch(scratch, instance.base_commit, instance.test_patch);
  } catch (err) {
    stageTimesS.scoring = seconds(scoring);
    return { ...judged, reason: errorMessage(err), scoringTimeS: stageTimesS.scoring };
  }
  const { run, statuses, kept } = await runTests('tests.log');
  testRuns.change = kept;
  const tests = gradeTests(statuses, instance.FAIL_TO_PASS, instance.PASS_TO_PASS, run);
  await rm(scratch, { recursive: true, force: true });
  stageTimesS.scoring = seconds(scoring);
  stageTimesS.tests = testsMs / 1000;
  return {
    ...judged,
    status: tests.resolved ? 'resolved' : 'unresolved',
    reason: verdictReason(tests, instance),
    tests,
    scoringTimeS: seconds(scoring),
    wallTimeS: seconds(started),
  };
}

/** The verdict in a line: all passing, the log not graded and why, or the first tests not passing. */
export function verdictReason(tests: TestGrade, instance: TaskInstance): string {
  if (tests.resolved) {
    return `all ${instance.FAIL_TO_PASS.length} FAIL_TO_PASS and ${instance.PASS_TO_PASS.length} PASS_TO_PASS tests pass`;
  }
  if (tests.invalidLog) return `not graded: ${tests.invalidLog}`;
  const failing = [
    ...tests.failToPass.failed.map((t) => `FAIL_TO_PASS ${t}`),
    ...tests.passToPass.failed.map((t) => `PASS_TO_PASS ${t}`),
  ];
  return `not passing: ${failing.slice(0, 5).join(', ')}${failing.length > 5 ? ` and ${failing.length - 5} more` : ''}`;
}

/** The request once final (or as it is at the deadline); undefined when the run was interrupted. */
async function untilFinal(
  farm: EvalFarm,
  id: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<FarmRequestState | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal?.aborted) return undefined;
    const state = await farm.request(id);
    if (state && (FINAL.has(state.request.phase) || Date.now() > deadline)) return state;
    if (!state && Date.now() > deadline)
      throw new FarmError(`the farm never recorded request ${id}`, { retryable: true });
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What each dispatch of each of the request's tasks reported, by task. */
async function reportsOf(farm: EvalFarm, id: string, state: FarmRequestState): Promise<Map<string, TaskReport[]>> {
  const out = new Map<string, TaskReport[]>();
  for (const task of state.tasks) out.set(task.id, await farm.reports(id, task.id));
  return out;
}

function metricsOf(state: FarmRequestState, reports: Map<string, TaskReport[]>) {
  const editTiers: Record<string, number> = {};
  let modelCalls = 0;
  let turns = 0;
  let dispatches = 0;
  for (const report of [...reports.values()].flat()) {
    dispatches++;
    modelCalls += report.steps;
    turns += report.attempts;
    for (const e of report.events) {
      if (e.event === 'tool' && typeof e.match === 'string') editTiers[e.match] = (editTiers[e.match] ?? 0) + 1;
    }
  }
  const verification = state.tasks.find((t) => t.verification)?.verification;
  return {
    costUsd: state.request.costUsd,
    tokens: {
      prompt: state.request.tokens.prompt,
      completion: state.request.tokens.completion,
      total: state.request.tokens.total,
    },
    modelCalls,
    turns,
    dispatches,
    editTiers,
    ...(verification ? { verification } : {}),
  };
}

function tail(output: string): string {
  const lines = output.trim().split('\n');
  return lines.slice(-5).join(' | ').slice(-600);
}

const seconds = (since: number) => Math.round(performance.now() - since) / 1000;
