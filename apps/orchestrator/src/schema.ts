import { forgeMigrations } from './forge/forge-store';
import { requestListMigrations } from './request-list';
import { taskAccountingMigrations } from './task-accounting';
import { taskReportMigrations } from './task-reports';
import { taskStepMigrations } from './task-steps';
import { buildReportMigrations } from './build-reports';
import { resubmissionMigrations } from './task-resubmission';
import { requestDecisionMigrations } from './request-decisions';
import { redactAtRestMigrations } from './redact-at-rest';
import type { Migration } from '@farm/store';

export const orchestratorMigrations: Migration[] = [
  {
    name: 'orchestrator-001-state',
    sql: `
CREATE TABLE change_requests (
  id text PRIMARY KEY,
  phase text NOT NULL,
  seq bigint NOT NULL DEFAULT 0,
  repo_url text NOT NULL,
  base_ref text NOT NULL,
  base_commit text NOT NULL DEFAULT '',
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  check_command text NOT NULL DEFAULT '',
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE tasks (
  id text PRIMARY KEY,
  change_request_id text NOT NULL REFERENCES change_requests(id),
  goal text NOT NULL,
  status text NOT NULL,
  task_b64 text NOT NULL,
  branch text NOT NULL DEFAULT '',
  commit_sha text NOT NULL DEFAULT '',
  notes text NOT NULL DEFAULT '',
  attempts int NOT NULL DEFAULT 0,
  dispatched_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX tasks_by_request ON tasks (change_request_id);
-- A message is applied once: its id is recorded in the transaction that applies it.
CREATE TABLE processed_messages (
  consumer text NOT NULL,
  message_id text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, message_id)
);
-- Events are written with the state change and published after commit, so none is lost on a crash.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  topic text NOT NULL,
  msg_key text NOT NULL,
  payload_b64 text NOT NULL,
  published_at timestamptz
);
CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL;
`,
  },
];

orchestratorMigrations.push({
  name: 'orchestrator-002-scheduling',
  sql: `
ALTER TABLE tasks ADD COLUMN depends_on text NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN dispatch int NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN deadline_at timestamptz;
ALTER TABLE change_requests ADD COLUMN integration_branch text NOT NULL DEFAULT '';
`,
});

orchestratorMigrations.push({
  name: 'orchestrator-003-http-api',
  sql: `
ALTER TABLE tasks ADD COLUMN prompt_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN completion_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN total_tokens bigint NOT NULL DEFAULT 0;
-- What the HTTP API accepted: the digest makes a repeated submission idempotent and a conflicting one a 409;
-- the summary columns answer for a request the orchestrator has not consumed yet.
CREATE TABLE api_submissions (
  id text PRIMARY KEY,
  digest text NOT NULL,
  title text NOT NULL,
  repo_url text NOT NULL,
  base_ref text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The event stream of one request reads its phase transitions back from the outbox.
CREATE INDEX outbox_by_key ON outbox (msg_key, id);
`,
});

// Task costs (the request cost cap) and the lessons table.
orchestratorMigrations.push(...taskAccountingMigrations);

// The sweep prunes sent outbox rows and applied-message ids by age.
orchestratorMigrations.push({
  name: 'orchestrator-004-retention',
  sql: `
CREATE INDEX outbox_sent_by_age ON outbox (published_at) WHERE published_at IS NOT NULL;
CREATE INDEX processed_messages_by_age ON processed_messages (processed_at);
`,
});

// Tasks and events are kept as their protobuf bytes (they were base64 text); existing rows are converted.
orchestratorMigrations.push({
  name: 'orchestrator-005-bytes',
  sql: `
ALTER TABLE tasks RENAME COLUMN task_b64 TO task;
ALTER TABLE tasks ALTER COLUMN task TYPE bytea USING decode(task, 'base64');
ALTER TABLE outbox RENAME COLUMN payload_b64 TO payload;
ALTER TABLE outbox ALTER COLUMN payload TYPE bytea USING decode(payload, 'base64');
`,
});

// What the agents reported per dispatch (trajectory, diff) and which failed task a request resubmits.
orchestratorMigrations.push(...taskReportMigrations, ...resubmissionMigrations);

// What verified a task's change (the agent's CommitResult.verification), as JSON for the API.
orchestratorMigrations.push({
  name: 'orchestrator-008-verification',
  sql: `ALTER TABLE tasks ADD COLUMN verification jsonb;`,
});

// The list of requests pages through the whole history by age (GET /v1/change-requests).
orchestratorMigrations.push(...requestListMigrations);

// The forge bridge: webhook deliveries (replays refused) and each request's link to its issue or pull request.
orchestratorMigrations.push(...forgeMigrations);

// The approval gate: the submitter's ask, and the parallelism an approver set for the request.
orchestratorMigrations.push({
  name: 'orchestrator-009-approval',
  sql: `ALTER TABLE change_requests ADD COLUMN require_approval boolean NOT NULL DEFAULT false;
ALTER TABLE change_requests ADD COLUMN parallelism integer NOT NULL DEFAULT 0;`,
});

// A running task's steps as its agent publishes them, for following it live (task-steps.ts).
orchestratorMigrations.push(...taskStepMigrations);

// What each build reported, with the diff of the integration branch (build-reports.ts).
orchestratorMigrations.push(...buildReportMigrations);

// Each request's last decision by a person (approve, reject, cancel), so that each is taken once (request-decisions.ts).
orchestratorMigrations.push(...requestDecisionMigrations);

// Rows of earlier versions holding a credential, redacted at rest (redact-at-rest.ts).
orchestratorMigrations.push(...redactAtRestMigrations);

// What a request's planning cost (the planner model's calls), counted into its totals and its spend.
orchestratorMigrations.push({
  name: 'orchestrator-015-planning-usage',
  sql: `ALTER TABLE change_requests ADD COLUMN planning_calls integer NOT NULL DEFAULT 0;
ALTER TABLE change_requests ADD COLUMN planning_prompt_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE change_requests ADD COLUMN planning_completion_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE change_requests ADD COLUMN planning_total_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE change_requests ADD COLUMN planning_cost_usd double precision NOT NULL DEFAULT 0;
ALTER TABLE change_requests ADD COLUMN planning_model text NOT NULL DEFAULT '';
ALTER TABLE change_requests ADD COLUMN planning_priced boolean NOT NULL DEFAULT true;`,
});
