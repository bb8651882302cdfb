import { migrate, type SqlStore } from '@farm/store';

/** The access tables: tokens (hashes only) and the audit of what principals did. */
export const ACCESS_MIGRATIONS = [
  {
    name: 'access-001-tokens-and-audit',
    sql: `
      CREATE TABLE IF NOT EXISTS farm_access_tokens (
        id text PRIMARY KEY,
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        scopes text[] NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz,
        revoked_by text
      );
      -- A name is reused only once its token is revoked.
      CREATE UNIQUE INDEX IF NOT EXISTS farm_access_tokens_live_name
        ON farm_access_tokens (name) WHERE revoked_at IS NULL;
      CREATE TABLE IF NOT EXISTS farm_audit_events (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        subject text NOT NULL,
        action text NOT NULL,
        change_request_id text,
        detail jsonb NOT NULL DEFAULT '{}'::jsonb
      );
      CREATE INDEX IF NOT EXISTS farm_audit_events_request ON farm_audit_events (change_request_id, id);
      CREATE INDEX IF NOT EXISTS farm_audit_events_subject ON farm_audit_events (subject, id);
    `,
  },
  {
    name: 'access-002-token-expiry',
    sql: `ALTER TABLE farm_access_tokens ADD COLUMN IF NOT EXISTS expires_at timestamptz;`,
  },
];

export const migrateAccess = (store: SqlStore) => migrate(store, ACCESS_MIGRATIONS);
