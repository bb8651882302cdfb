export const srmMigrations = [
  {
    name: 'srm-001-leases',
    sql: `
-- Fencing tokens come from one sequence, so a later grant always carries a larger token than any earlier one.
CREATE SEQUENCE srm_fencing_tokens;
CREATE TABLE srm_leases (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  repo text NOT NULL,
  symbol text NOT NULL,
  holder text NOT NULL,
  change_request_id text NOT NULL,
  fencing_token bigint NOT NULL UNIQUE DEFAULT nextval('srm_fencing_tokens'),
  state text NOT NULL CHECK (state IN ('ACTIVE', 'CLAIMED', 'RELEASED', 'EXPIRED')),
  expires_at timestamptz NOT NULL,
  commit_sha text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The invariant itself: at most one lease that blocks a (repo, symbol). An index predicate cannot use now(),
-- so an ACTIVE row past its expiry still occupies the slot until a reserve marks it EXPIRED (in the same
-- transaction that inserts the new lease).
CREATE UNIQUE INDEX srm_leases_one_live ON srm_leases (repo, symbol) WHERE state IN ('ACTIVE', 'CLAIMED');
CREATE INDEX srm_leases_live_by_holder ON srm_leases (holder) WHERE state IN ('ACTIVE', 'CLAIMED');
CREATE INDEX srm_leases_live_by_request ON srm_leases (change_request_id) WHERE state IN ('ACTIVE', 'CLAIMED');
`,
  },
  {
    name: 'srm-002-task-commits',
    sql: `
-- The commits the farm's agents made, recorded before each push: what tells a task's own commit on agt/<task> from
-- one someone else pushed with the same trailers. One row per pushed attempt; a few per task.
CREATE TABLE srm_task_commits (
  task_id text NOT NULL,
  commit_sha text NOT NULL,
  change_request_id text NOT NULL,
  dispatch integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, commit_sha)
);
`,
  },
];
