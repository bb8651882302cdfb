import { farm } from '@farm/proto';
import {
  approvalConfigSchema,
  approvalPolicyFrom,
  mayHoldPlans,
  planEditProblem,
  type ApprovalRule,
  type TaskCostHistory,
} from './approval-policy';
import { decide, type Decision, type DeciderOptions, type RequestState } from './decider';

const P = farm.v1.Phase;
const T = farm.v1.TaskState;
const A = farm.v1.ControlAction;
const K = farm.v1.TaskKind;

const policy = (env: Record<string, string> = {}) => approvalPolicyFrom(approvalConfigSchema.parse(env));
const options = (env: Record<string, string> = {}): DeciderOptions => ({
  parallelism: 4,
  maxDispatches: 2,
  taskDeadlineMs: 60_000,
  approval: policy(env),
});

/** A request being planned, with what the store loads for it (the history of task costs, when there is one). */
const planning = (
  requireApproval = false,
  repoUrl = 'https://git.example/team/app.git',
  taskCostHistory?: TaskCostHistory,
): RequestState => ({
  request: {
    id: 'cr',
    phase: P.PLANNING,
    repoUrl,
    baseRef: 'main',
    baseCommit: '',
    checkCommand: '',
    integrationBranch: '',
    requireApproval,
  },
  tasks: [],
  ...(taskCostHistory ? { taskCostHistory } : {}),
});

const codingTask = (id: string, more: Partial<farm.v1.ICodingTask> = {}): farm.v1.ICodingTask => ({
  id: `cr-${id}`,
  changeRequestId: 'cr',
  goal: `do ${id}`,
  kind: K.FEATURE,
  path: `src/${id}.ts`,
  repo: { url: 'https://git.example/team/app.git', baseRef: 'main', baseCommit: 'abc123' },
  ...more,
});
const bundle = (tasks: farm.v1.ICodingTask[]) => ({
  kind: 'task-bundle' as const,
  bundle: { changeRequestId: 'cr', repo: { baseCommit: 'abc123def456' }, tasks },
});
const control = (action: farm.v1.ControlAction, more: Partial<farm.v1.IControlCommand> = {}) => ({
  kind: 'cancel' as const,
  command: { changeRequestId: 'cr', action, requestedBy: 'alice', ...more },
});
const moves = (d: Decision) => d.updates.flatMap((u) => (u.kind === 'move' ? [[P[u.to], u.reason]] : []));
const launched = (d: Decision) => d.effects.flatMap((e) => (e.kind === 'launch' ? [e.task.id] : []));

/**
 * Why decide() holds the plan of `tasks` (the reason of its move to AWAITING_APPROVAL, after the count), or
 * undefined when the plan starts: the gate as the orchestrator applies it, from the state the store loads.
 */
function waitReason(
  env: Record<string, string>,
  tasks: farm.v1.ICodingTask[],
  on: { requested?: boolean; repoUrl?: string; history?: TaskCostHistory } = {},
): string | undefined {
  const state = planning(on.requested, on.repoUrl ?? 'https://git.example/x.git', on.history);
  const [move] = decide(state, bundle(tasks), options(env)).updates.flatMap((u) => (u.kind === 'move' ? [u] : []));
  if (move.to === P.CODING) return undefined;
  expect(P[move.to]).toBe('AWAITING_APPROVAL');
  const prefix = `${tasks.length} task(s) at abc123def456 wait for approval: `;
  expect(move.reason.startsWith(prefix)).toBe(true);
  return move.reason.slice(prefix.length);
}

describe('which plans wait for approval (through decide(), as the orchestrator applies the gate)', () => {
  const three = [codingTask('a'), codingTask('b'), codingTask('c', { kind: K.REFACTOR, path: 'db/migrations/1.sql' })];
  const ask = (env: Record<string, string>, requested = false, tasks = three, repoUrl = 'https://git.example/x.git') =>
    waitReason(env, tasks, { requested, repoUrl });

  it('never (the default) lets every plan start, unless its submitter asked', () => {
    expect(ask({})).toBeUndefined();
    expect(ask({}, true)).toBe('the submitter asked for approval');
  });

  it('always holds every plan; a repository listed holds its plans whatever the mode', () => {
    expect(ask({ FARM_APPROVAL: 'always' })).toMatch(/every plan waits/);
    expect(
      ask({ FARM_APPROVAL_REPOS: 'https://git.example/team/**' }, false, three, 'https://git.example/team/app.git'),
    ).toMatch(/the repository's plans always wait/);
    expect(ask({ FARM_APPROVAL_REPOS: 'https://git.example/team/**' })).toBeUndefined();
  });

  it('large: each threshold passed is named; a plan within them all starts', () => {
    const large = { FARM_APPROVAL: 'large' };
    expect(ask(large)).toBeUndefined();
    expect(ask({ ...large, FARM_APPROVAL_MAX_TASKS: '2' })).toBe('3 tasks, more than 2 (FARM_APPROVAL_MAX_TASKS)');
    expect(ask({ ...large, FARM_APPROVAL_MAX_FILES: '2' })).toBe('3 files, more than 2 (FARM_APPROVAL_MAX_FILES)');
    const leasing = three.map((t, i) => ({ ...t, symbols: [`sym${i}`, 'shared'] }));
    expect(ask({ ...large, FARM_APPROVAL_MAX_SYMBOLS: '3' }, false, leasing)).toBe(
      '4 symbols, more than 3 (FARM_APPROVAL_MAX_SYMBOLS)',
    );
    expect(ask({ ...large, FARM_APPROVAL_MAX_SYMBOLS: '4' }, false, leasing)).toBeUndefined();
    expect(ask({ ...large, FARM_APPROVAL_KINDS: 'refactor,docs' })).toBe('task kinds refactor (FARM_APPROVAL_KINDS)');
    expect(ask({ ...large, FARM_APPROVAL_PATHS: '**/migrations/**' })).toBe(
      'paths db/migrations/1.sql (FARM_APPROVAL_PATHS)',
    );
    expect(ask({ ...large, FARM_APPROVAL_MAX_TASKS: '1', FARM_APPROVAL_KINDS: 'refactor' }, true)).toBe(
      'the submitter asked for approval; 3 tasks, more than 1 (FARM_APPROVAL_MAX_TASKS); task kinds refactor (FARM_APPROVAL_KINDS)',
    );
  });

  it('large: a plan estimated above FARM_APPROVAL_MAX_COST_USD waits, the estimate and its basis shown', () => {
    const history = { meanUsd: 0.5, tasks: 12, of: 'repository' as const };
    const estimate = (env: Record<string, string>, h?: typeof history) =>
      waitReason({ FARM_APPROVAL: 'large', ...env }, three, { history: h });
    expect(estimate({ FARM_APPROVAL_MAX_COST_USD: '1' }, history)).toBe(
      "an estimated $1.50, more than $1 (FARM_APPROVAL_MAX_COST_USD) (estimate: $1.50: 3 task(s) × $0.5000, the mean of the repository's last 12 successful task(s))",
    );
    expect(estimate({ FARM_APPROVAL_MAX_COST_USD: '2' }, history)).toBeUndefined();
    expect(estimate({ FARM_APPROVAL_MAX_COST_USD: '1' })).toBeUndefined(); // no history: no estimate to go by
    // Whatever made a plan wait, its estimate is shown.
    expect(estimate({ FARM_APPROVAL_MAX_TASKS: '2' }, history)).toMatch(
      /^3 tasks, more than 2 .* \(estimate: \$1\.50: /,
    );
  });

  it('large: a plan the planner expects to change more lines than FARM_APPROVAL_MAX_CHANGED_LINES (200) waits', () => {
    const sized = (lines: number[]) => three.map((t, i) => ({ ...t, estimatedChangedLines: lines[i] }));
    const large = { FARM_APPROVAL: 'large' };
    expect(ask(large, false, sized([120, 50, 40]))).toBe(
      "about 210 changed lines by the planner's estimate, more than 200 (FARM_APPROVAL_MAX_CHANGED_LINES) (estimate: about 210 changed lines by the planner's estimate)",
    );
    expect(ask(large, false, sized([120, 50, 30]))).toBeUndefined();
    expect(ask({ ...large, FARM_APPROVAL_MAX_CHANGED_LINES: '0' }, false, sized([900, 0, 0]))).toBeUndefined();
    // No planner model, no estimate: the threshold cannot apply, and no estimate is shown.
    expect(ask({ ...large, FARM_APPROVAL_MAX_TASKS: '1' })).toBe('3 tasks, more than 1 (FARM_APPROVAL_MAX_TASKS)');
    // Whatever made a plan wait, the planner's estimate is shown.
    expect(ask({ FARM_APPROVAL: 'always' }, false, sized([10, 0, 5]))).toBe(
      "every plan waits for approval (FARM_APPROVAL=always) (estimate: about 15 changed lines by the planner's estimate)",
    );
  });

  it('FARM_APPROVAL_RULES: the first rule matching the repository replaces the settings it names', () => {
    const rules = JSON.stringify([
      { repos: 'https://git.example/payments/**', mode: 'large', maxTasks: 2 },
      { repos: ['https://git.example/docs/*', '/srv/**'], mode: 'never' },
      { repos: 'https://git.example/**', maxTasks: 1 },
    ]);
    const env = { FARM_APPROVAL: 'always', FARM_APPROVAL_RULES: rules };
    expect(ask(env, false, three, 'https://git.example/payments/api.git')).toBe(
      '3 tasks, more than 2 (FARM_APPROVAL_RULES for https://git.example/payments/**)',
    );
    expect(ask(env, false, three, 'https://git.example/docs/site.git')).toBeUndefined();
    expect(ask(env, true, three, '/srv/repos/app')).toBe('the submitter asked for approval');
    // A rule without a mode keeps the farm's (always here); its threshold applies when the mode is large.
    expect(ask(env, false, three, 'https://git.example/team/app.git')).toBe(
      'every plan waits for approval (FARM_APPROVAL=always)',
    );
    expect(ask({ ...env, FARM_APPROVAL: 'large' }, false, three, 'https://git.example/team/app.git')).toBe(
      '3 tasks, more than 1 (FARM_APPROVAL_RULES for https://git.example/**)',
    );
    expect(ask(env, false, three, 'https://elsewhere.example/app.git')).toBe(
      'every plan waits for approval (FARM_APPROVAL=always)',
    );
    // With mode never everywhere else, a rule holding some repositories' plans makes plans holdable.
    const only = policy({ FARM_APPROVAL_RULES: JSON.stringify([{ repos: 'x/**', mode: 'always' }]) });
    expect(mayHoldPlans(only)).toBe(true);
    expect(mayHoldPlans(policy({}))).toBe(false);
    expect(ask({ FARM_APPROVAL_RULES: JSON.stringify([{ repos: 'x/**', mode: 'always' }]) }, false, three, 'x/y')).toBe(
      'every plan waits for approval (FARM_APPROVAL_RULES for x/**: always)',
    );
  });

  // One row per setting a rule may name (the type check asks for a row when one is added): a plan crossing that
  // one only waits, and the reason names the rule.
  const history = { meanUsd: 0.5, tasks: 12, of: 'repository' as const };
  const crossing: Record<
    Exclude<keyof ApprovalRule, 'repos'>,
    [Partial<ApprovalRule>, farm.v1.ICodingTask[], string]
  > = {
    mode: [{ mode: 'always' }, three, 'every plan waits for approval (FARM_APPROVAL_RULES for x/**: always)'],
    maxTasks: [{ maxTasks: 2 }, three, '3 tasks, more than 2 (FARM_APPROVAL_RULES for x/**)'],
    maxFiles: [{ maxFiles: 2 }, three, '3 files, more than 2 (FARM_APPROVAL_RULES for x/**)'],
    maxSymbols: [
      { maxSymbols: 2 },
      three.map((t) => ({ ...t, symbols: [`${t.id}.run`] })),
      '3 symbols, more than 2 (FARM_APPROVAL_RULES for x/**)',
    ],
    maxChangedLines: [
      { maxChangedLines: 100 },
      three.map((t) => ({ ...t, estimatedChangedLines: 40 })),
      "about 120 changed lines by the planner's estimate, more than 100 (FARM_APPROVAL_RULES for x/**)",
    ],
    maxCostUsd: [{ maxCostUsd: 1 }, three, 'an estimated $1.50, more than $1 (FARM_APPROVAL_RULES for x/**)'],
    kinds: [{ kinds: ['refactor'] }, three, 'task kinds refactor (FARM_APPROVAL_RULES for x/**)'],
    paths: [{ paths: ['**/migrations/**'] }, three, 'paths db/migrations/1.sql (FARM_APPROVAL_RULES for x/**)'],
  };
  it.each(Object.entries(crossing))(
    "a rule's %s holds a plan that crosses it, and only that",
    (_, [rule, tasks, why]) => {
      const rules = JSON.stringify([{ repos: 'x/**', mode: 'large', ...rule }]);
      const reason = waitReason({ FARM_APPROVAL_RULES: rules }, tasks, { repoUrl: 'x/y', history });
      expect(reason?.split(' (estimate: ')[0]).toBe(why);
      // Elsewhere the farm's settings (never) apply: the same plan starts.
      expect(waitReason({ FARM_APPROVAL_RULES: rules }, tasks, { repoUrl: 'y/x', history })).toBeUndefined();
    },
  );

  it('a bad FARM_APPROVAL_RULES is a configuration error naming what is wrong', () => {
    const problems = (rules: string) => {
      const parsed = approvalConfigSchema.safeParse({ FARM_APPROVAL_RULES: rules });
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(problems('[{"repos": "a/**", "maxTasks": 2}]')).toEqual([]);
    expect(problems('not json')[0]).toMatch(/^FARM_APPROVAL_RULES: must be JSON: \[\{"repos"/);
    expect(problems('[{"maxTasks": 2}]')[0]).toMatch(/^FARM_APPROVAL_RULES\.0\.repos: required: a glob/);
    expect(problems('[{"repos": "a", "maxTask": 2}]')[0]).toMatch(/maxTask/);
    expect(problems('[{"repos": "a", "mode": "sometimes"}]')[0]).toMatch(/^FARM_APPROVAL_RULES\.0\.mode/);
  });

  it('an unknown kind in the policy is a configuration error', () => {
    expect(() => approvalConfigSchema.parse({ FARM_APPROVAL_KINDS: 'feature,architecture' })).toThrow();
  });

  it('an edit that cannot apply says why', () => {
    const ids = ['cr-a', 'cr-b'];
    expect(planEditProblem(ids, { removeTasks: ['cr-z'] })).toBe('no task cr-z in this plan');
    expect(planEditProblem(ids, { removeTasks: ids })).toMatch(/keeps at least one task/);
    expect(planEditProblem(ids, { removeTasks: ['cr-a'], goals: { 'cr-a': 'x' } })).toMatch(
      /both removed and reworded/,
    );
    expect(planEditProblem(ids, { goals: { 'cr-b': '  ' } })).toBe('the goal of task cr-b is empty');
    expect(planEditProblem(ids, { parallelism: 0 })).toMatch(/parallelism/);
    expect(
      planEditProblem(ids, { removeTasks: ['cr-a'], goals: { 'cr-b': 'better' }, parallelism: 1 }),
    ).toBeUndefined();
  });
});

describe('a plan waiting for approval', () => {
  const tasks = [codingTask('a'), codingTask('b', { dependsOn: ['cr-a'] }), codingTask('c')];
  const waiting = () => decide(planning(true), bundle(tasks), options());

  it('stops after planning: no task starts, the reason says why it waits', () => {
    const d = waiting();
    expect(moves(d)).toEqual([
      ['AWAITING_APPROVAL', '3 task(s) at abc123def456 wait for approval: the submitter asked for approval'],
    ]);
    expect(launched(d)).toEqual([]);
    expect(d.state.tasks.map((t) => t.status)).toEqual([T.TASK_PENDING, T.TASK_PENDING, T.TASK_PENDING]);
  });

  it('approved: the tasks start as planned, the reason names who approved; a second approval changes nothing', () => {
    const approved = decide(waiting().state, control(A.APPROVE), options());
    expect(moves(approved)).toEqual([['CODING', 'plan approved by alice']]);
    expect(launched(approved)).toEqual(['cr-a', 'cr-c']); // b waits for a
    expect(decide(approved.state, control(A.APPROVE), options()).updates).toEqual([]);
  });

  it('approved edited: a task left out (and the dependency on it), a goal reworded, one task at a time', () => {
    const edit = { removeTasks: ['cr-a'], goals: { 'cr-c': 'do c, carefully' }, parallelism: 1 };
    const approved = decide(waiting().state, control(A.APPROVE, { planEdit: edit, reason: 'smaller' }), options());
    expect(moves(approved)).toEqual([
      ['CODING', 'plan approved by alice (edited: without cr-a; goals of cr-c reworded; at most 1 at once): smaller'],
    ]);
    expect(approved.updates).toEqual(
      expect.arrayContaining([
        { kind: 'remove-task', taskId: 'cr-a' },
        { kind: 'replan-task', taskId: 'cr-b', task: expect.objectContaining({ dependsOn: [] }) },
        { kind: 'replan-task', taskId: 'cr-c', task: expect.objectContaining({ goal: 'do c, carefully' }) },
        { kind: 'set-parallelism', parallelism: 1 },
      ]),
    );
    expect(approved.state.tasks.map((t) => t.id)).toEqual(['cr-b', 'cr-c']);
    expect(launched(approved)).toEqual(['cr-b']); // one at a time, b no longer waits for a
  });

  it('rejected: CANCELLED with the reason, its leases released; an approval after it changes nothing', () => {
    const rejected = decide(waiting().state, control(A.REJECT, { reason: 'too broad' }), options());
    expect(moves(rejected)).toEqual([['CANCELLED', 'plan rejected by alice: too broad']]);
    expect(rejected.effects).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'release-leases' })]));
    expect(decide(rejected.state, control(A.APPROVE), options()).updates).toEqual([]);
  });

  it('cancelled while waiting, like any request', () => {
    expect(moves(decide(waiting().state, control(A.CANCEL), options()))).toEqual([['CANCELLED', 'cancelled by alice']]);
  });

  it('past its timeout: FAILED saying so, or approved automatically where the operator chose that', () => {
    const expired = { kind: 'phase-expired' as const, phase: P.AWAITING_APPROVAL, limitMs: 3_600_000 };
    expect(moves(decide(waiting().state, expired, options()))).toEqual([
      ['FAILED', 'the plan was neither approved nor rejected within 3600 s (FARM_APPROVAL_TIMEOUT_S)'],
    ]);
    const auto = decide(waiting().state, expired, options({ FARM_APPROVAL_AUTO: 'true' }));
    expect(moves(auto)).toEqual([
      ['CODING', 'approved automatically: nobody approved or rejected the plan within 3600 s'],
    ]);
    expect(launched(auto)).toEqual(['cr-a', 'cr-c']);
  });

  it('a plan the policy does not hold starts at once, as before', () => {
    const d = decide(planning(false), bundle(tasks), options({ FARM_APPROVAL: 'large' }));
    expect(moves(d)).toEqual([['CODING', '3 task(s) at abc123def456']]);
    expect(launched(d)).toEqual(['cr-a', 'cr-c']);
  });
});
