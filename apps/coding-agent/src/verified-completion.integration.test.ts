// "Done" means verified, end to end: the coding agent's Job entry (runCodingTask) with the real openai client
// against the scripted model server, the git smart-HTTP server and the sandbox running the repository's own
// pytest. A tests-only change to a behaviour goal is not SUCCESS; the change's new tests run on the base and
// on the branch and the result is recorded; the finish gate does not run the checks again on an unchanged tree.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { failedStepName, farm } from '@farm/proto';
import { cloneAtCommit, seedBareRepo, startGitHttpServer, treeOfCommit, type GitHttpServer } from '@farm/git';
import { createJsonModel, createPatchModel, createToolModel } from '@farm/llm';
import { silentLogger } from '@farm/runtime';
import { startScriptedModelServer, type ModelScript, type ScriptStep } from '@farm/scripted-llm';
import { runCodingTask } from './run-task';
import { NODE_JEST_REPO, PYTHON_REPO } from '../testing/agent-repos';

const S = farm.v1.CommitStatus;
const NPM_CACHE = path.join(os.homedir(), '.npm');
const R = farm.v1.TestRunOutcome;
const RUN = Date.now().toString(36);
let tmp: string;
let git: GitHttpServer;
let n = 0;

beforeAll(async () => {
  await mkdir(NPM_CACHE, { recursive: true });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'verified-it-'));
  await mkdir(path.join(tmp, 'work'));
  git = await startGitHttpServer({ root: path.join(tmp, 'git') });
});
afterAll(async () => {
  await git.close();
  await rm(tmp, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown> = {}): ScriptStep => ({
  toolCalls: [{ name, arguments: args }],
});
const review = (approved: boolean): ScriptStep => ({
  match: 'You review',
  content: JSON.stringify({ approved, objections: [], confidence: 0.9, accept_unverified: false }),
});

/** A test of multiply that is not marked fast: the repository's checks (`pytest -m fast`) do not select it. */
const MULTIPLY_TEST = 'import calc\n\n\ndef test_multiply():\n    assert calc.multiply(2, 3) == 6\n';
/** A test of what the base already does. */
const ADD_TEST = 'import calc\n\n\ndef test_add_negative():\n    assert calc.add(-2, 3) == 1\n';
const SUBTRACT = 'def subtract(a, b):\n    return a - b\n';

async function runTask(
  script: ModelScript,
  kind: farm.v1.TaskKind,
  strategy = farm.v1.AgentStrategy.TOOLS,
  files = PYTHON_REPO,
) {
  const url = await git.createBareRepo(`verified-${++n}.git`);
  const baseCommit = await seedBareRepo({ url, files, message: 'initial' });
  const model = await startScriptedModelServer({ script });
  const client = { baseURL: model.baseURL, apiKey: 'k', model: 'coder', maxRetries: 0 };
  const task: farm.v1.ICodingTask = {
    id: `verified-${RUN}-${n}`,
    changeRequestId: `cr-verified-${RUN}-${n}`,
    goal: 'Add multiply(a, b) to calc.py',
    kind,
    strategy,
    repo: { url, baseRef: 'main', baseCommit },
    dispatch: 1,
  };
  try {
    const result = await runCodingTask(task, {
      services: {
        model: createPatchModel(client),
        toolModel: createToolModel(client),
        reviewModel: createJsonModel({ ...client, model: 'reviewer' }),
        log: silentLogger,
      },
      settings: {
        workRoot: path.join(tmp, 'work'),
        maxRetries: 1,
        checkTimeoutMs: 120_000,
        contextBudgetTokens: 2000,
        author: { name: 'agent', email: 'agent@test' },
        trajectoryDir: path.join(tmp, 'trajectories'),
        // a Node repository's install may use the network, with a package cache shared between tests
        checkEnv: { npm_config_cache: NPM_CACHE, npm_config_prefer_offline: 'true' },
        checkWritableDirs: [NPM_CACHE],
        checkCeilings: { hostNetwork: 'install' },
      },
    });
    const trajectory = (await readFile(path.join(tmp, 'trajectories', `${task.id}.1.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown> & { event: string });
    return { result, trajectory, requests: model.requests, url };
  } finally {
    await model.close();
  }
}

test('a tests-only change to a FEATURE goal is refused at finish and ends as SOFT_FAIL at the verify step, recorded', async () => {
  const { result, trajectory } = await runTask(
    {
      chat: [
        call('create_file', { path: 'tests/test_more.py', content: ADD_TEST }),
        call('finish', { summary: 'added a test' }),
        review(true),
        call('create_file', { path: 'tests/test_even_more.py', content: ADD_TEST }),
        call('finish', { summary: 'added tests' }),
        review(true),
      ],
    },
    farm.v1.TaskKind.FEATURE,
  );
  expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SOFT_FAIL', 'verify']);
  expect(result.notes![0]).toBe(
    'not verified after 2 finish(es): the goal asks for behaviour, but the change only adds or changes tests',
  );
  expect(result.verification).toMatchObject({
    testsOnly: true,
    differential: {
      testFiles: ['tests/test_even_more.py', 'tests/test_more.py'],
      narrowed: true,
      base: R.TEST_RUN_PASSED,
      branch: R.TEST_RUN_PASSED,
    },
  });
  expect(result.notes![1]).toMatch(/^verification: checks: test passed; differential of tests\/test_even_more\.py/);
  expect(trajectory.filter((e) => e.event === 'verification')).toHaveLength(2);
});

test('tests added by a FEATURE change fail on the base and pass on the branch; finish after run_checks runs no check again', async () => {
  const { result, trajectory, requests, url } = await runTask(
    {
      chat: [
        call('edit_file', {
          path: 'calc.py',
          old_text: SUBTRACT,
          new_text: `${SUBTRACT}\n\ndef multiply(a, b):\n    return a * b\n`,
        }),
        call('create_file', { path: 'tests/test_multiply.py', content: MULTIPLY_TEST }),
        call('run_checks'),
        call('finish', { summary: 'Added multiply with a test.' }),
        review(true),
      ],
    },
    farm.v1.TaskKind.FEATURE,
  );
  expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SUCCESS', '']);
  const [check] = trajectory.filter((e) => e.event === 'check');
  expect(check).toMatchObject({ ok: true, reused: true });
  expect(result.verification).toEqual({
    checks: [{ name: 'test', run: 'pytest -q -p no:cacheprovider -m fast', ok: true }],
    testsOnly: false,
    differential: {
      testFiles: ['tests/test_multiply.py'],
      command: 'pytest -q -p no:cacheprovider tests/test_multiply.py',
      narrowed: true,
      base: R.TEST_RUN_FAILED,
      branch: R.TEST_RUN_PASSED,
    },
    treeSha: expect.stringMatching(/^[0-9a-f]{40}$/),
  });
  // the tree the checks passed on is the task's commit's: a build of that tree need not run them again
  const pushed = path.join(tmp, `pushed-${n}`);
  await cloneAtCommit({ url, ref: result.branchName!, commit: result.commitSha!, dir: pushed });
  expect(result.verification?.treeSha).toBe(await treeOfCommit(pushed, result.commitSha!));
  expect(result.notes).toContain(
    'verification: checks: test passed; differential of tests/test_multiply.py (`pytest -q -p no:cacheprovider tests/test_multiply.py`): base failed, branch passed',
  );
  expect(trajectory.find((e) => e.event === 'verification')).toMatchObject({
    differential: { base: 'TEST_RUN_FAILED', branch: 'TEST_RUN_PASSED' },
  });
  // The reviewer saw the differential; its verdict (objections by file and line, confidence) is on the result.
  expect(result.reviews).toEqual([{ round: 1, approved: true, objections: [], findings: [], confidence: 0.9 }]);
  const reviewPrompt = JSON.stringify(requests.find((r) => r.model === 'reviewer')!.messages);
  expect(reviewPrompt).toContain('differential of tests/test_multiply.py');
});

test('the diff strategy: a change whose new test passes on the base is not SUCCESS for a FIX goal', async () => {
  const diff = (file: string, body: string) =>
    `--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,${body.split('\n').length - 1} @@\n${body
      .split('\n')
      .slice(0, -1)
      .map((l) => `+${l}`)
      .join('\n')}\n`;
  const answer = (file: string): ScriptStep => ({ answer: { diff: diff(file, ADD_TEST) } });
  const { result } = await runTask(
    { chat: [answer('tests/test_more.py'), answer('tests/test_more.py')] },
    farm.v1.TaskKind.FIX,
    farm.v1.AgentStrategy.DIFF,
  );
  expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SOFT_FAIL', 'verify']);
  expect(result.verification).toMatchObject({ testsOnly: true, differential: { base: R.TEST_RUN_PASSED } });
});

test('an unsure approval goes back to the agent with the objections by file and line; the verdicts are on the result', async () => {
  const unsure: ScriptStep = {
    match: 'You review',
    content: JSON.stringify({
      approved: true,
      objections: [{ file: 'calc.py', line: 9, text: 'no test calls multiply' }],
      confidence: 0.2,
      accept_unverified: false,
    }),
  };
  const { result, requests } = await runTask(
    {
      chat: [
        call('edit_file', {
          path: 'calc.py',
          old_text: SUBTRACT,
          new_text: `${SUBTRACT}\n\ndef multiply(a, b):\n    return a * b\n`,
        }),
        call('finish', { summary: 'Added multiply.' }),
        unsure,
        call('create_file', { path: 'tests/test_multiply.py', content: MULTIPLY_TEST }),
        call('finish', { summary: 'Added multiply with a test.' }),
        review(true),
      ],
    },
    farm.v1.TaskKind.FEATURE,
  );
  expect(S[result.status!]).toBe('SUCCESS');
  const toolResults = requests
    .filter((r) => r.model === 'coder')
    .at(-1)!
    .messages.filter((m) => m.role === 'tool')
    .map((m) => String(m.content));
  expect(toolResults[1]).toMatch(
    /^finish refused: the reviewer objected[\s\S]*- calc\.py:9: no test calls multiply\n- the reviewer approved with confidence 0\.2 \(below 0\.5\)/,
  );
  expect(result.reviews).toMatchObject([
    { round: 1, approved: true, belowConfidence: true, confidence: 0.2, findings: [{ file: 'calc.py', line: 9 }] },
    { round: 2, approved: true, confidence: 0.9 },
  ]);
  expect(result.notes).toEqual(
    expect.arrayContaining([expect.stringMatching(/^review round 1 objections: calc\.py:9: no test calls multiply/)]),
  );
  expect(result.verification?.differential).toMatchObject({ base: R.TEST_RUN_FAILED, branch: R.TEST_RUN_PASSED });
});

test('a Node repository (jest via its npm test script): the whole test step runs on the base with the new test, and fails there', async () => {
  const FAREWELL_TEST = `'use strict';\nconst { farewell } = require('./greet');\n\ntest('says goodbye', () => {\n  expect(farewell('Ada')).toBe('Goodbye, Ada');\n});\n`;
  const { result } = await runTask(
    {
      chat: [
        call('edit_file', {
          path: 'src/greet.js',
          old_text: 'module.exports = { greet };',
          new_text:
            "function farewell(name) {\n  return 'Goodbye, ' + name;\n}\n\nmodule.exports = { greet, farewell };",
        }),
        call('create_file', { path: 'src/farewell.test.js', content: FAREWELL_TEST }),
        call('run_checks'),
        call('finish', { summary: 'Added farewell with a test.' }),
        review(true),
      ],
    },
    farm.v1.TaskKind.FEATURE,
    farm.v1.AgentStrategy.TOOLS,
    NODE_JEST_REPO,
  );
  expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SUCCESS', '']);
  expect(result.verification).toMatchObject({
    checks: [
      { name: 'install', ok: true },
      { name: 'test', run: 'npm run --silent test', ok: true },
    ],
    differential: {
      testFiles: ['src/farewell.test.js'],
      command: 'npm run --silent test',
      narrowed: false,
      base: R.TEST_RUN_FAILED,
      branch: R.TEST_RUN_PASSED,
    },
  });
}, 180_000);
