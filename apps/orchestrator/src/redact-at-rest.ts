import { farm } from '@farm/proto';
import { environmentRedactor, redactMessage, type Redactor } from '@farm/runtime';
import type { Migration, SqlExecutor } from '@farm/store';
import { redactStepLine } from './task-steps';

/**
 * Rows written before every credential was redacted where its text is made (a `--repo` URL's user info in a
 * task's steps and reports, from farms of earlier versions) are redacted once, at rest: until then they were
 * redacted only as they were served, so a copy of the database, a backup or a query of its tables still held
 * them. By value (the credentials this process holds) and by shape (URL user info, Authorization values, known
 * token formats), as the agents redact now.
 */
export const redactAtRestMigrations: Migration[] = [
  {
    name: 'orchestrator-014-redact-at-rest',
    sql: '',
    data: async (tx) => {
      await redactStoredRows(tx, environmentRedactor());
    },
  },
];

const PAGE = 500;

/** How many rows each table had rewritten. */
export interface RedactedRows {
  steps: number;
  taskReports: number;
  buildReports: number;
}

/** Rewrites every stored step and report that holds something `redact` removes; the others are left as they are. */
export async function redactStoredRows(db: SqlExecutor, redact: Redactor): Promise<RedactedRows> {
  const counts: RedactedRows = { steps: 0, taskReports: 0, buildReports: 0 };
  for (let after = 0; ;) {
    const { rows } = await db.query<{ id: string; line: string }>(
      'SELECT id, line FROM task_steps WHERE id > $1 ORDER BY id LIMIT $2',
      [after, PAGE],
    );
    for (const row of rows) {
      if (redact(row.line) === row.line) continue;
      await db.query('UPDATE task_steps SET line = $2 WHERE id = $1', [row.id, redactStepLine(row.line, redact)]);
      counts.steps++;
    }
    if (rows.length < PAGE) break;
    after = Number(rows[rows.length - 1].id);
  }
  for (let after = { task: '', dispatch: -1 }; ;) {
    const { rows } = await db.query<{ task_id: string; dispatch: number; result: Uint8Array }>(
      `SELECT task_id, dispatch, result FROM task_reports WHERE (task_id, dispatch) > ($1, $2)
       ORDER BY task_id, dispatch LIMIT $3`,
      [after.task, after.dispatch, PAGE],
    );
    for (const row of rows) {
      const clean = redactedBytes(farm.v1.CommitResult, row.result, redact);
      if (!clean) continue;
      await db.query('UPDATE task_reports SET result = $3 WHERE task_id = $1 AND dispatch = $2', [
        row.task_id,
        row.dispatch,
        clean,
      ]);
      counts.taskReports++;
    }
    if (rows.length < PAGE) break;
    const last = rows[rows.length - 1];
    after = { task: last.task_id, dispatch: last.dispatch };
  }
  for (let after = 0; ;) {
    const { rows } = await db.query<{ id: string; result: Uint8Array }>(
      'SELECT id, result FROM build_reports WHERE id > $1 ORDER BY id LIMIT $2',
      [after, PAGE],
    );
    for (const row of rows) {
      const clean = redactedBytes(farm.v1.BuildResult, row.result, redact);
      if (!clean) continue;
      await db.query('UPDATE build_reports SET result = $2 WHERE id = $1', [row.id, clean]);
      counts.buildReports++;
    }
    if (rows.length < PAGE) break;
    after = Number(rows[rows.length - 1].id);
  }
  return counts;
}

interface MessageCodec<T> {
  decode(bytes: Uint8Array): T;
  encode(message: T): { finish(): Uint8Array };
  fromObject(object: { [k: string]: unknown }): T;
  toObject(message: T): { [k: string]: unknown };
}

/** The message's bytes with its strings redacted, or undefined when nothing in it was a secret. */
function redactedBytes<T>(type: MessageCodec<T>, bytes: Uint8Array, redact: Redactor): Uint8Array | undefined {
  const message = type.decode(bytes);
  const before = JSON.stringify(type.toObject(message));
  const clean = redactMessage(type, message as object, redact);
  if (JSON.stringify(type.toObject(clean)) === before) return undefined;
  return type.encode(clean).finish();
}
