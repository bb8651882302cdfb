/**
 * Hostile datasets: whatever an instance says (a path for its repository or its id, a problem statement of
 * megabytes), `farm eval` touches nothing outside its run directory, the instance ends as its own error, naming
 * the field and the bound, and the other instances go on.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '@farm/runtime';
import type { EvalFarm, FarmRequestState } from './eval-farm';
import { runEval } from './run-eval';
import { readResults, runLayout } from './run-results';
import type { SubmitInput } from '../submit';

const SET = path.join(__dirname, '..', '..', '..', '..', 'eval', 'datasets', 'swe-mini');
const shipped = JSON.parse(
  readFileSync(path.join(SET, 'instances.jsonl'), 'utf8')
    .split('\n')
    .find((l) => l.includes('"tkem__cachetools-387"'))!,
) as Record<string, unknown>;
/** The shipped instance under another id, its repository the shipped bundle wherever the dataset is. */
const instance = (over: Record<string, unknown>) => ({
  ...shipped,
  repo_path: path.join(SET, 'cachetools.bundle'),
  ...over,
});

/** A farm that takes every request and ends it FAILED; what it was sent is kept. */
function failingFarm(): EvalFarm & { submitted: SubmitInput[] } {
  const submitted: (SubmitInput & { id: string })[] = [];
  const state: FarmRequestState = {
    request: {
      phase: 'FAILED',
      reason: 'scripted',
      integrationBranch: '',
      costUsd: 0,
      tokens: { prompt: 0, completion: 0, total: 0 },
    },
    tasks: [],
  };
  return {
    submitted,
    onThisMachine: true,
    submit: async (input) => void submitted.push(input),
    request: async (id) => (submitted.some((s) => s.id === id) ? state : undefined),
    reports: async () => [],
    branchesBack: async () => undefined,
    stop: async () => undefined,
  };
}

async function run(tmp: string, lines: Record<string, unknown>[], farm: EvalFarm) {
  const dataset = path.join(tmp, 'hostile.jsonl');
  writeFileSync(dataset, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return runEval({
    dataset,
    runId: 'hostile',
    evalDir: path.join(tmp, 'eval'),
    modelName: 'm',
    concurrency: 1,
    instanceTimeoutS: 60,
    testTimeoutS: 120,
    log: silentLogger,
    startFarm: async () => farm,
  });
}

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'eval-hostile-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

test("a problem statement past the API's bound is that instance's error, naming the field and the bound; the next one runs", async () => {
  const farm = failingFarm();
  const outcome = await run(
    tmp,
    [
      instance({ instance_id: 'huge-1', problem_statement: 'It breaks.\n' + 'x'.repeat(2_000_000) }),
      instance({ instance_id: 'nul-2', problem_statement: 'It breaks.\n\0' }),
      instance({ instance_id: 'long-check-3', check_cmd: 'true '.repeat(3_000) }),
      instance({ instance_id: 'long-test-cmd-4', test_cmd: `${String(shipped.test_cmd)} ${'#'.repeat(20_000)}` }),
      instance({ instance_id: 'next-5' }),
    ],
    farm,
  );
  const results = await readResults(outcome.layout.results);
  expect(results.get('huge-1')).toMatchObject({
    status: 'error',
    reason: "problem_statement: the farm's API refuses it: description is longer than 100000 characters",
  });
  expect(results.get('nul-2')).toMatchObject({
    status: 'error',
    reason: "problem_statement: the farm's API refuses it: description must not contain NUL characters",
  });
  expect(results.get('long-check-3')).toMatchObject({
    status: 'error',
    reason: "check_cmd: the farm's API refuses it: checkCommand is longer than 10000 characters",
  });
  expect(results.get('long-test-cmd-4')).toMatchObject({
    status: 'error',
    reason: "test_cmd: bounded as the farm's API bounds a check command: checkCommand is longer than 10000 characters",
  });
  // Only the instance the farm takes reached it; the others were refused before any set-up.
  expect(farm.submitted.map((s) => s.description?.slice(0, 10))).toEqual(['@cachedmet']);
  expect(results.get('next-5')).toMatchObject({
    status: 'unresolved',
    reason: 'the farm delivered no change: FAILED: scripted',
  });
  expect(outcome.report.counts).toMatchObject({ error: 4, unresolved: 1 });
  expect(existsSync(outcome.layout.report)).toBe(true);
  expect(readdirSync(outcome.layout.scratch)).toEqual(['next-5']);
}, 180_000);

test('"repo": "..", ".." as an instance id and absolute paths: refused or kept inside, the run directory intact', async () => {
  const layout = runLayout(path.join(tmp, 'eval'), 'hostile');
  // What the run holds already: a recorded result and the embedded farm's state.
  mkdirSync(layout.farmState, { recursive: true });
  writeFileSync(path.join(layout.farmState, 'state.txt'), 'the farm\n');
  const earlier = { ...recordedResult('done-0'), status: 'resolved', reason: 'earlier' };
  mkdirSync(layout.dir, { recursive: true });
  writeFileSync(layout.results, JSON.stringify(earlier) + '\n');
  // A repository elsewhere on the machine, named by its absolute path: read, never written.
  const elsewhere = path.join(tmp, 'elsewhere');
  execFileSync('git', ['clone', '-q', '--bare', path.join(SET, 'cachetools.bundle'), elsewhere]);
  const refs = () => execFileSync('git', ['-C', elsewhere, 'for-each-ref'], { encoding: 'utf8' });
  const refsBefore = refs();
  const pwned = path.join(tmp, 'pwned');
  const farm = failingFarm();
  const outcome = await run(
    tmp,
    [
      instance({ instance_id: 'done-0' }),
      instance({ instance_id: 'dotdot-repo-1', repo: '..' }),
      instance({ instance_id: 'dotdot-repo-2', repo: '../..', repo_path: undefined }),
      instance({ instance_id: '..' }),
      instance({ instance_id: '/etc/../abs-id-3', repo: elsewhere, repo_path: undefined }),
      // the copy of `elsewhere` is there: a base commit it lacks is fetched from repo_url
      instance({
        instance_id: 'option-4',
        repo: elsewhere,
        repo_path: undefined,
        repo_url: `--upload-pack=touch ${pwned}`,
        base_commit: '0123456789abcdef0123456789abcdef01234567',
      }),
      instance({
        instance_id: 'option-5',
        repo: 'a/b',
        repo_path: undefined,
        repo_url: `--upload-pack=touch ${pwned}`,
      }),
    ],
    farm,
  );
  const results = await readResults(layout.results);
  expect(results.get('done-0')).toMatchObject({ status: 'resolved', reason: 'earlier' });
  expect(results.get('dotdot-repo-1')).toMatchObject({
    status: 'error',
    reason: 'repo ".." names no repository: expected owner/name, a clone URL or a path (/..., ./..., ../...)',
  });
  expect(results.get('dotdot-repo-2')?.status).toBe('error');
  expect(results.get('..')).toMatchObject({
    status: 'error',
    reason: `instance_id ".." cannot name the instance's checkout: it needs a letter or digit`,
  });
  // An absolute path as the repository and as the id: the copy and the checkout are the run's own.
  expect(results.get('/etc/../abs-id-3')).toMatchObject({ status: 'unresolved' });
  // A repository URL that is an option of git's: a source that does not exist, its command never run.
  for (const id of ['option-4', 'option-5']) {
    expect(results.get(id)).toMatchObject({ status: 'error' });
    expect(results.get(id)!.reason).toMatch(/^repository unreachable: --upload-pack=/);
  }
  expect(existsSync(pwned)).toBe(false);
  expect(farm.submitted).toHaveLength(1);
  const copy = farm.submitted[0].repoUrl;
  expect(path.dirname(copy)).toBe(layout.repos);
  expect(refs()).toBe(refsBefore);
  expect(readFileSync(path.join(layout.farmState, 'state.txt'), 'utf8')).toBe('the farm\n');
  // the copies, the checkouts and the kept logs: plain names inside the run's directories, no partial clone left
  expect(readdirSync(layout.logs)).toContain(readdirSync(layout.scratch)[0]);
  for (const dir of [layout.repos, layout.scratch, layout.logs]) {
    for (const name of readdirSync(dir)) expect(name).toMatch(/^[A-Za-z0-9_](?:[A-Za-z0-9_-]|\.(?=[A-Za-z0-9_-]))*$/);
  }
  expect(readdirSync(tmp).sort()).toEqual(['elsewhere', 'eval', 'hostile.jsonl']);
  expect(outcome.report.counts).toMatchObject({ resolved: 1, error: 5, unresolved: 1 });
}, 180_000);

function recordedResult(id: string) {
  return {
    instance_id: id,
    status: 'unresolved',
    reason: '',
    model_name_or_path: 'm',
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
