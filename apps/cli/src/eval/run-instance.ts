/**
 * One instance of an evaluation run, start to end: its tests checked sound at the base (else an error of the
 * instance), the request submitted to the farm (once: a resumed run finds it again by its id) and followed to its
 * final phase, the farm's branch taken as the model patch and judged by the instance's tests in the sandbox.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { FarmError, errorMessage } from '@farm/runtime';
import type { EvalFarm, FarmRequestState } from './eval-farm';
import { brokenAtBase, gradeTests } from './grading';
import type { InstanceResult } from './instance-result';
import { testCommandOf, type LogParserName, type TaskInstance } from './instances';
import { requestOf, requestRefusal, type InstanceRequest } from './instance-request';
import {
  InstanceSetupFailed,
  applyPatch,
  applyTestPatch,
  baseBranchOf,
  diffOf,
  localRepository,
  repoCopyDir,
  repoSource,
  runInSandbox,
  scratchCheckout,
  scratchDirOf,
} from './instance-workspace';
import type { RunLayout } from './run-results';
import { parseTestLog } from './test-logs';

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

/** The request id of an instance in a run: the same on every resume, so the farm's request is found again. */
export function requestIdOf(runId: string, instanceId: string): string {
  const h = createHash('sha256').update(`farm-eval\0${runId}\0${instanceId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function incomplete(instance: TaskInstance, modelName: string, reason: string): InstanceResult {
  return blank(instance, modelName, 'incomplete', reason);
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
): Promise<InstanceResult | undefined> {
  const started = performance.now();
  let testsMs = 0;
  let scratch = '';
  let testCmd = '';
  let parser: LogParserName = 'pytest';
  const runTests = async () => {
    const run = await runInSandbox(scratch, testCmd, o.testTimeoutS * 1000);
    testsMs += run.durationMs;
    return { run, statuses: parseTestLog(parser, run.output) };
  };
  const source = repoSource(instance, datasetDir, [...(o.mirrorDirs ?? []), datasetDir]);
  const id = requestIdOf(o.runId, instance.instance_id);
  let repoDir: string;
  let request: InstanceRequest;
  try {
    // What the instance names (its id, its repository) becomes directories strictly inside the run's, and the
    // request it becomes is one the farm takes: else it is this instance's error, before anything is done.
    scratch = scratchDirOf(instance, layout.scratch);
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
      const setup = await runInSandbox(scratch, instance.setup_cmd, o.testTimeoutS * 1000);
      if (setup.exitCode !== 0) {
        throw new InstanceSetupFailed(`environment set-up failed (exit ${setup.exitCode}): ${tail(setup.output)}`);
      }
    }
    await applyTestPatch(scratch, instance.base_commit, instance.test_patch).catch((err: unknown) => {
      throw new InstanceSetupFailed(`at the base commit: ${errorMessage(err)}`, err);
    });
    const { run, statuses } = await runTests();
    if (!statuses.size) {
      throw new InstanceSetupFailed(
        `the test command reported no test at the base (exit ${run.exitCode}, ${parser} log): ${tail(run.output)}`,
      );
    }
    const broken = brokenAtBase(statuses, instance.FAIL_TO_PASS, instance.PASS_TO_PASS);
    if (broken) throw new InstanceSetupFailed(broken);
  } catch (err) {
    if (!(err instanceof InstanceSetupFailed)) throw err;
    return { ...blank(instance, o.modelName, 'error', err.message), wallTimeS: seconds(started) };
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
        wallTimeS: seconds(started),
      };
    }
  }
  const state = await untilFinal(farm, id, o.instanceTimeoutS * 1000, o.signal);
  if (!state) return undefined;
  const stageTimesS = { setup: setupS, farm: seconds(submitted), branch: 0, scoring: 0, tests: testsMs / 1000 };
  const metrics = await metricsOf(farm, id, state);
  const base = {
    ...blank(instance, o.modelName, 'unresolved', ''),
    ...metrics,
    changeRequestId: id,
    phase: state.request.phase,
    wallTimeS: seconds(started),
    stageTimesS,
  };
  if (!FINAL.has(state.request.phase)) {
    return {
      ...base,
      status: 'incomplete',
      reason: `no final phase within ${o.instanceTimeoutS} s (${state.request.phase})`,
    };
  }
  if (state.request.phase !== 'DONE' || !state.request.integrationBranch) {
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
  const { statuses } = await runTests();
  const tests = gradeTests(statuses, instance.FAIL_TO_PASS, instance.PASS_TO_PASS);
  await rm(scratch, { recursive: true, force: true });
  stageTimesS.scoring = seconds(scoring);
  stageTimesS.tests = testsMs / 1000;
  const failing = [
    ...tests.failToPass.failed.map((t) => `FAIL_TO_PASS ${t}`),
    ...tests.passToPass.failed.map((t) => `PASS_TO_PASS ${t}`),
  ];
  return {
    ...judged,
    status: tests.resolved ? 'resolved' : 'unresolved',
    reason: tests.resolved
      ? `all ${instance.FAIL_TO_PASS.length} FAIL_TO_PASS and ${instance.PASS_TO_PASS.length} PASS_TO_PASS tests pass`
      : `not passing: ${failing.slice(0, 5).join(', ')}${failing.length > 5 ? ` and ${failing.length - 5} more` : ''}`,
    tests,
    scoringTimeS: seconds(scoring),
    wallTimeS: seconds(started),
  };
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

async function metricsOf(farm: EvalFarm, id: string, state: FarmRequestState) {
  const editTiers: Record<string, number> = {};
  let modelCalls = 0;
  let turns = 0;
  let dispatches = 0;
  for (const task of state.tasks) {
    for (const report of await farm.reports(id, task.id)) {
      dispatches++;
      modelCalls += report.steps;
      turns += report.attempts;
      for (const e of report.events) {
        if (e.event === 'tool' && typeof e.match === 'string') editTiers[e.match] = (editTiers[e.match] ?? 0) + 1;
      }
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
