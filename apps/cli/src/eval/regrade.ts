/**
 * `farm eval regrade`: a run's verdicts graded again from the test output kept with each (after the reading of
 * logs or the matching of ids changed, or to check a verdict by hand), no farm, no model, no test run. A verdict
 * that changes is appended to results.jsonl (the latest line of an instance counts) and the outputs are written
 * again. An instance that was an error because its tests looked broken at the base, and are sound when read
 * again, becomes incomplete: the next run judges it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FarmError } from '@farm/runtime';
import { brokenAtBase, gradeTests, type TestGrade } from './grading';
import type { InstanceResult, TestRun } from './instance-result';
import { parseInstances, type TaskInstance } from './instances';
import type { RunReport } from './report';
import { verdictReason } from './run-instance';
import { appendResult, readResults, type RunLayout, type RunSettings } from './run-results';
import { parseTestLog } from './test-logs';
import { writeOutputs } from './run-eval';

export interface Regraded {
  instance_id: string;
  from: string;
  to: string;
  reason: string;
}

/** The statuses of the tests a kept run's log names, read as the run was read (its parser). */
async function statusesOf(layout: RunLayout, run: TestRun) {
  const file = path.resolve(layout.dir, run.log);
  // a path from results.jsonl, which anyone may edit: read only inside the run's directory
  if (!file.startsWith(layout.dir + path.sep)) {
    throw new FarmError(`${run.log}: not a file of the run's directory`, { retryable: false });
  }
  return parseTestLog(run.parser, await readFile(file, 'utf8'));
}

/** The instance's verdict graded again from its kept logs, or undefined when it has none to grade or is unchanged. */
export async function regradeResult(
  layout: RunLayout,
  result: InstanceResult,
  instance: TaskInstance,
): Promise<InstanceResult | undefined> {
  const { change, base } = result.testRuns ?? {};
  if (change && (result.status === 'resolved' || result.status === 'unresolved')) {
    const tests = gradeTests(await statusesOf(layout, change), instance.FAIL_TO_PASS, instance.PASS_TO_PASS, change);
    const status = tests.resolved ? 'resolved' : 'unresolved';
    if (status === result.status && sameGrade(tests, result.tests)) return undefined;
    return { ...result, status, reason: verdictReason(tests, instance), tests, finishedAt: new Date().toISOString() };
  }
  if (
    base &&
    result.status === 'error' &&
    /^tests broken at base|^the test command reported no test/.test(result.reason)
  ) {
    const statuses = await statusesOf(layout, base);
    if (!statuses.size || brokenAtBase(statuses, instance.FAIL_TO_PASS, instance.PASS_TO_PASS)) return undefined;
    return {
      ...result,
      status: 'incomplete',
      reason: 'its tests are sound at the base when read again: run again to judge it',
      finishedAt: new Date().toISOString(),
    };
  }
  return undefined;
}

const sameGrade = (a: TestGrade, b: TestGrade | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** Every verdict of the run graded again; the changed ones recorded and the outputs written again. */
export async function regradeRun(layout: RunLayout): Promise<{ regraded: Regraded[]; report: RunReport }> {
  let settings: RunSettings;
  try {
    settings = JSON.parse(await readFile(layout.settings, 'utf8')) as RunSettings;
  } catch (err) {
    throw new FarmError(`${layout.dir} holds no run (${layout.settings}): ${(err as Error).message}`, {
      retryable: false,
    });
  }
  const instances = parseInstances(await readFile(settings.dataset, 'utf8'), settings.dataset);
  const results = await readResults(layout.results);
  const regraded: Regraded[] = [];
  for (const instance of instances) {
    const earlier = results.get(instance.instance_id);
    const again = earlier && (await regradeResult(layout, earlier, instance));
    if (!earlier || !again) continue;
    await appendResult(layout, again);
    regraded.push({ instance_id: instance.instance_id, from: earlier.status, to: again.status, reason: again.reason });
  }
  const report = await writeOutputs(layout, instances, settings);
  return { regraded, report };
}
