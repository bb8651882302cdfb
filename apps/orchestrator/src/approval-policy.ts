import picomatch from 'picomatch';
import { farm } from '@farm/proto';
import { commaSeparated, jsonVariable, z } from '@farm/runtime';

const KIND_NAMES = ['feature', 'fix', 'refactor', 'test', 'docs'] as const;
type KindName = (typeof KIND_NAMES)[number];
const MODES = ['never', 'always', 'large'] as const;

/**
 * One repository rule of FARM_APPROVAL_RULES: for the repositories matching `repos` (globs on their URL or
 * path), the settings it names replace the farm's (the first matching rule applies).
 */
const approvalRuleSchema = z
  .object({
    repos: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
        errorMap: () => ({ message: 'required: a glob, or a list of globs, on the repository URL or path' }),
      })
      .transform((r) => [r].flat()),
    mode: z.enum(MODES).optional(),
    maxTasks: z.number().int().min(1).optional(),
    maxFiles: z.number().int().min(1).optional(),
    maxSymbols: z.number().int().min(1).optional(),
    maxChangedLines: z.number().int().min(0).optional(),
    maxCostUsd: z.number().min(0).optional(),
    kinds: z.array(z.enum(KIND_NAMES)).optional(),
    paths: z.array(z.string()).optional(),
  })
  .strict();
export type ApprovalRule = z.infer<typeof approvalRuleSchema>;

/** FARM_APPROVAL*: which plans wait for a person before any task starts, and how long they may wait. */
export const approvalConfigSchema = z.object({
  /** `never` (plans start at once), `always`, or `large` (the thresholds below decide). */
  FARM_APPROVAL: z.enum(MODES).default('never'),
  /** `large`: a plan of more tasks than this waits. */
  FARM_APPROVAL_MAX_TASKS: z.coerce.number().int().min(1).default(5),
  /** `large`: a plan touching more files than this (the tasks' main files together) waits. */
  FARM_APPROVAL_MAX_FILES: z.coerce.number().int().min(1).default(20),
  /** `large`: a plan touching more symbols than this (the tasks' leased symbols together) waits. */
  FARM_APPROVAL_MAX_SYMBOLS: z.coerce.number().int().min(1).default(50),
  /**
   * `large`: a plan whose tasks the planner expects to change more lines than this (added and removed, all
   * tasks together) waits (0: no such threshold). Only a planner model makes the estimate.
   */
  FARM_APPROVAL_MAX_CHANGED_LINES: z.coerce.number().int().min(0).default(200),
  /** `large`: a plan with a task of one of these kinds waits (comma-separated: feature, fix, refactor, test, docs). */
  FARM_APPROVAL_KINDS: commaSeparated().pipe(z.array(z.enum(KIND_NAMES))),
  /** `large`: a plan with a task whose main file matches one of these globs waits (`migrations/**`, `*.sql`). */
  FARM_APPROVAL_PATHS: commaSeparated(),
  /**
   * `large`: a plan whose estimated cost is above this waits (US dollars; 0: no such threshold). The estimate is
   * the plan's tasks times the mean cost of the repository's recent successful tasks (of the farm's, before any).
   */
  FARM_APPROVAL_MAX_COST_USD: z.coerce.number().min(0).default(0),
  /** Repositories (globs on their URL or path) whose every plan waits, whatever FARM_APPROVAL says. */
  FARM_APPROVAL_REPOS: commaSeparated(),
  /** Per-repository settings: a JSON list of rules (ApprovalRule), the first whose `repos` match applies. */
  FARM_APPROVAL_RULES: jsonVariable(
    z.array(approvalRuleSchema),
    '[{"repos": ["https://git.example.com/payments/**"], "mode": "large", "maxTasks": 2, "maxCostUsd": 1}]',
  ).default('[]'),
  /** How long a plan may wait; then the request fails (or, with FARM_APPROVAL_AUTO, is approved). */
  FARM_APPROVAL_TIMEOUT_S: z.coerce.number().int().positive().default(86_400),
  /** `true`: a plan nobody rejected by the timeout is approved automatically, and says so. */
  FARM_APPROVAL_AUTO: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
export type ApprovalConfig = z.infer<typeof approvalConfigSchema>;

/** The approval policy as the decider applies it. */
export interface ApprovalPolicy {
  mode: (typeof MODES)[number];
  maxTasks: number;
  maxFiles: number;
  maxSymbols: number;
  maxChangedLines: number;
  maxCostUsd: number;
  kinds: KindName[];
  paths: string[];
  repos: string[];
  rules: ApprovalRule[];
  timeoutMs: number;
  autoApprove: boolean;
}

export function approvalPolicyFrom(c: ApprovalConfig): ApprovalPolicy {
  return {
    mode: c.FARM_APPROVAL,
    maxTasks: c.FARM_APPROVAL_MAX_TASKS,
    maxFiles: c.FARM_APPROVAL_MAX_FILES,
    maxSymbols: c.FARM_APPROVAL_MAX_SYMBOLS,
    maxChangedLines: c.FARM_APPROVAL_MAX_CHANGED_LINES,
    maxCostUsd: c.FARM_APPROVAL_MAX_COST_USD,
    kinds: c.FARM_APPROVAL_KINDS,
    paths: c.FARM_APPROVAL_PATHS,
    repos: c.FARM_APPROVAL_REPOS,
    rules: c.FARM_APPROVAL_RULES,
    timeoutMs: c.FARM_APPROVAL_TIMEOUT_S * 1000,
    autoApprove: c.FARM_APPROVAL_AUTO,
  };
}

/** Whether any plan may wait under this policy without its submitter asking (some repository's or all). */
export function mayHoldPlans(policy: ApprovalPolicy): boolean {
  return policy.mode !== 'never' || policy.repos.length > 0 || policy.rules.some((r) => r.mode !== 'never');
}

type Threshold = Exclude<keyof ApprovalRule, 'repos'>;
const VARIABLE: Record<Threshold, string> = {
  mode: 'FARM_APPROVAL',
  maxTasks: 'FARM_APPROVAL_MAX_TASKS',
  maxFiles: 'FARM_APPROVAL_MAX_FILES',
  maxSymbols: 'FARM_APPROVAL_MAX_SYMBOLS',
  maxChangedLines: 'FARM_APPROVAL_MAX_CHANGED_LINES',
  maxCostUsd: 'FARM_APPROVAL_MAX_COST_USD',
  kinds: 'FARM_APPROVAL_KINDS',
  paths: 'FARM_APPROVAL_PATHS',
};

/**
 * The policy for one repository: the farm's, with the settings of the first FARM_APPROVAL_RULES rule matching
 * the repository in their place; `source` names where each setting came from (for the reason a plan waits).
 */
export function policyForRepository(
  policy: ApprovalPolicy,
  repoUrl: string,
): { policy: ApprovalPolicy; source: (setting: Threshold) => string } {
  const rule = policy.rules.find((r) => picomatch.isMatch(repoUrl, r.repos, { dot: true }));
  if (!rule) return { policy, source: (setting) => VARIABLE[setting] };
  const set = Object.fromEntries(Object.entries(rule).filter(([k, v]) => k !== 'repos' && v !== undefined));
  return {
    policy: { ...policy, ...set },
    source: (setting) => (setting in set ? `FARM_APPROVAL_RULES for ${rule.repos.join(', ')}` : VARIABLE[setting]),
  };
}

/** What the planner expects the plan to change: its tasks' estimates together, undefined when none made one. */
export function plannedChangedLines(tasks: readonly farm.v1.ICodingTask[]): number | undefined {
  const estimates = tasks.flatMap((t) => (t.estimatedChangedLines ? [t.estimatedChangedLines] : []));
  return estimates.length ? estimates.reduce((a, b) => a + b, 0) : undefined;
}

/** What tasks like these cost lately: the mean of `tasks` recent successful ones, of the repository or the farm. */
export interface TaskCostHistory {
  meanUsd: number;
  tasks: number;
  of: 'repository' | 'farm';
}

/** The plan's estimated cost, with how it was made; undefined without any history to go by. */
export function planEstimate(
  taskCount: number,
  history: TaskCostHistory | undefined,
): { usd: number; basis: string } | undefined {
  if (!history?.tasks) return undefined;
  const usd = taskCount * history.meanUsd;
  return {
    usd,
    basis: `${taskCount} task(s) × $${history.meanUsd.toFixed(4)}, the mean of the ${history.of}'s last ${history.tasks} successful task(s)`,
  };
}

const kindName = (kind: farm.v1.TaskKind | null | undefined): string =>
  kind ? (farm.v1.TaskKind[kind] ?? '').toLowerCase() : '';

/**
 * Why this plan must wait for a person, or undefined when it may start: the submitter asked, the repository is
 * one whose plans always wait, the policy is `always`, or (`large`) a threshold is passed. Every reason that
 * applies is given, so the person sees them all.
 */
export function approvalReason(
  farmPolicy: ApprovalPolicy | undefined,
  plan: { repoUrl: string; requested: boolean; tasks: farm.v1.ICodingTask[]; history?: TaskCostHistory },
): string | undefined {
  const estimate = planEstimate(plan.tasks.length, plan.history);
  const lines = plannedChangedLines(plan.tasks);
  const reasons: string[] = [];
  if (plan.requested) reasons.push('the submitter asked for approval');
  if (farmPolicy?.repos.length && picomatch.isMatch(plan.repoUrl, farmPolicy.repos, { dot: true }))
    reasons.push("the repository's plans always wait for approval");
  const { policy, source } = farmPolicy
    ? policyForRepository(farmPolicy, plan.repoUrl)
    : { policy: undefined, source: (s: Threshold) => VARIABLE[s] };
  if (policy?.mode === 'always') {
    const from = source('mode');
    reasons.push(`every plan waits for approval (${from === VARIABLE.mode ? `${from}=always` : `${from}: always`})`);
  }
  if (policy?.mode === 'large') {
    const files = new Set(plan.tasks.flatMap((t) => (t.path ? [t.path] : [])));
    const symbols = new Set(plan.tasks.flatMap((t) => t.symbols ?? []));
    if (plan.tasks.length > policy.maxTasks)
      reasons.push(`${plan.tasks.length} tasks, more than ${policy.maxTasks} (${source('maxTasks')})`);
    if (files.size > policy.maxFiles)
      reasons.push(`${files.size} files, more than ${policy.maxFiles} (${source('maxFiles')})`);
    if (symbols.size > policy.maxSymbols)
      reasons.push(`${symbols.size} symbols, more than ${policy.maxSymbols} (${source('maxSymbols')})`);
    if (policy.maxChangedLines > 0 && lines !== undefined && lines > policy.maxChangedLines)
      reasons.push(
        `about ${lines} changed lines by the planner's estimate, more than ${policy.maxChangedLines} (${source('maxChangedLines')})`,
      );
    const kinds = [...new Set(plan.tasks.map((t) => kindName(t.kind)))].filter((k) =>
      policy.kinds.includes(k as KindName),
    );
    if (kinds.length) reasons.push(`task kinds ${kinds.join(', ')} (${source('kinds')})`);
    const matched = policy.paths.length
      ? [...files].filter((f) => picomatch.isMatch(f, policy.paths, { dot: true })).sort()
      : [];
    if (policy.maxCostUsd > 0 && estimate && estimate.usd > policy.maxCostUsd)
      reasons.push(
        `an estimated $${estimate.usd.toFixed(2)}, more than $${policy.maxCostUsd} (${source('maxCostUsd')})`,
      );
    if (matched.length)
      reasons.push(
        `paths ${matched.slice(0, 5).join(', ')}${matched.length > 5 ? ` and ${matched.length - 5} more` : ''} (${source('paths')})`,
      );
  }
  if (!reasons.length) return undefined;
  // The person deciding sees what the plan may cost and change, whatever made it wait.
  const sizes = [
    ...(estimate ? [`$${estimate.usd.toFixed(2)}: ${estimate.basis}`] : []),
    ...(lines !== undefined ? [`about ${lines} changed lines by the planner's estimate`] : []),
  ];
  return `${reasons.join('; ')}${sizes.length ? ` (estimate: ${sizes.join('; ')})` : ''}`;
}

/** A plan edit that cannot be applied to the waiting plan, with what is wrong (the API answers 400). */
export function planEditProblem(
  taskIds: readonly string[],
  edit: { removeTasks?: string[]; goals?: Record<string, string>; parallelism?: number },
): string | undefined {
  const known = new Set(taskIds);
  const unknownIds = [...(edit.removeTasks ?? []), ...Object.keys(edit.goals ?? {})].filter((id) => !known.has(id));
  if (unknownIds.length) return `no task ${[...new Set(unknownIds)].join(', ')} in this plan`;
  const removed = new Set(edit.removeTasks ?? []);
  if (removed.size >= known.size) return 'an approved plan keeps at least one task (reject the plan instead)';
  const reworded = Object.entries(edit.goals ?? {}).filter(([id]) => removed.has(id));
  if (reworded.length) return `task ${reworded[0][0]} is both removed and reworded`;
  const empty = Object.entries(edit.goals ?? {}).find(([, goal]) => !goal.trim());
  if (empty) return `the goal of task ${empty[0]} is empty`;
  if (edit.parallelism !== undefined && (!Number.isInteger(edit.parallelism) || edit.parallelism < 1))
    return 'parallelism: a whole number from 1';
  return undefined;
}
