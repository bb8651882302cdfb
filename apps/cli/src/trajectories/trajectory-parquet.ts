/** Trajectory rows as one Parquet file (hyparquet-writer: plain JavaScript, no native code), typed per column. */
import { writeFile } from 'node:fs/promises';
import type { TrajectoryRow } from './trajectory-rows';

type ColumnType = 'STRING' | 'INT32' | 'DOUBLE' | 'BOOLEAN';

/** Every column of the schema with its Parquet type, in the schema's order. */
export const PARQUET_COLUMNS: Record<keyof TrajectoryRow, ColumnType> = {
  schema: 'STRING',
  change_request_id: 'STRING',
  request_title: 'STRING',
  repo: 'STRING',
  base_commit: 'STRING',
  task_id: 'STRING',
  goal: 'STRING',
  kind: 'STRING',
  dispatch: 'INT32',
  status: 'STRING',
  model: 'STRING',
  strategy: 'STRING',
  seq: 'INT32',
  ts: 'STRING',
  event: 'STRING',
  step: 'INT32',
  prompt: 'STRING',
  model_output: 'STRING',
  tool: 'STRING',
  tool_arguments: 'STRING',
  tool_ok: 'BOOLEAN',
  tool_output_chars: 'INT32',
  reward: 'DOUBLE',
  verification: 'STRING',
  cost_usd: 'DOUBLE',
  tokens_total: 'INT32',
  payload: 'STRING',
};

export async function parquetBytes(rows: TrajectoryRow[]): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const columnData = (Object.keys(PARQUET_COLUMNS) as (keyof TrajectoryRow)[]).map((name) => ({
    name,
    data: rows.map((r) => r[name]),
    type: PARQUET_COLUMNS[name],
  }));
  return new Uint8Array(parquetWriteBuffer({ columnData }));
}

export async function writeParquetRows(rows: TrajectoryRow[], file: string): Promise<void> {
  await writeFile(file, await parquetBytes(rows));
}
