/** What `farm eval run` and `farm eval compare` do (eval-command.ts declares them). */
import path from 'node:path';
import { FarmError, createLogger } from '@farm/runtime';
import { loadCliConfig } from '../config';
import { cliApiUrl, cliToken, farmApiClient } from '../farm-api-client';
import { compareRuns, formatComparison, type RunResults } from './compare';
import { embeddedFarm, embeddedFarmEnv, remoteFarm } from './eval-farm';
import type { InstanceResult } from './instance-result';
import { runEval } from './run-eval';
import { regradeRun } from './regrade';
import { readResults, resolveRunDir, runLayout } from './run-results';

export interface EvalRunFlags {
  dataset: string;
  instances?: string;
  runId?: string;
  modelName?: string;
  modelScript?: string;
  concurrency: number;
  maxCostUsd?: number;
  instanceTimeout: number;
  testTimeout: number;
  outDir: string;
  reposDir?: string;
  json?: boolean;
}

export async function evalRunCommand(o: EvalRunFlags): Promise<void> {
  const log = createLogger('farm-eval', { level: (process.env.LOG_LEVEL as 'info') || 'warn' });
  const { startScriptedModel } = await import('../commands');
  const scripted = o.modelScript ? await startScriptedModel(o.modelScript, log) : undefined;
  const modelEnv = { ...process.env, ...scripted?.env };
  const runId =
    o.runId ?? `${path.basename(o.dataset).replace(/\.jsonl?$/, '')}-${new Date().toISOString().slice(0, 10)}`;
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(130);
    process.stderr.write('interrupted: finished instances are kept; run again with the same --run-id to resume\n');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  const out = (line: string) => process.stdout.write(line + '\n');
  try {
    const { report, layout } = await runEval({
      dataset: o.dataset,
      instanceIds: o.instances
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      runId,
      evalDir: o.outDir,
      mirrorDirs: o.reposDir ? [path.resolve(o.reposDir)] : [],
      modelName: o.modelName ?? modelEnv.FARM_MODEL ?? 'farm',
      concurrency: o.concurrency,
      maxCostUsd: o.maxCostUsd,
      instanceTimeoutS: o.instanceTimeout,
      testTimeoutS: o.testTimeout,
      log,
      signal: abort.signal,
      onResult: o.json
        ? undefined
        : (r: InstanceResult) => out(`${r.instance_id.padEnd(32)} ${r.status.padEnd(10)} ${r.reason}`),
      startFarm: async (layout) => {
        if (process.env.FARM_URL) {
          const config = loadCliConfig();
          return remoteFarm(farmApiClient(config, { maxReconnects: 60 }), cliApiUrl(config), cliToken(config));
        }
        return embeddedFarm(embeddedFarmEnv(modelEnv, layout), log);
      },
    });
    if (o.json) {
      out(JSON.stringify(report, null, 2));
    } else {
      const c = report.counts;
      const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
      out(
        `\nrun ${runId}: ${c.resolved} resolved, ${c.unresolved} unresolved, ${c.error} error(s), ` +
          `${c.infra_error} infrastructure failure(s), ${c.incomplete} incomplete; ` +
          `resolved rate ${pct(report.resolvedRate)} (95 % CI ${pct(report.resolvedRateCi95.low)}–${pct(report.resolvedRateCi95.high)}), ` +
          `cost $${report.costUsd.toFixed(4)}`,
      );
      if (c.infra_error || c.incomplete) {
        out(`${c.infra_error + c.incomplete} instance(s) not judged yet: run again with --run-id ${runId} to run them`);
      }
      out(`predictions   ${layout.predictions}`);
      out(`report        ${layout.report}`);
      out(`page          ${layout.html}`);
    }
    if (abort.signal.aborted) process.exitCode = 130;
  } finally {
    process.off('SIGINT', onSigint);
    await scripted?.close();
  }
}

export async function evalCompareCommand(runs: string[], o: { outDir: string; json?: boolean }): Promise<void> {
  const loaded: RunResults[] = [];
  for (const run of runs) {
    const dir = resolveRunDir(o.outDir, run);
    const results = await readResults(path.join(dir, 'results.jsonl'));
    if (!results.size) throw new FarmError(`no results in ${dir}`, { retryable: false });
    loaded.push({ name: path.basename(dir), results });
  }
  const comparison = compareRuns(loaded);
  process.stdout.write((o.json ? JSON.stringify(comparison, null, 2) : formatComparison(comparison)) + '\n');
}

export async function evalRegradeCommand(run: string, o: { outDir: string; json?: boolean }): Promise<void> {
  const dir = resolveRunDir(o.outDir, run);
  const { regraded, report } = await regradeRun(runLayout(path.dirname(dir), path.basename(dir)));
  if (o.json) {
    process.stdout.write(
      JSON.stringify({ regraded, counts: report.counts, resolvedRate: report.resolvedRate }, null, 2) + '\n',
    );
    return;
  }
  for (const r of regraded) process.stdout.write(`${r.instance_id.padEnd(32)} ${r.from} -> ${r.to}  ${r.reason}\n`);
  const c = report.counts;
  process.stdout.write(
    `${regraded.length} verdict(s) changed; ${c.resolved} resolved, ${c.unresolved} unresolved, ` +
      `resolved rate ${(100 * report.resolvedRate).toFixed(1)} %\n`,
  );
}
