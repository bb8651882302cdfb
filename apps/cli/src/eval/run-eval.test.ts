import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '@farm/runtime';
import type { EvalFarm } from './eval-farm';
import { parseInstances } from './instances';
import { runEval } from './run-eval';
import { readResults } from './run-results';
import type { SubmitInput } from '../submit';

const SET = path.join(__dirname, '..', '..', '..', '..', 'eval', 'datasets', 'swe-mini');
const ID = 'tkem__cachetools-387';

test('a request carries the problem statement only; a farm that fails mid-way leaves the instance incomplete, to retry', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'run-eval-'));
  const submitted: SubmitInput[] = [];
  let asked = 0;
  const farm: EvalFarm = {
    onThisMachine: true,
    submit: async (input) => void submitted.push(input),
    request: async () => {
      if (asked++ === 0) return undefined; // not seen yet: submitted
      throw new Error('the farm went away');
    },
    reports: async () => [],
    branchesBack: async () => undefined,
    stop: async () => undefined,
  };
  try {
    const outcome = await runEval({
      dataset: path.join(SET, 'instances.jsonl'),
      instanceIds: [ID],
      runId: 'r',
      evalDir: tmp,
      modelName: 'm',
      concurrency: 1,
      instanceTimeoutS: 60,
      testTimeoutS: 60,
      log: silentLogger,
      startFarm: async () => farm,
    });
    const instance = parseInstances(readFileSync(path.join(SET, 'instances.jsonl'), 'utf8')).find(
      (i) => i.instance_id === ID,
    )!;
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      title: '@cachedmethod breaks unittest.mock.create_autospec',
      description: instance.problem_statement,
      baseRef: `eval-base/${ID}`,
    });
    const sent = JSON.stringify(submitted);
    expect(sent).not.toContain('test_autospec_no_warnings'); // the test patch's test
    expect(sent).not.toContain('if obj is None'); // the gold patch
    const result = (await readResults(path.join(outcome.layout.dir, 'results.jsonl'))).get(ID)!;
    expect(result.status).toBe('incomplete');
    expect(result.reason).toBe('the evaluation failed: the farm went away; run again to retry');
    expect(outcome.report.counts.incomplete).toBe(1);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
