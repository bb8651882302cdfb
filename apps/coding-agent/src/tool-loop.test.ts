// The tool loop's rules with an in-process scripted model and reviewer, over a real checkout and the real
// tools and sandboxed checks: the finish gate, review rounds, budgets, edit errors, malformed answers.
import fs from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { farm, failedStepName } from '@farm/proto';
import { ContextOverflow, ModelAnswerCut, ModelAnswerInvalid, ModelUnavailable, type JsonModel } from '@farm/llm';
import { silentLogger } from '@farm/runtime';
import type { CheckStep } from '@farm/sandbox';
import { call, ScriptedJsonModel, ScriptedToolModel, type ToolModelStep } from '../testing/scripted-models';
import { agentMetrics } from './metrics';
import type { ModelPrices } from '@farm/llm';
import { DEFAULT_BUDGET, TaskBudget, type BudgetLimits } from './task-budget';
import { TaskObserver } from './task-observer';
import { conversationTokens } from './conversation-window';
import { runToolLoop, type ToolLoopOutcome } from './tool-loop';
import { AgentToolBox } from './tools/agent-tools';
import { TrajectoryReport } from './trajectory-report';
import type { UnverifiedPolicy } from './verify-change';

const S = farm.v1.CommitStatus;
const ADD = 'def add(a, b):\n    return a + b\n';
const WITH_MULTIPLY = `${ADD}\n\ndef multiply(a, b):\n    return a * b\n`;
const WRONG_MULTIPLY = `${ADD}\n\ndef multiply(a, b):\n    return a + b\n`;
const TASK: farm.v1.ICodingTask = { id: 't-1', goal: 'Add multiply(a, b) to calc.py', repo: { url: 'unused' } };
/** The repository's check: multiply is there and multiplies. */
const CHECK: CheckStep = { name: 'test', run: "grep -qF 'return a * b' calc.py" };

const addMultiply = (text = WITH_MULTIPLY) => call('edit_file', { path: 'calc.py', old_text: ADD, new_text: text });
const approve = { value: { approved: true, objections: [] } };
const object = (...objections: string[]) => ({ value: { approved: false, objections } });

let root: string;
let base: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tool-loop-'));
  await writeFile(path.join(root, 'calc.py'), ADD);
  await git.init({ fs, dir: root, defaultBranch: 'main' });
  await git.add({ fs, dir: root, filepath: 'calc.py' });
  base = await git.commit({ fs, dir: root, message: 'base', author: { name: 't', email: 't@t' } });
});
afterEach(() => rm(root, { recursive: true, force: true }));

interface LoopOptions {
  reviewer?: JsonModel;
  reviewRounds?: number;
  reviewMinConfidence?: number;
  budget?: Partial<BudgetLimits>;
  prices?: ModelPrices;
  checks?: CheckStep[];
  task?: farm.v1.ICodingTask;
  unverifiedChanges?: UnverifiedPolicy;
  checkTimeoutSeconds?: number;
}

/** Runs the loop on the checkout with `script` as the model; what it returned, saw and recorded. */
async function runLoop(script: ToolModelStep[], opts: LoopOptions = {}) {
  const model = new ScriptedToolModel(script);
  const events: (Record<string, unknown> & { event: string })[] = [];
  const trajectory = { record: (event: string, data: Record<string, unknown>) => events.push({ event, ...data }) };
  const observer = new TaskObserver(
    { ...trajectory, close: async () => {}, report: new TrajectoryReport((t) => t) },
    new TaskBudget({ ...DEFAULT_BUDGET, ...opts.budget }),
  );
  const toolbox = new AgentToolBox({
    root,
    base,
    redact: (t) => t,
    checks: opts.checks ?? [CHECK],
    checkTimeoutSeconds: opts.checkTimeoutSeconds ?? 30,
  });
  const outcome = await runToolLoop(
    opts.task ?? TASK,
    { toolbox, repoDir: root, context: { text: '', omitted: [] } },
    {
      model,
      reviewer: opts.reviewer,
      reviewRounds: opts.reviewRounds ?? (opts.reviewer ? 2 : 0),
      reviewMinConfidence: opts.reviewMinConfidence,
      unverifiedChanges: opts.unverifiedChanges,
      prices: opts.prices ?? {},
      contextWindowTokens: 100_000,
      redact: (t) => t,
      log: silentLogger,
      observer,
    },
  );
  const rewards = events.filter((e) => e.event === 'reward').map((e) => e.reward);
  return { outcome, model, observer, events, rewards, calc: () => readFile(path.join(root, 'calc.py'), 'utf8') };
}

/** A failed outcome as [status, step, reason]; anything else fails the test with what it was. */
const failure = (outcome: ToolLoopOutcome) => {
  if (outcome.kind !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return [S[outcome.status], failedStepName(outcome.failedStep), outcome.reason];
};

describe('the finish gate', () => {
  test('finish is refused without a change and while a check fails; each finish is an attempt, rewarded 1 when the checks pass', async () => {
    const { outcome, model, observer, rewards } = await runLoop([
      call('finish', { summary: 'nothing yet' }),
      addMultiply(WRONG_MULTIPLY),
      call('finish', { summary: 'added multiply' }),
      call('edit_file', { path: 'calc.py', old_text: 'return a + b\n', new_text: 'return a * b\n' }),
      call('edit_file', { path: 'calc.py', old_text: WRONG_MULTIPLY, new_text: WITH_MULTIPLY }),
      call('finish', { summary: 'added multiply' }),
    ]);
    const results = model.toolResults();
    expect(results[0]).toBe('finish refused: the tree has no change against the base commit; make the change first.');
    expect(results[2]).toMatch(
      /^finish refused: the checks fail on the final tree\. Fix this, then call finish again\./,
    );
    // Edit errors go back to the model as the tool's result; the loop goes on.
    expect(results[3]).toMatch(/^ERROR: edit_file: old_text occurs 2 times in calc\.py \(lines 2, 6\)/);
    expect(results[4]).toMatch(/^edited calc\.py/);
    expect(outcome).toMatchObject({ kind: 'finished', summary: 'added multiply', changes: [{ path: 'calc.py' }] });
    expect(outcome.kind === 'finished' && outcome.firstFailure).toMatch(/test/);
    expect([observer.attempts, rewards]).toEqual([3, [0, 0, 1]]);
  });

  test('tool calls after an accepted finish in the same turn are answered, never run', async () => {
    const { outcome, events, calc } = await runLoop([
      addMultiply(),
      {
        calls: [
          { name: 'finish', args: { summary: 'done' } },
          { name: 'delete_file', args: { path: 'calc.py' } },
        ],
      },
    ]);
    expect(outcome.kind).toBe('finished');
    expect(events.filter((e) => e.event === 'tool').map((e) => e.tool)).toEqual(['edit_file', 'finish']);
    expect(await calc()).toBe(WITH_MULTIPLY);
  });

  test('a symlink leading out of the checkout is refused at finish', async () => {
    const { model, outcome } = await runLoop(
      [
        addMultiply(),
        call('run_command', { command: 'ln -s /etc etc-link' }),
        call('finish', { summary: 'done' }),
        call('run_command', { command: 'rm etc-link' }),
        call('finish', { summary: 'done' }),
      ],
      { checks: [] },
    );
    expect(model.toolResults()[2]).toMatch(
      /^finish refused: etc-link would be committed as symlink\(s\) leading outside/,
    );
    expect(outcome).toMatchObject({ kind: 'finished', changes: [{ path: 'calc.py' }] });
  });

  test('finish after a passing run_checks on the same tree does not run the checks again; an edit in between does', async () => {
    // Each real run appends a line to runs.log (a check artifact: not the agent's change, not in the tree's key).
    const counting = [{ name: 'test', run: `echo run >> runs.log && ${CHECK.run}` }];
    const runs = async () => (await readFile(path.join(root, 'runs.log'), 'utf8')).split('\n').filter(Boolean).length;
    const same = await runLoop([addMultiply(), call('run_checks'), call('finish', { summary: 'done' })], {
      checks: counting,
    });
    expect(same.outcome).toMatchObject({ kind: 'finished', changes: [{ path: 'calc.py' }] });
    expect(await runs()).toBe(1);
    expect(same.model.toolResults()[1]).toBe('all checks passed: test');
    expect(same.events.filter((e) => e.event === 'check')).toMatchObject([{ ok: true, reused: true }]);

    await git.checkout({ fs, dir: root, ref: 'main', force: true });
    await rm(path.join(root, 'runs.log'));
    const edited = await runLoop(
      [
        addMultiply(),
        call('run_checks'),
        call('edit_file', {
          path: 'calc.py',
          old_text: 'return a * b\n',
          new_text: 'return b * a  # same\nreturn a * b\n',
        }),
        call('finish', { summary: 'done' }),
      ],
      { checks: counting },
    );
    expect(edited.outcome.kind).toBe('finished');
    expect(await runs()).toBe(2);
    expect(edited.events.filter((e) => e.event === 'check')[0]).not.toHaveProperty('reused');
  });

  test('a check the sandbox refuses ends the task as HARD_FAIL: nothing the model can change', async () => {
    const { outcome } = await runLoop([addMultiply(), call('finish', { summary: 'done' })], {
      checks: [{ name: 'deploy', run: 'sudo true' }],
    });
    expect(failure(outcome)).toEqual(['HARD_FAIL', 'check', expect.stringMatching(/^sandbox refused a check: /)]);
  });
});

describe('verified completion', () => {
  const FEATURE = { ...TASK, kind: farm.v1.TaskKind.FEATURE };
  const addTest = (name: string) =>
    call('create_file', { path: `tests/test_${name}.py`, content: 'def test_it():\n    assert True\n' });

  test('a tests-only change to a behaviour goal is refused at finish with the reason, then ends as SOFT_FAIL at the verify step', async () => {
    const { outcome, model, events } = await runLoop(
      [addTest('one'), call('finish', { summary: 'tests' }), addTest('two'), call('finish', { summary: 'tests' })],
      { task: FEATURE, checks: [] },
    );
    expect(model.toolResults()[1]).toMatch(
      /^finish refused: the change is not verified: the goal asks for behaviour, but the change only adds or changes tests\. Make the change/,
    );
    expect(failure(outcome)).toEqual([
      'SOFT_FAIL',
      'verify',
      'not verified after 2 finish(es): the goal asks for behaviour, but the change only adds or changes tests',
    ]);
    expect(outcome).toMatchObject({
      verification: { testsOnly: true, differential: { reason: 'the check plan has no test step' } },
    });
    expect(events.filter((e) => e.event === 'verification')[0]).toMatchObject({
      testsOnly: true,
      differential: { testFiles: ['tests/test_one.py'], base: 'TEST_RUN_NOT_RUN' },
    });
  });

  test('the same change to a TEST goal is verified; a reviewer may accept an unverified change only explicitly', async () => {
    const testGoal = await runLoop([addTest('one'), call('finish', { summary: 'tests' })], {
      task: { ...TASK, kind: farm.v1.TaskKind.TEST },
      checks: [],
    });
    expect(testGoal.outcome).toMatchObject({ kind: 'finished', verification: { testsOnly: true } });
    expect(testGoal.outcome.kind === 'finished' && testGoal.outcome.verification.unverifiedReason).toBeFalsy();

    await rm(path.join(root, 'tests'), { recursive: true });
    const reviewer = new ScriptedJsonModel([
      approve,
      { value: { approved: true, objections: [], accept_unverified: true } },
    ]);
    const accepted = await runLoop(
      [addTest('one'), call('finish', { summary: 'tests' }), call('finish', { summary: 'tests, on purpose' })],
      { task: FEATURE, checks: [], reviewer },
    );
    expect(accepted.model.toolResults()[1]).toMatch(/^finish refused: the change is not verified/);
    expect(accepted.outcome).toMatchObject({
      kind: 'finished',
      verification: { testsOnly: true, acceptedByReviewer: true },
    });
    expect(String(reviewer.requests[1].at(-1)?.content)).toMatch(
      /NOT VERIFIED: the goal asks for behaviour, but the change only adds or changes tests/,
    );
  });
});

describe('a budget stop', () => {
  test('is final when the task spent it alone; when its checks timed out meanwhile it says so and is not final', async () => {
    const own = await runLoop([addMultiply(), call('run_checks'), call('run_checks')], { budget: { maxSteps: 2 } });
    expect(failure(own.outcome)).toEqual(['SOFT_FAIL', 'budget', 'step budget used up: 2 model calls, the limit is 2']);

    const slow = await runLoop([addMultiply(), call('run_checks'), call('run_checks')], {
      budget: { maxSteps: 2 },
      checks: [{ name: 'test', run: 'sleep 5' }],
      checkTimeoutSeconds: 1,
    });
    expect(failure(slow.outcome)).toEqual([
      'SOFT_FAIL',
      'budget-environment',
      expect.stringMatching(
        /^step budget used up: 2 model calls, the limit is 2; meanwhile check test timed out after \d+ s: run again$/,
      ),
    ]);
  });
});

describe('a behaviour change no test exercises (FARM_UNVERIFIED_CHANGES)', () => {
  const FEATURE = { ...TASK, kind: farm.v1.TaskKind.FEATURE };
  const twice = [addMultiply(), call('finish', { summary: 'done' }), call('finish', { summary: 'done' })];
  const NO_TEST = /^no test exercises the change: it adds or changes no test/;

  test('review (the default), no reviewer: refused at finish with the reason, then SOFT_FAIL at the verify step', async () => {
    const { outcome, model } = await runLoop(twice, { task: FEATURE });
    expect(model.toolResults()[1]).toMatch(/^finish refused: the change is not verified: no test exercises the change/);
    const [status, step, reason] = failure(outcome);
    expect([status, step]).toEqual(['SOFT_FAIL', 'verify']);
    expect(reason).toMatch(/^not verified after 2 finish\(es\): no test exercises the change/);
  });

  test('review: passes when the reviewer accepts it explicitly, marked as such', async () => {
    const reviewer = new ScriptedJsonModel([{ value: { approved: true, objections: [], accept_unverified: true } }]);
    const { outcome } = await runLoop(twice.slice(0, 2), { task: FEATURE, reviewer });
    expect(outcome).toMatchObject({
      kind: 'finished',
      verification: { unverifiedReason: expect.stringMatching(NO_TEST), acceptedByReviewer: true },
    });
  });

  test('deliver: passes without a reviewer, marked unverified with the reason', async () => {
    const { outcome } = await runLoop(twice.slice(0, 2), { task: FEATURE, unverifiedChanges: 'deliver' });
    expect(outcome).toMatchObject({
      kind: 'finished',
      verification: { unverifiedReason: expect.stringMatching(NO_TEST) },
    });
    expect(outcome.kind === 'finished' && outcome.verification.acceptedByReviewer).toBeFalsy();
  });

  test('refuse: refused even when the reviewer accepts it', async () => {
    const accepts = { value: { approved: true, objections: [], accept_unverified: true } };
    const reviewer = new ScriptedJsonModel([accepts, accepts]);
    const { outcome } = await runLoop(twice, { task: FEATURE, reviewer, unverifiedChanges: 'refuse' });
    expect(failure(outcome).slice(0, 2)).toEqual(['SOFT_FAIL', 'verify']);
  });
});

describe('review rounds', () => {
  test('an objection goes back to the model; approval in the next round finishes the task', async () => {
    const reviewer = new ScriptedJsonModel([object('multiply lacks a docstring'), approve]);
    const { outcome, model, observer, events } = await runLoop(
      [addMultiply(), call('finish', { summary: 'added' }), call('finish', { summary: 'added, explained' })],
      { reviewer },
    );
    expect(model.toolResults()[1]).toBe(
      'finish refused: the reviewer objected. Address this, then call finish again.\n- multiply lacks a docstring',
    );
    expect(outcome).toMatchObject({ kind: 'finished', firstFailure: 'reviewer: multiply lacks a docstring' });
    expect(observer.verdicts).toEqual([
      {
        round: 1,
        approved: false,
        objections: ['multiply lacks a docstring'],
        findings: [{ file: '', line: 0, text: 'multiply lacks a docstring' }],
        confidence: 1,
      },
      { round: 2, approved: true, objections: [], findings: [], confidence: 1 },
    ]);
    expect(events.filter((e) => e.event === 'review').map((e) => e.approved)).toEqual([false, true]);
    expect(reviewer.requests[0][1].content).toMatch(/GOAL:\nAdd multiply[\s\S]*DIFF:\n[\s\S]*\+def multiply/);
  });

  test('an approval below the configured confidence goes back to the agent with the objections tied to files and lines', async () => {
    const unsure = {
      value: {
        approved: true,
        objections: [{ file: 'calc.py', line: 5, text: 'no test shows multiply' }],
        confidence: 0.3,
      },
    };
    const sure = { value: { approved: true, objections: [], confidence: 0.9 } };
    const reviewer = new ScriptedJsonModel([unsure, sure]);
    const { outcome, model, observer, events } = await runLoop(
      [addMultiply(), call('finish', { summary: 'added' }), call('finish', { summary: 'added, looked again' })],
      { reviewer },
    );
    expect(model.toolResults()[1]).toBe(
      'finish refused: the reviewer objected. Address this, then call finish again.\n- calc.py:5: no test shows multiply\n' +
        '- the reviewer approved with confidence 0.3 (below 0.5): check the change once more against the goal and make its tests show the behaviour',
    );
    expect(outcome.kind).toBe('finished');
    expect(observer.verdicts[0]).toMatchObject({
      approved: true,
      belowConfidence: true,
      confidence: 0.3,
      findings: [{ file: 'calc.py', line: 5, text: 'no test shows multiply' }],
    });
    expect(observer.verdicts[1]).toEqual({ round: 2, approved: true, objections: [], findings: [], confidence: 0.9 });
    expect(events.filter((e) => e.event === 'review').map((e) => e.belowConfidence ?? false)).toEqual([true, false]);
    // With the bar lowered, the same unsure approval finishes the task at once.
    await git.checkout({ fs, dir: root, ref: 'main', force: true });
    const lowered = await runLoop([addMultiply(), call('finish', { summary: 'added' })], {
      reviewer: new ScriptedJsonModel([unsure]),
      reviewMinConfidence: 0.2,
    });
    expect(lowered.outcome.kind).toBe('finished');
  });

  test('no approval within the rounds ends the task as SOFT_FAIL with the objections', async () => {
    const reviewer = new ScriptedJsonModel([object('wrong file'), object('still wrong')]);
    const { outcome } = await runLoop(
      [addMultiply(), call('finish', { summary: 'a' }), call('finish', { summary: 'b' })],
      { reviewer, reviewRounds: 2 },
    );
    expect(failure(outcome)).toEqual([
      'SOFT_FAIL',
      'review',
      'the reviewer did not approve after 2 round(s): still wrong',
    ]);
  });

  test("a reviewer answer that cannot be read is an objection to check the change once more; the reviewer's tokens count", async () => {
    const reviewer = new ScriptedJsonModel([{ content: 'LGTM!', usage: { promptTokens: 100 } }, approve]);
    const { outcome, observer } = await runLoop(
      [addMultiply(), call('finish', { summary: 'a' }), call('finish', { summary: 'b' })],
      { reviewer },
    );
    expect(outcome.kind).toBe('finished');
    expect(observer.verdicts[0].objections).toEqual([
      expect.stringMatching(/^the reviewer's answer could not be read \(.*\); check the change once more$/),
    ]);
    // Three turns and the reviewer's readable answer: an unreadable one has no usage to count.
    expect(observer.budget.steps).toBe(4);
  });
});

describe('edits', () => {
  test('a drifted edit lands, and how old_text was found is in the trajectory and the metrics', async () => {
    const matched = async (tier: string) =>
      (await agentMetrics.editMatches.get()).values.find((v) => v.labels.tier === tier)?.value ?? 0;
    const before = await matched('trailing-whitespace');
    const { outcome, events, calc } = await runLoop([
      call('edit_file', {
        path: 'calc.py',
        old_text: 'def add(a, b):  \n    return a + b',
        new_text: WITH_MULTIPLY.trimEnd(),
      }),
      call('finish', { summary: 'added multiply' }),
    ]);
    expect(outcome.kind).toBe('finished');
    expect(await calc()).toBe(WITH_MULTIPLY);
    expect(events.find((e) => e.event === 'tool' && e.tool === 'edit_file')).toMatchObject({
      ok: true,
      match: 'trailing-whitespace',
    });
    expect(await matched('trailing-whitespace')).toBe(before + 1);
  });
});

describe('the trajectory', () => {
  test("a model turn's line carries what the model wrote besides its calls; a turn without text has none", async () => {
    const { events } = await runLoop([
      { ...addMultiply(), content: 'calc.py has add only.\nI add multiply next to it.' },
      call('finish', { summary: 'added multiply' }, { content: '  ' }),
    ]);
    const steps = events.filter((e) => e.event === 'step');
    expect(steps[0]).toMatchObject({ step: 1, text: 'calc.py has add only.\nI add multiply next to it.' });
    expect(steps[1]).not.toHaveProperty('text');
  });
});

describe('budgets', () => {
  const budgetStops = async (limit: string) =>
    (await agentMetrics.budgetStops.get()).values.find((v) => v.labels.budget === limit)?.value ?? 0;

  test.each<[string, Partial<BudgetLimits>, ToolModelStep, RegExp]>([
    ['steps', { maxSteps: 2 }, {}, /^step budget used up: 2 model calls, the limit is 2$/],
    ['tokens', { maxTokens: 1000 }, { usage: { promptTokens: 800, completionTokens: 300 } }, /^token budget exceeded/],
    ['cost', { maxCostUsd: 0.01 }, { usage: { promptTokens: 2000, completionTokens: 0 } }, /^cost budget exceeded/],
  ])(
    'the %s limit stops the loop as SOFT_FAIL, and the stop is counted under that limit',
    async (limit, budget, usage, reason) => {
      const before = await budgetStops(limit);
      const { outcome, model } = await runLoop(
        [{ ...call('list_files'), ...usage }, call('list_files'), call('list_files')],
        {
          budget,
          prices: { 'scripted-coder': { inputPerMillion: 10, outputPerMillion: 10 } },
        },
      );
      expect(failure(outcome)).toEqual(['SOFT_FAIL', 'budget', expect.stringMatching(reason)]);
      expect(model.requests.length).toBeLessThanOrEqual(2);
      expect(await budgetStops(limit)).toBe(before + 1);
    },
  );
});

describe('what the model gets wrong goes back to it', () => {
  test('an unreadable answer is a step against the budget and is answered with what was wrong', async () => {
    const { outcome, model, observer } = await runLoop(
      [
        { throws: new ModelAnswerInvalid('no tool call and no text', '{"choices": []}') },
        addMultiply(),
        call('finish', { summary: 'done' }),
      ],
      { budget: { maxSteps: 3 } },
    );
    expect(outcome.kind).toBe('finished');
    expect(model.requests[1].at(-1)).toEqual({
      role: 'user',
      content: 'Your last answer could not be read (no tool call and no text). Use the tools.',
    });
    expect(observer.budget.steps).toBe(3);
  });

  test('malformed answers the client asked again are counted for the notes; a turn without tools is nudged', async () => {
    const { outcome, model, observer } = await runLoop([
      { content: 'I would add multiply.', malformedRetries: 2 },
      addMultiply(),
      call('finish', { summary: 'done' }),
    ]);
    expect(outcome.kind).toBe('finished');
    expect(model.requests[1].at(-1)).toEqual({
      role: 'user',
      content: 'Continue with the tools. Call finish when the goal is done and the checks pass.',
    });
    expect(observer.usage('tools')).toMatchObject({ malformedRetries: 2, model: 'scripted-coder', steps: 3 });
  });

  test('arguments that are not JSON get an error result naming the tool', async () => {
    const { model } = await runLoop([
      call('edit_file', '{"path": "calc.py", '),
      addMultiply(),
      call('finish', { summary: 'x' }),
    ]);
    expect(model.toolResults()[0]).toMatch(/^ERROR: edit_file: arguments are not valid JSON/);
  });
});

describe('model outages', () => {
  test('an endpoint refusing the first request with tools is reported as without tool calling', async () => {
    const { outcome } = await runLoop([
      { throws: new ModelUnavailable('tools not supported', { status: 404, retryable: false }) },
    ]);
    expect(outcome).toEqual({ kind: 'tools-refused', reason: expect.stringMatching(/tools not supported/) });
  });

  test('an outage after the first step ends the task as HARD_FAIL at the llm step', async () => {
    const { outcome } = await runLoop([
      call('list_files'),
      { throws: new ModelUnavailable('upstream 404', { status: 404, retryable: false }) },
    ]);
    expect(failure(outcome)).toEqual(['HARD_FAIL', 'llm', expect.stringMatching(/^model unavailable: .*upstream 404/)]);
  });

  test('a reviewer outage ends the task as HARD_FAIL at the llm step', async () => {
    const reviewer = new ScriptedJsonModel([{ throws: new ModelUnavailable('reviewer down', { retryable: true }) }]);
    const { outcome } = await runLoop([addMultiply(), call('finish', { summary: 'x' })], { reviewer });
    expect(failure(outcome)).toEqual(['HARD_FAIL', 'llm', expect.stringMatching(/reviewer down/)]);
  });
});

describe('a server whose context is smaller than the conversation', () => {
  const big = async (name: string, chars = 20_000) => {
    await writeFile(path.join(root, name), `${'the quick brown fox jumps over the lazy dog\n'.repeat(chars / 44)}`);
  };

  test('a context overflow mid-task shortens the conversation to what the server holds and goes on', async () => {
    await big('a.txt');
    await big('b.txt');
    const { outcome, model, events } = await runLoop([
      call('read_file', { path: 'a.txt' }),
      call('read_file', { path: 'b.txt' }),
      call('list_files'),
      call('list_files'),
      call('list_files'),
      {
        throws: new ContextOverflow('request (13000 tokens) exceeds the available context size (8000 tokens)', {
          status: 400,
          contextTokens: 8000,
          promptTokens: 13000,
        }),
      },
      addMultiply(),
      call('finish', { summary: 'done' }),
    ]);
    expect(outcome.kind).toBe('finished');
    const context = events.find((e) => e.event === 'context' && e.overflow)!;
    expect(context).toMatchObject({ step: 6, windowTokens: 100_000 });
    const smaller = context.smallerWindowTokens as number;
    expect(smaller).toBeLessThan(8000);
    // The same step asked again, within the smaller window; and every later call too.
    expect(conversationTokens(model.requests[5])).toBeGreaterThan(smaller);
    for (const sent of model.requests.slice(6)) expect(conversationTokens(sent)).toBeLessThanOrEqual(smaller);
  });

  test("a context too small for the task's first prompt: HARD_FAIL naming the sizes and the settings, never 'no tool calling'", async () => {
    const { outcome } = await runLoop(
      [
        {
          throws: new ContextOverflow(
            "the model server's context (2048 tokens) cannot hold the request (2872 tokens)",
            { status: 400, contextTokens: 2048, promptTokens: 2872 },
          ),
        },
      ],
      { task: { ...TASK, goal: `${TASK.goal}\n${'Background. '.repeat(800)}` } },
    );
    expect(outcome.kind).toBe('failed');
    const [status, step, reason] = failure(outcome);
    expect([status, step]).toEqual(['HARD_FAIL', 'llm']);
    expect(reason).toMatch(/context \(2048 tokens\) cannot hold the request \(2872 tokens\)/);
    expect(reason).toMatch(/--ctx-size/);
    expect(reason).toMatch(/FARM_CONTEXT_WINDOW_TOKENS/);
  });

  test('a server that read far fewer prompt tokens than were sent (Ollama behind 200) is caught, its answer not taken', async () => {
    await big('a.txt', 40_000);
    const { outcome, calc } = await runLoop([
      call('read_file', { path: 'a.txt' }),
      { ...addMultiply(), usage: { promptTokens: 300 } },
    ]);
    const [status, , reason] = failure(outcome);
    expect(status).toBe('HARD_FAIL');
    expect(reason).toMatch(/read 300 prompt tokens of about \d+ sent: it dropped the rest without an error/);
    expect(reason).toMatch(/OLLAMA_CONTEXT_LENGTH/);
    expect(await calc()).toBe(ADD); // the edit it answered with was not made
  });

  test('an answer cut at the output limit goes back to the model saying so, and the task goes on', async () => {
    const { outcome, model } = await runLoop([
      { throws: new ModelAnswerCut('{"content": "I will', { outputTokens: 512, limit: 512 }) },
      addMultiply(),
      call('finish', { summary: 'done' }),
    ]);
    expect(outcome.kind).toBe('finished');
    expect(model.requests[1].at(-1)!.content).toMatch(
      /^Your last answer was cut at the output limit before it was complete \(the answer was cut at the output limit \(512 tokens of max 512/,
    );
  });
});
