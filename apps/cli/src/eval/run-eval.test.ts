import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '@farm/runtime';
import type { EvalFarm, FarmRequestState } from './eval-farm';
import { parseInstances } from './instances';
import { runEval } from './run-eval';
import { regradeRun } from './regrade';
import { readResults } from './run-results';
import type { SubmitInput } from '../submit';

const SET = path.join(__dirname, '..', '..', '..', '..', 'eval', 'datasets', 'swe-mini');
const ID = 'tkem__cachetools-387';

test('a request carries the problem statement only; a farm that fails mid-way is an infrastructure failure, to retry', async () => {
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
    expect(result.status).toBe('infra_error');
    expect(result.reason).toBe('the evaluation failed: the farm went away; run again to retry');
    expect(outcome.report.counts).toMatchObject({ infra_error: 1, unresolved: 0 });
    expect(outcome.report.resolvedRateCi95).toEqual({ low: 0, high: 0 }); // nothing judged
    // no prediction: SWE-bench's harness would count its empty patch as the agent's
    expect(readFileSync(outcome.layout.predictions, 'utf8')).toBe('');
    // the set-up check's test output is kept, where the result says
    expect(readFileSync(path.join(outcome.layout.dir, 'logs', ID, 'base-tests.log'), 'utf8')).toMatch(/\.\.\. ok/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("the model server unreachable is the farm's failure: infra_error, out of the rate; run again, a new request is judged", async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'run-eval-'));
  const submitted: string[] = [];
  let modelUp = false;
  const ended = (id: string): FarmRequestState => ({
    request: {
      phase: 'FAILED',
      reason: 'task item-1 HARD_FAIL: ...',
      integrationBranch: '',
      costUsd: 0,
      tokens: { prompt: 0, completion: 0, total: 0 },
    },
    tasks: [
      {
        id: `${id}-item-1`,
        status: 'HARD_FAIL',
        dispatch: 1,
        attempts: 1,
        costUsd: 0,
        tokens: { prompt: 0, completion: 0, total: 0 },
        notes: '',
      },
    ],
  });
  // Each request is failed as the model server was when it was submitted: away, then answering (badly).
  const outcomes = new Map<string, string>();
  const farm: EvalFarm = {
    onThisMachine: true,
    submit: async (input) => {
      submitted.push(input.id);
      outcomes.set(input.id, modelUp ? 'attempts' : 'llm');
    },
    request: async (id) => (outcomes.has(id) ? ended(id) : undefined),
    reports: async (id) => {
      const step = outcomes.get(id)!;
      const note = step === 'llm' ? 'model unavailable: connect ECONNREFUSED 127.0.0.1:8080' : 'no diff applied';
      return [
        {
          steps: 1,
          attempts: 1,
          costUsd: 0,
          tokens: { prompt: 0, completion: 0, total: 0 },
          events: [],
          status: 'HARD_FAIL',
          failedStep: step,
          notes: [note],
        },
      ];
    },
    branchesBack: async () => undefined,
    stop: async () => undefined,
  };
  const options = {
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
  };
  try {
    const first = await runEval(options);
    const result = (await readResults(first.layout.results)).get(ID)!;
    expect(result).toMatchObject({ status: 'infra_error', phase: 'FAILED' });
    expect(result.reason).toBe(
      `task ${submitted[0]}-item-1 failed at llm (the model server could not be reached): ` +
        'model unavailable: connect ECONNREFUSED 127.0.0.1:8080; run again to retry',
    );
    expect(first.report.counts).toMatchObject({ infra_error: 1, unresolved: 0 });
    expect(first.report.resolvedRateCi95).toEqual({ low: 0, high: 0 });

    modelUp = true;
    const again = await runEval(options);
    expect(again.ran).toEqual([ID]);
    // a new request (the first one is final), judged as the agent's this time
    expect(submitted).toHaveLength(2);
    expect(submitted[1]).not.toBe(submitted[0]);
    const judged = (await readResults(again.layout.results)).get(ID)!;
    expect(judged).toMatchObject({ status: 'unresolved', attempt: 2, changeRequestId: submitted[1] });
    expect(judged.reason).toMatch(/^the farm delivered no change: FAILED/);
    // what the set-up check graded is kept with the result
    expect(judged.testRuns?.base).toMatchObject({ log: `logs/${ID}/base-tests.log`, parser: 'unittest', exitCode: 1 });
    expect(readFileSync(path.join(again.layout.dir, judged.testRuns!.base!.log), 'utf8')).toContain(
      'test_autospec_no_warnings',
    );
    // a third run has nothing to do
    expect((await runEval(options)).ran).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a delivered change is graded from the test output kept beside its result, and graded again from it alike', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'run-eval-'));
  const instance = parseInstances(readFileSync(path.join(SET, 'instances.jsonl'), 'utf8')).find(
    (i) => i.instance_id === ID,
  )!;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });
  const delivered = new Set<string>();
  // The farm's change is the instance's gold patch, on the branch the farm would have fetched back.
  const farm: EvalFarm = {
    onThisMachine: true,
    submit: async (input) => {
      const work = path.join(tmp, 'work');
      execFileSync('git', ['clone', '-q', '--no-checkout', input.repoUrl, work]);
      git(work, 'checkout', '-q', instance.base_commit);
      writeFileSync(path.join(tmp, 'gold.patch'), instance.patch!);
      git(work, 'apply', path.join(tmp, 'gold.patch'));
      git(work, '-c', 'user.name=farm', '-c', 'user.email=farm@example.com', 'commit', '-qam', 'fix');
      git(work, 'push', '-q', input.repoUrl, `HEAD:refs/heads/farm/${input.id}`);
      delivered.add(input.id);
    },
    request: async (id) =>
      delivered.has(id)
        ? {
            request: {
              phase: 'DONE',
              reason: '',
              integrationBranch: `farm/${id}`,
              costUsd: 0.01,
              tokens: { prompt: 1, completion: 1, total: 2 },
            },
            tasks: [],
          }
        : undefined,
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
    const result = (await readResults(outcome.layout.results)).get(ID)!;
    expect(result.status).toBe('resolved');
    expect(result.testRuns?.change).toMatchObject({ log: `logs/${ID}/tests.log`, parser: 'unittest', exitCode: 0 });
    const log = readFileSync(path.join(outcome.layout.dir, result.testRuns!.change!.log), 'utf8');
    expect(log).toMatch(/^test_autospec_no_warnings \(tests\.test_cachedmethod\.AutospecTest.*\) \.\.\. ok$/m);
    expect(readFileSync(outcome.layout.html, 'utf8')).toContain(`<a href="logs/${ID}/tests.log">`);
    // graded again from the kept log: the same verdict, nothing recorded
    expect((await regradeRun(outcome.layout)).regraded).toEqual([]);
    // a verdict recorded by another grading (an older farm's) is corrected from the same log
    writeFileSync(
      outcome.layout.results,
      JSON.stringify({ ...result, status: 'unresolved', reason: 'graded otherwise' }) + '\n',
    );
    const again = await regradeRun(outcome.layout);
    expect(again.regraded).toEqual([{ instance_id: ID, from: 'unresolved', to: 'resolved', reason: result.reason }]);
    expect(again.report.counts.resolved).toBe(1);
    expect((await readResults(outcome.layout.results)).get(ID)).toMatchObject({ status: 'resolved' });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
