/**
 * `farm eval run`: each instance of a dataset through the farm as a change request (the problem statement on
 * the repository at its base commit; never its tests or its gold patch), then judged by its own tests on the
 * farm's branch in a scratch checkout. Instances run `concurrency` at a time; the farm's own parallelism and
 * cost caps bind the agents, and the run's cost cap stops starting new ones. Each result is appended as it
 * comes, so an interrupted run resumes where it stopped, and runs again what it did not finish or what the farm
 * or the environment failed (`infra_error`).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, type Logger } from '@farm/runtime';
import type { EvalFarm } from './eval-farm';
import { parseInstances, selectInstances, type TaskInstance } from './instances';
import { formatPredictions, predictionsOf } from './predictions';
import { buildReport, type RunReport } from './report';
import { renderReportHtml } from './report-html';
import { appendResult, readResults, runLayout, settleRunSettings, type RunLayout } from './run-results';
import { toRunAgain, type InstanceResult } from './instance-result';
import { attemptOf, incomplete, infraError, runInstance, type InstanceRunSettings } from './run-instance';

export interface EvalRunOptions extends InstanceRunSettings {
  dataset: string;
  instanceIds?: string[];
  evalDir: string;
  /** Instances in flight at once. */
  concurrency: number;
  /** No instance starts once the run's instances cost this much (US dollars). */
  maxCostUsd?: number;
  /** The farm to run on, started once the run's directory exists. */
  startFarm(layout: RunLayout): Promise<EvalFarm>;
  log: Logger;
  /** Each instance's result, as it is recorded. */
  onResult?(result: InstanceResult): void;
}

export interface EvalRunOutcome {
  layout: RunLayout;
  report: RunReport;
  /** Instances this invocation ran (the others were finished by an earlier one). */
  ran: string[];
}

export async function runEval(o: EvalRunOptions): Promise<EvalRunOutcome> {
  const datasetFile = path.resolve(o.dataset);
  const instances = selectInstances(parseInstances(await readFile(datasetFile, 'utf8'), datasetFile), o.instanceIds);
  const layout = runLayout(o.evalDir, o.runId);
  const settings = await settleRunSettings(layout, {
    runId: o.runId,
    dataset: datasetFile,
    modelName: o.modelName,
    startedAt: new Date().toISOString(),
  });
  const earlier = await readResults(layout.results);
  const pending = instances.filter((i) => toRunAgain(earlier.get(i.instance_id)));
  o.log.info('evaluation run', {
    runId: o.runId,
    instances: instances.length,
    finishedEarlier: instances.length - pending.length,
    toRun: pending.length,
  });
  const ran: string[] = [];
  if (pending.length && !o.signal?.aborted) {
    const farm = await o.startFarm(layout);
    try {
      let spent = [...earlier.values()].reduce((s, r) => s + r.costUsd, 0);
      const queue = [...pending];
      const worker = async () => {
        for (let next = queue.shift(); next && !o.signal?.aborted; next = queue.shift()) {
          const instance = next;
          const attempt = attemptOf(earlier.get(instance.instance_id));
          const result =
            o.maxCostUsd !== undefined && spent >= o.maxCostUsd
              ? incomplete(
                  instance,
                  o.modelName,
                  `the run's cost cap ($${o.maxCostUsd}) was reached: $${spent.toFixed(4)} spent`,
                )
              : await runInstance(instance, farm, layout, path.dirname(datasetFile), o, attempt).catch(
                  (err: unknown) => {
                    // Not the instance's fault nor the agent's (the farm or this machine failed): an infra_error, which
                    // the next run of the same id tries again, while the other instances go on. Interrupted, the
                    // instance is merely unfinished.
                    o.log.error('instance could not be run', { instanceId: instance.instance_id, err });
                    const why = `the evaluation failed: ${errorMessage(err)}; run again to retry`;
                    const unfinished = o.signal?.aborted ? incomplete : infraError;
                    return { ...unfinished(instance, o.modelName, why), ...(attempt > 1 ? { attempt } : {}) };
                  },
                );
          if (!result) continue; // interrupted: the next run picks it up
          spent += result.costUsd;
          await appendResult(layout, result);
          ran.push(instance.instance_id);
          o.log.info('instance finished', {
            instanceId: instance.instance_id,
            status: result.status,
            reason: result.reason,
          });
          o.onResult?.(result);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, pending.length)) }, worker));
    } finally {
      await farm.stop();
    }
  }
  const report = await writeOutputs(layout, instances, { ...settings, runId: o.runId });
  return { layout, report, ran };
}

/** predictions.jsonl, report.json and report.html from the run's recorded results. */
export async function writeOutputs(
  layout: RunLayout,
  instances: TaskInstance[],
  meta: { runId: string; dataset: string; modelName: string },
): Promise<RunReport> {
  const recorded = await readResults(layout.results);
  const results = instances.map(
    (i) => recorded.get(i.instance_id) ?? incomplete(i, meta.modelName, 'not run yet: run again to resume'),
  );
  await writeFile(layout.predictions, formatPredictions(predictionsOf(results)));
  const report = buildReport(meta, results);
  await writeFile(layout.report, JSON.stringify(report, null, 2) + '\n');
  const patches = new Map(results.map((r) => [r.instance_id, r.model_patch]));
  await writeFile(
    layout.html,
    renderReportHtml(report, { patches, trajectories: await trajectoryFilesOf(layout, results) }),
  );
  return report;
}

/** Each instance's trajectory files (its request's tasks, every dispatch), as paths from the report. */
async function trajectoryFilesOf(layout: RunLayout, results: InstanceResult[]): Promise<Map<string, string[]>> {
  const names = await readdir(layout.trajectories).catch(() => [] as string[]);
  const out = new Map<string, string[]>();
  for (const r of results) {
    if (!r.changeRequestId) continue;
    const prefix = r.changeRequestId.replace(/[^A-Za-z0-9._-]/g, '_');
    const mine = names.filter((n) => n.startsWith(prefix) && n.endsWith('.jsonl')).sort();
    out.set(
      r.instance_id,
      mine.map((n) => path.relative(layout.dir, path.join(layout.trajectories, n))),
    );
  }
  return out;
}
