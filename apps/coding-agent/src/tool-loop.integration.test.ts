// The tool strategy end to end: the real openai client against the scripted model (which answers with tool
// calls and checks them against the tools offered), the git smart-HTTP server, the sandbox running the repos'
// own checks, and PostgreSQL for lessons. Python (pytest) and Node (jest) repositories.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { failedStepName, farm } from '@farm/proto';
import { remoteBranchSha, seedBareRepo, startGitHttpServer, type GitHttpServer } from '@farm/git';
import { createJsonModel, createPatchModel, createToolModel } from '@farm/llm';
import { lessonsForTask, migrateLessons, storeLesson } from '@farm/lessons';
import { silentLogger } from '@farm/runtime';
import { startScriptedModelServer, type ModelScript, type ScriptStep } from '@farm/scripted-llm';
import { createPgStore, type SqlStore } from '@farm/store';
import type { AgentDeps, AgentServices, AgentSettings } from './agent-deps';
import { runCodingTask } from './run-task';
import { NODE_JEST_REPO, PYTHON_REPO, PY_ADD_MULTIPLY } from '../testing/agent-repos';

const S = farm.v1.CommitStatus;
const MODEL_KEY = 'sk-scripted-SECRET-0123456789abcdef';
let tmp: string;
let git: GitHttpServer;
let store: SqlStore;
let n = 0;
// Task ids unique per run: the lessons table in the shared database keeps earlier runs' rows.
const RUN = Date.now().toString(36);

beforeAll(async () => {
  await mkdir(NPM_CACHE, { recursive: true });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'tool-loop-it-'));
  git = await startGitHttpServer({ root: path.join(tmp, 'git') });
  store = createPgStore(process.env.DATABASE_URL!);
  await migrateLessons(store);
});
afterAll(async () => {
  await git.close();
  await store.close();
  await rm(tmp, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown> = {}, more: Partial<ScriptStep> = {}): ScriptStep => ({
  toolCalls: [{ name, arguments: args }],
  ...more,
});
const review = (approved: boolean, objections: string[] = []): ScriptStep => ({
  match: 'You review',
  content: JSON.stringify({ approved, objections }),
});

const NPM_CACHE = path.join(os.homedir(), '.npm');

/** A test's own services and settings, over the defaults of `agentDeps`. */
interface DepsOverrides {
  services?: Partial<AgentServices>;
  settings?: Partial<AgentSettings>;
}

function agentDeps(baseURL: string, overrides: DepsOverrides = {}): AgentDeps {
  const client = { baseURL, apiKey: MODEL_KEY, model: 'coder', maxRetries: 0 };
  return {
    services: {
      model: createPatchModel(client),
      toolModel: createToolModel(client),
      reviewModel: createJsonModel({ ...client, model: 'reviewer' }),
      log: silentLogger,
      ...overrides.services,
    },
    settings: {
      workRoot: path.join(tmp, 'work'),
      maxRetries: 2,
      checkTimeoutMs: 120_000,
      contextBudgetTokens: 2000,
      author: { name: 'agent', email: 'agent@test' },
      // the install step may use the network (this operator allows it) and a package cache shared between tests
      checkEnv: { npm_config_cache: NPM_CACHE, npm_config_prefer_offline: 'true' },
      checkWritableDirs: [NPM_CACHE],
      checkCeilings: { hostNetwork: 'install' },
      trajectoryDir: path.join(tmp, 'trajectories'),
      secrets: [MODEL_KEY],
      ...overrides.settings,
    },
  };
}

async function runTask(
  files: Record<string, string>,
  script: ModelScript,
  task: Partial<farm.v1.ICodingTask> = {},
  deps: DepsOverrides | ((baseURL: string) => DepsOverrides) = {},
) {
  const name = `tools-${++n}.git`;
  const url = await git.createBareRepo(name);
  const baseCommit = await seedBareRepo({ url, files, message: 'initial' });
  const model = await startScriptedModelServer({ script });
  const full: farm.v1.ICodingTask = {
    id: `tools-${RUN}-${n}`,
    changeRequestId: `cr-tools-${RUN}-${n}`,
    goal: 'Add multiply(a, b) to calc.py',
    repo: { url, baseRef: 'main', baseCommit },
    dispatch: 1,
    ...task,
  };
  try {
    const result = await runCodingTask(
      full,
      agentDeps(model.baseURL, typeof deps === 'function' ? deps(model.baseURL) : deps),
    );
    const trajectoryText = await readFile(path.join(tmp, 'trajectories', `${full.id}.1.jsonl`), 'utf8');
    const trajectory = trajectoryText
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown> & { event: string });
    return {
      result,
      url,
      baseCommit,
      bare: path.join(tmp, 'git', name),
      requests: model.requests,
      refusedToolRequests: model.refusedToolRequests,
      trajectory,
      trajectoryText,
      /** The tool results the model received, in order. */
      toolResults: () =>
        (model.requests.filter((r) => r.tools.length).at(-1)?.messages ?? [])
          .filter((m) => m.role === 'tool')
          .map((m) => String(m.content)),
    };
  } finally {
    await model.close();
  }
}

/** Files the pushed commit changed against the base, from the bare repository itself. */
const pushedFiles = (bare: string, base: string, sha: string) =>
  execFileSync('git', ['--git-dir', bare, 'diff', '--name-only', base, sha], { encoding: 'utf8' }).trim().split('\n');
const pushedFile = (bare: string, sha: string, file: string) =>
  execFileSync('git', ['--git-dir', bare, 'show', `${sha}:${file}`], { encoding: 'utf8' });

const ADD = 'def add(a, b):\n    return a + b';
const SUBTRACT = 'def subtract(a, b):\n    return a - b\n';
const WITH_MULTIPLY = `${SUBTRACT}\n\ndef multiply(a, b):\n    return a * b\n`;

describe('the tool strategy on a Python repo (pytest)', () => {
  test('lists, searches, reads, edits, sees a failing test, fixes it, finishes, is approved and pushes exactly the net change', async () => {
    const { result, bare, baseCommit, trajectory, toolResults, requests } = await runTask(PYTHON_REPO, {
      chat: [
        call('list_files'),
        call('search', { pattern: 'def add', glob: '*.py' }, { matchLast: 'tests/test_calc.py' }),
        call('read_file', { path: 'calc.py' }, { matchLast: 'calc.py:1: def add(a, b):' }),
        call(
          'create_file',
          { path: 'notes/scratch.txt', content: 'plan: add multiply\n' },
          { matchLast: '1| def add' },
        ),
        call('edit_file', { path: 'calc.py', old_text: ADD, new_text: 'def add(a, b):\n    return a * b' }),
        call('edit_file', { path: 'calc.py', old_text: SUBTRACT, new_text: WITH_MULTIPLY }),
        call('run_checks', {}, { matchLast: 'edited calc.py' }),
        call(
          'edit_file',
          { path: 'calc.py', old_text: 'return a * b\n\n\ndef subtract', new_text: 'return a + b\n\n\ndef subtract' },
          { matchLast: 'test_add' },
        ),
        call('delete_file', { path: 'notes/scratch.txt' }),
        call('finish', { summary: 'Added multiply(a, b); restored add after the test caught it.' }),
        review(true),
      ],
    });
    expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SUCCESS', '']);
    expect(result.strategy).toBe(farm.v1.AgentStrategy.TOOLS);
    // The commit is the net change: calc.py only (the scratch file came and went).
    expect(pushedFiles(bare, baseCommit, result.commitSha!)).toEqual(['calc.py']);
    expect(pushedFile(bare, result.commitSha!, 'calc.py')).toBe(`${ADD}\n\n\n${WITH_MULTIPLY}`);
    // The model saw the failing test as the run_checks result.
    expect(toolResults()[6]).toMatch(/The check "test".*failed[\s\S]*test_add/);
    // The reviewer got the goal, the final diff and the checks; its verdict is on the result.
    const reviewPrompt = requests
      .find((r) => r.model === 'reviewer')!
      .messages.map((m) => m.content)
      .join('\n');
    expect(reviewPrompt).toContain('Add multiply(a, b) to calc.py');
    expect(reviewPrompt).toContain('+def multiply(a, b):');
    expect(reviewPrompt).toContain('all checks passed');
    expect(result.reviews).toEqual([{ approved: true, objections: [], round: 1, findings: [], confidence: 1 }]);
    expect(result.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^review: approved in round 1/)]));
    expect(result.steps).toBe(11);
    // The lesson: goal, files, what failed first, what fixed it.
    expect(result.lesson).toMatchObject({ goal: 'Add multiply(a, b) to calc.py', files: ['calc.py'] });
    expect(result.lesson!.firstFailure).toMatch(/test_add/);
    // Every step and tool call is in the trajectory, with a reward per finish attempt.
    const tools = trajectory.filter((e) => e.event === 'tool');
    expect(tools.map((e) => e.tool)).toEqual([
      'list_files',
      'search',
      'read_file',
      'create_file',
      'edit_file',
      'edit_file',
      'run_checks',
      'edit_file',
      'delete_file',
      'finish',
    ]);
    expect(tools[1]).toMatchObject({ arguments: { pattern: 'def add', glob: '*.py' }, ok: true });
    expect(tools.every((e) => typeof e.outputChars === 'number' && typeof e.durationMs === 'number')).toBe(true);
    const steps = trajectory.filter((e) => e.event === 'step');
    expect(steps[0]).toMatchObject({ step: 1, model: 'coder', tokens: { promptTokens: expect.any(Number) } });
    expect(trajectory.filter((e) => e.event === 'reward').map((e) => [e.attempt, e.reward])).toEqual([[1, 1]]);
    // The result carries a bounded copy for the API: tool calls with their results, the checks with their
    // output, the verdict, the committed diff; no prompt.
    const report = result.report!.trajectory!.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(report.map((e) => e.event)).not.toContain('prompt');
    const reportedTools = report.filter((e) => e.event === 'tool');
    expect(reportedTools).toHaveLength(10);
    expect(reportedTools[6]).toMatchObject({
      tool: 'run_checks',
      ok: false,
      result: expect.stringMatching(/test_add/),
    });
    expect(report.find((e) => e.event === 'check')).toMatchObject({ ok: true, steps: [{ ok: true }] });
    expect(report.find((e) => e.event === 'review')).toMatchObject({ approved: true, round: 1 });
    expect(result.report!.diff).toContain('+def multiply(a, b):');
    expect(result.report!.diff).not.toContain('scratch');
    expect(result.report!.diffTruncated).toBe(false);
  });

  test('a tool call whose arguments are not JSON is asked again; the task succeeds and its notes say so', async () => {
    const { result, requests, bare, baseCommit } = await runTask(
      PYTHON_REPO,
      {
        chat: [
          { toolCalls: [{ name: 'edit_file', arguments: '{"path": "calc.py", "old_text": ' }] },
          call('edit_file', { path: 'calc.py', old_text: SUBTRACT, new_text: WITH_MULTIPLY }),
          call('finish', { summary: 'Added multiply(a, b).' }, { matchLast: 'edited calc.py' }),
          review(true),
        ],
      },
      {},
      (baseURL) => ({
        services: { toolModel: createToolModel({ baseURL, apiKey: MODEL_KEY, model: 'coder', maxRetries: 2 }) },
      }),
    );
    expect(S[result.status!]).toBe('SUCCESS');
    expect(result.notes).toContain('model answer malformed, retried 1x');
    // The broken call was asked again, never run: the model's conversation has no trace of it.
    expect(requests[1].messages).toEqual(requests[0].messages);
    expect(pushedFiles(bare, baseCommit, result.commitSha!)).toEqual(['calc.py']);
  });

  test('finishing with failing checks is refused; the reviewer objection leads to another edit', async () => {
    const { result, bare, trajectory, toolResults } = await runTask(PYTHON_REPO, {
      chat: [
        call('edit_file', {
          path: 'calc.py',
          old_text: `${ADD}\n`,
          new_text: 'def add(a, b):\n    return a - b\n',
        }),
        call('edit_file', { path: 'calc.py', old_text: SUBTRACT, new_text: WITH_MULTIPLY }),
        call('finish', { summary: 'multiply added' }),
        call(
          'edit_file',
          { path: 'calc.py', old_text: 'return a - b\n\n\ndef subtract', new_text: 'return a + b\n\n\ndef subtract' },
          { matchLast: 'finish refused: the checks fail' },
        ),
        call('finish', { summary: 'multiply added, add fixed' }),
        review(false, ['calc.py: multiply has no docstring; say what it returns']),
        call(
          'edit_file',
          {
            path: 'calc.py',
            old_text: 'def multiply(a, b):\n',
            new_text: 'def multiply(a, b):\n    """The product of a and b."""\n',
          },
          { matchLast: 'multiply has no docstring' },
        ),
        call('finish', { summary: 'multiply added with a docstring' }),
        review(true),
      ],
    });
    expect(S[result.status!]).toBe('SUCCESS');
    expect(toolResults()[2]).toMatch(/^finish refused: the checks fail on the final tree[\s\S]*test_add/);
    expect(toolResults()[4]).toMatch(/^finish refused: the reviewer objected[\s\S]*multiply has no docstring/);
    expect(pushedFile(bare, result.commitSha!, 'calc.py')).toContain('"""The product of a and b."""');
    expect(result.attempts).toBe(3);
    expect(result.reviews!.map((r) => r.approved)).toEqual([false, true]);
    expect(result.notes).toEqual(expect.arrayContaining(['review: approved in round 2 after objections']));
    expect(trajectory.filter((e) => e.event === 'reward').map((e) => e.reward)).toEqual([0, 1, 1]);
    expect(trajectory.filter((e) => e.event === 'review').map((e) => e.approved)).toEqual([false, true]);
  });

  test.each([
    ['step', { maxSteps: 3 }, {}, /step budget used up: 3 model calls/],
    [
      'token',
      { maxTokens: 1000 },
      { usage: { promptTokens: 800, completionTokens: 300 } },
      /token budget exceeded: 1100 tokens/,
    ],
    [
      'cost',
      { maxCostUsd: 0.01 },
      { usage: { promptTokens: 2000, completionTokens: 100 } },
      /cost budget exceeded: \$0\.02/,
    ],
  ])(
    'the %s budget ends the task as SOFT_FAIL with the reason, and nothing is pushed',
    async (_name, budget, usage, reason) => {
      const { result, url } = await runTask(
        PYTHON_REPO,
        {
          chat: [
            { ...call('edit_file', { path: 'calc.py', old_text: SUBTRACT, new_text: WITH_MULTIPLY }), ...usage },
            { ...call('list_files'), repeat: true, ...usage },
          ],
        },
        {},
        { settings: { budget, prices: { coder: { inputPerMillion: 10, outputPerMillion: 10 } } } },
      );
      expect([S[result.status!], failedStepName(result.failedStep)]).toEqual(['SOFT_FAIL', 'budget']);
      expect(result.notes!.join('\n')).toMatch(reason);
      expect(await remoteBranchSha(url, `agt/tools-${RUN}-${n}`)).toBeUndefined();
      expect(result.costUsd).toBeGreaterThan(0);
    },
  );

  test('tools refuse ../outside, .git/config and a symlink to /etc, and the model key never shows in a tool result', async () => {
    const files = { ...PYTHON_REPO, 'config/settings.env': `OPENAI_API_KEY=${MODEL_KEY}\nDEBUG=1\n` };
    const { result, requests, toolResults, trajectoryText } = await runTask(
      files,
      {
        chat: [
          call('read_file', { path: '../outside' }),
          call('read_file', { path: '.git/config' }),
          call('run_command', { command: 'ln -s /etc etc-link && echo linked' }),
          call('read_file', { path: 'etc-link/hostname' }),
          call('create_file', { path: 'etc-link/evil.conf', content: 'x' }),
          call('read_file', { path: 'config/settings.env' }),
          call('search', { pattern: 'OPENAI_API_KEY' }),
          call('run_command', { command: 'cat config/settings.env' }),
          call('list_files', { path: 'config' }),
          call('finish', { summary: 'nothing to do' }),
          call('list_files'),
        ],
      },
      { goal: 'Document the settings in config/settings.env' },
      { settings: { budget: { maxSteps: 11 } } },
    );
    expect(failedStepName(result.failedStep)).toBe('budget');
    const out = toolResults();
    expect(out[0]).toMatch(/ERROR: read_file: refused: \.\.\/outside leaves the repository/);
    expect(out[1]).toMatch(/ERROR: read_file: refused: .git\/config is inside \.git\//);
    expect(out[2]).toMatch(/exit code 0\s+linked/);
    expect(out[3]).toMatch(/ERROR: read_file: refused: etc-link\/hostname is a symlink that leads outside/);
    expect(out[4]).toMatch(/ERROR: create_file: refused: etc-link is a symlink/);
    expect(out[5]).toMatch(/OPENAI_API_KEY=\[secret redacted\]/);
    expect(out[6]).toMatch(/config\/settings\.env:1: OPENAI_API_KEY=\[secret redacted\]/);
    expect(out[7]).toMatch(/OPENAI_API_KEY=\[secret redacted\]/);
    // The symlink the command made is not committed: finish refuses it.
    expect(out[9]).toBe(
      'finish refused: etc-link would be committed as symlink(s) leading outside the repository; remove them.',
    );
    // Not in any message the model received, nor in the trajectory or the result.
    for (const r of requests) expect(JSON.stringify(r.messages)).not.toContain(MODEL_KEY);
    expect(trajectoryText).not.toContain(MODEL_KEY);
    expect(JSON.stringify(result)).not.toContain(MODEL_KEY);
    // The report's copy of the tool results is redacted too.
    expect(result.report!.trajectory!.join('\n')).toContain('OPENAI_API_KEY=[secret redacted]');
  });

  test('a lesson stored by one request appears in the first prompt of a later similar task', async () => {
    const first = await runTask(PYTHON_REPO, {
      chat: [
        call('edit_file', { path: 'calc.py', old_text: SUBTRACT, new_text: WITH_MULTIPLY }),
        call('finish', { summary: 'Added multiply next to subtract in calc.py' }),
        review(true),
      ],
    });
    expect(S[first.result.status!]).toBe('SUCCESS');
    expect(await storeLesson(store, first.result.lesson!)).toBe(true);
    expect(await storeLesson(store, first.result.lesson!)).toBe(false); // a redelivered result stores nothing new

    const later: farm.v1.ICodingTask = {
      id: 'later',
      goal: 'Add divide(a, b) to calc.py',
      repo: { url: first.url },
    };
    const unrelated: farm.v1.ICodingTask = { id: 'other', goal: 'Add divide', repo: { url: 'http://elsewhere/x.git' } };
    const lessons = await lessonsForTask(store, later, 3);
    expect(lessons.map((l) => l.goal)).toEqual(['Add multiply(a, b) to calc.py']);
    expect(await lessonsForTask(store, unrelated, 3)).toEqual([]);

    const second = await runTask(
      PYTHON_REPO,
      {
        chat: [
          call(
            'edit_file',
            { path: 'calc.py', old_text: SUBTRACT, new_text: `${SUBTRACT}\n\ndef divide(a, b):\n    return a / b\n` },
            { match: 'LESSONS FROM EARLIER TASKS' },
          ),
          call('finish', { summary: 'Added divide' }),
          review(true),
        ],
      },
      { goal: later.goal, lessons },
    );
    expect(S[second.result.status!]).toBe('SUCCESS');
    const firstPrompt = second.requests[0].messages.map((m) => m.content).join('\n');
    expect(firstPrompt).toMatch(
      /LESSONS FROM EARLIER TASKS ON THIS REPOSITORY[\s\S]*Goal: Add multiply\(a, b\) to calc\.py/,
    );
    expect(firstPrompt).toContain('What fixed it: Added multiply next to subtract in calc.py');
  });

  test('a long conversation is kept within the context window: older tool outputs are shortened first', async () => {
    const big = { ...PYTHON_REPO, 'data/table.py': `TABLE = [\n${'    (1, 2, 3),\n'.repeat(300)}]\n` };
    const { requests, trajectory, result } = await runTask(
      big,
      {
        chat: [
          call('read_file', { path: 'data/table.py' }),
          ...Array.from({ length: 7 }, () => call('read_file', { path: 'calc.py', end_line: 2 })),
        ],
      },
      {},
      { settings: { contextWindowTokens: 2000, budget: { maxSteps: 8 } } },
    );
    expect(failedStepName(result.failedStep)).toBe('budget');
    const toolMessages = (i: number) =>
      requests[i].messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(toolMessages(1)[0]).toMatch(/^ +1\| TABLE = \[/); // whole while the window allowed it
    expect(toolMessages(7)[0]).toMatch(
      /^\[shortened to keep the conversation in the context window: the read_file output had \d+ characters/,
    );
    expect(toolMessages(7).at(-1)).toBe('1| def add(a, b):\n2|     return a + b');
    expect(trajectory.some((e) => e.event === 'step' && Number(e.shortenedMessages) > 0)).toBe(true);
  });

  test('an endpoint without tool calling gets the diff strategy (auto)', async () => {
    const { result, refusedToolRequests } = await runTask(PYTHON_REPO, {
      chat: [{ answer: { diff: PY_ADD_MULTIPLY } }],
    });
    expect([S[result.status!], result.strategy]).toEqual(['SUCCESS', farm.v1.AgentStrategy.DIFF]);
    expect(refusedToolRequests).toBe(1);
  });
});

describe('the tool strategy on a Node repo (jest)', () => {
  test('explores, an edit matching twice gets a clear error, the corrected edit applies, a broken jest test is fixed, approved, net change pushed', async () => {
    const { result, bare, baseCommit, toolResults } = await runTask(
      NODE_JEST_REPO,
      {
        chat: [
          call('list_files'),
          call('search', { pattern: 'greet\\(', glob: '*.js' }, { matchLast: 'src/greet.js' }),
          call('read_file', { path: 'src/greet.js' }, { matchLast: 'src/greet.test.js:' }),
          call('find_symbol', { name: 'greet' }),
          call('edit_file', { path: 'src/greet.js', old_text: 'name', new_text: 'who' }, { matchLast: 'DEFINITIONS' }),
          call(
            'edit_file',
            {
              path: 'src/greet.js',
              old_text: 'module.exports = { greet };',
              new_text:
                "function farewell(name) {\n  return 'Bye, ' + name;\n}\n\nmodule.exports = { greet, farewell };",
            },
            { matchLast: 'occurs 2 times' },
          ),
          call('edit_file', { path: 'src/greet.js', old_text: "'Hello, '", new_text: "'Hi, '" }),
          call('run_checks', {}, { matchLast: 'edited src/greet.js' }),
          call(
            'edit_file',
            { path: 'src/greet.js', old_text: "'Hi, '", new_text: "'Hello, '" },
            { matchLast: 'greets by name' },
          ),
          call(
            'finish',
            { summary: 'Added farewell(name); kept greet as the test expects' },
            { matchLast: 'edited src/greet.js' },
          ),
          review(true),
        ],
      },
      { goal: 'Add farewell(name) to src/greet.js' },
    );
    expect(S[result.status!]).toBe('SUCCESS');
    expect(toolResults()[3]).toMatch(
      /^DEFINITIONS:\nsrc\/greet\.js:3-5: function greet[\s\S]*REFERENCES:[\s\S]*src\/greet\.test\.js:2:/,
    );
    expect(toolResults()[4]).toBe(
      'ERROR: edit_file: old_text occurs 2 times in src/greet.js (lines 3, 4); add surrounding lines to make it unique, or set replace_all',
    );
    expect(toolResults()[7]).toMatch(/The check "test".*failed[\s\S]*greets by name/);
    // The install step's package-lock.json is the checks' doing, not the agent's: only greet.js is committed.
    expect(pushedFiles(bare, baseCommit, result.commitSha!)).toEqual(['src/greet.js']);
    expect(pushedFile(bare, result.commitSha!, 'src/greet.js')).toContain(
      "return 'Hello, ' + name;\n}\n\nfunction farewell(name)",
    );
    expect(result.lesson!.firstFailure).toMatch(/greets by name/);
  });
});
