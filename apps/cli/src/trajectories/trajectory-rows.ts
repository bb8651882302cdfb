/**
 * The farm's trajectories as a dataset: one row per trajectory event of each dispatch of each task, with the
 * task, the request and the model on every row, so that a row can be used on its own (for training or
 * analysis) and a table of rows loads into any dataframe. The schema is `farm.trajectory-row.v1`, documented in
 * docs/evaluation.md; secrets are redacted from every text field (secret-redaction.ts in @farm/runtime).
 */
import type { DispatchReport, RequestSummary, TaskSummary } from '@farm/orchestrator';
import { redactStrings, type Redactor } from '@farm/runtime';

export const TRAJECTORY_ROW_SCHEMA = 'farm.trajectory-row.v1';

export interface TrajectoryRow {
  schema: string;
  change_request_id: string;
  request_title: string;
  repo: string;
  base_commit: string;
  task_id: string;
  goal: string;
  kind: string;
  dispatch: number;
  /** The dispatch's outcome: SUCCESS, SOFT_FAIL, HARD_FAIL. */
  status: string;
  model: string;
  /** tools or diff (from the trajectory's `checks` event), empty when not said. */
  strategy: string;
  /** Index of the event in its dispatch's trajectory. */
  seq: number;
  ts: string;
  event: string;
  /** The model call the event belongs to (step, tool), or -1. */
  step: number;
  /** `prompt` events: the messages, as JSON. */
  prompt: string;
  /** What the model answered: a diff (`answer`), the tools it called (`step`), a verdict (`review`), as JSON. */
  model_output: string;
  /** `tool` events: the tool, its arguments as JSON, whether it succeeded, how long its output was. */
  tool: string;
  tool_arguments: string;
  tool_ok: boolean | null;
  tool_output_chars: number;
  /** `reward` events: 1 when the checks passed on that tree, else 0; -1 elsewhere. */
  reward: number;
  /** The task's verification as the farm reported it (JSON), on every row of its last dispatch. */
  verification: string;
  cost_usd: number;
  tokens_total: number;
  /** The whole event as the agent wrote it (JSON), for what the columns above leave out. */
  payload: string;
}

const json = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));

export function trajectoryRows(
  request: Pick<RequestSummary, 'id' | 'title' | 'repoUrl' | 'repoPath' | 'baseCommit'>,
  task: Pick<TaskSummary, 'id' | 'goal' | 'kind' | 'dispatch' | 'verification'>,
  reports: Pick<DispatchReport, 'dispatch' | 'status' | 'model' | 'events' | 'costUsd' | 'tokens'>[],
  redact: Redactor,
): TrajectoryRow[] {
  const rows: TrajectoryRow[] = [];
  for (const report of reports) {
    const strategy = report.events.find((e) => e.event === 'checks')?.strategy;
    report.events.forEach((e, seq) => {
      const event = String(e.event ?? '');
      const modelOutput =
        event === 'answer'
          ? e.diff
          : event === 'step'
            ? e.toolCalls
            : event === 'review'
              ? { approved: e.approved, objections: e.objections }
              : undefined;
      const row: TrajectoryRow = {
        schema: TRAJECTORY_ROW_SCHEMA,
        change_request_id: request.id,
        request_title: request.title,
        repo: request.repoPath || request.repoUrl,
        base_commit: request.baseCommit,
        task_id: task.id,
        goal: task.goal,
        kind: task.kind ?? '',
        dispatch: report.dispatch,
        status: report.status,
        model: report.model,
        strategy: typeof strategy === 'string' ? strategy : '',
        seq,
        ts: String(e.ts ?? ''),
        event,
        step: typeof e.step === 'number' ? e.step : -1,
        prompt: event === 'prompt' ? json(e.messages ?? e.prompt ?? e) : '',
        model_output: typeof modelOutput === 'string' ? modelOutput : json(modelOutput),
        tool: event === 'tool' ? String(e.tool ?? '') : '',
        tool_arguments: event === 'tool' ? json(e.arguments) : '',
        tool_ok: event === 'tool' && typeof e.ok === 'boolean' ? e.ok : null,
        tool_output_chars: event === 'tool' && typeof e.outputChars === 'number' ? e.outputChars : 0,
        reward: event === 'reward' && typeof e.reward === 'number' ? e.reward : -1,
        verification: report.dispatch === task.dispatch ? json(task.verification) : '',
        cost_usd: report.costUsd,
        tokens_total: report.tokens.total,
        payload: JSON.stringify(e),
      };
      // Every text column, whichever source the row came from (a trajectory file, the database, the API).
      rows.push(redactStrings(row, redact));
    });
  }
  return rows;
}
