/**
 * What `farm eval` adds per instance beyond the agent and the tests, on one machine: the shipped cachetools
 * instances with the scripted model, one at a time on one embedded farm. Per instance: the eval's wall time less
 * the time its request spent in the farm and its own test runs in the sandbox (what the eval adds: repository
 * copy, scratch checkouts, patches, grading, bookkeeping; the target is under 1 s); and the ratio of the eval's
 * wall time to a reference measured just before in the same run on the same farm: the same request submitted
 * directly and followed to its final phase, plus the instance's test command run twice in the sandbox.
 *
 *   node --import tsx bench/eval-overhead.ts [--runs 1]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@farm/runtime';
import { loadModelScript, startScriptedModelServer } from '@farm/scripted-llm';
import { embeddedFarm, type EvalFarm } from '../apps/cli/src/eval/eval-farm';
import { parseInstances, testCommandOf } from '../apps/cli/src/eval/instances';
import {
  applyTestPatch,
  baseBranchOf,
  repoSource,
  runInSandbox,
  scratchCheckout,
} from '../apps/cli/src/eval/instance-workspace';
import { localRepository } from '../apps/cli/src/eval/repository-copies';
import { runEval } from '../apps/cli/src/eval/run-eval';
import { median, ROOT } from './process-timing';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const SET = path.join(ROOT, 'eval', 'datasets', 'swe-mini');
const DATASET = path.join(SET, 'instances.jsonl');

async function untilFinal(farm: EvalFarm, id: string): Promise<void> {
  for (;;) {
    const state = await farm.request(id);
    if (state && ['DONE', 'FAILED', 'CANCELLED'].includes(state.request.phase)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'farm-eval-bench-'));
  const log = createLogger('eval-bench', { level: 'warn' });
  const model = await startScriptedModelServer({
    script: await loadModelScript(path.join(SET, 'scripts', 'agent-a.json')),
  });
  const farm = await embeddedFarm(
    {
      ...process.env,
      FARM_STATE_DIR: path.join(tmp, 'farm'),
      FARM_WORK_DIR: path.join(tmp, 'work'),
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'bench',
      FARM_PLANNER_MODEL: 'scripted-planner',
      FARM_MODEL: 'scripted-agent',
      KAFKA_BROKERS: '',
      DATABASE_URL: '',
      FARM_LAUNCHER: 'process',
    },
    log,
  );
  const instances = parseInstances(readFileSync(DATASET, 'utf8'), DATASET);
  const rows: { id: string; evalS: number; farmS: number; testsS: number; stageFarmS: number; stageTestsS: number }[] =
    [];
  try {
    for (let run = 0; run < Number(values.runs); run++) {
      for (const instance of instances) {
        // The reference: the farm alone on the same request, then the tests alone, twice (base check, scoring).
        const repo = await localRepository(instance, repoSource(instance, SET), path.join(tmp, 'repos'));
        const started = performance.now();
        const id = randomUUID();
        await farm.submit({
          id,
          repoUrl: repo,
          baseRef: baseBranchOf(instance),
          title: instance.problem_statement.split('\n')[0],
          description: instance.problem_statement,
          checkCommand: instance.check_cmd,
        });
        await untilFinal(farm, id);
        const farmS = (performance.now() - started) / 1000;
        const scratch = path.join(tmp, 'scratch', instance.instance_id);
        await scratchCheckout(repo, instance.base_commit, scratch);
        await applyTestPatch(scratch, instance.base_commit, instance.test_patch);
        let testsMs = 0;
        for (let i = 0; i < 2; i++) {
          testsMs += (await runInSandbox(scratch, testCommandOf(instance).command, 120_000)).durationMs;
        }
        // The eval of the same instance, right after, on the same farm.
        const outcome = await runEval({
          dataset: DATASET,
          instanceIds: [instance.instance_id],
          runId: `bench-${run}-${instance.instance_id}`,
          evalDir: path.join(tmp, 'runs'),
          modelName: 'scripted-agent',
          concurrency: 1,
          instanceTimeoutS: 600,
          testTimeoutS: 120,
          log,
          startFarm: async () => ({ ...farm, stop: async () => undefined }),
        });
        const r = outcome.report.results[0];
        rows.push({
          id: r.instance_id,
          evalS: r.wallTimeS,
          farmS,
          testsS: testsMs / 1000,
          stageFarmS: r.stageTimesS?.farm ?? 0,
          stageTestsS: r.stageTimesS?.tests ?? 0,
        });
      }
    }
  } finally {
    await farm.stop();
    await model.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  const f = (s: number) => `${s.toFixed(2)} s`.padStart(9);
  console.log(
    `${'instance'.padEnd(30)} ${'eval'.padStart(9)} ${'its farm'.padStart(9)} ${'its tests'.padStart(9)} ${'overhead'.padStart(9)}` +
      ` | ${'farm alone'.padStart(10)} ${'tests alone'.padStart(11)}  eval / alone`,
  );
  for (const r of rows) {
    const overhead = r.evalS - r.stageFarmS - r.stageTestsS;
    console.log(
      `${r.id.padEnd(30)} ${f(r.evalS)} ${f(r.stageFarmS)} ${f(r.stageTestsS)} ${f(overhead)} | ${f(r.farmS).padStart(10)} ${f(r.testsS).padStart(11)}  ${(r.evalS / (r.farmS + r.testsS)).toFixed(2)}x`,
    );
  }
  const overheads = rows.map((r) => r.evalS - r.stageFarmS - r.stageTestsS);
  console.log(
    `\noverhead per instance (eval's wall time less its farm and its test runs): median ${median(overheads).toFixed(2)} s, ` +
      `max ${Math.max(...overheads).toFixed(2)} s (target: under 1 s)`,
  );
  console.log(
    `eval / (farm alone + tests alone), measured just before on the same farm: median ` +
      `${median(rows.map((r) => r.evalS / (r.farmS + r.testsS))).toFixed(2)}x (the farm's own time varies most on a busy machine)`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
