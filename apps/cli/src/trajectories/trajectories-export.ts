/**
 * `farm trajectories export`: the trajectories a farm keeps (the report of every dispatch of every task, in its
 * database, or over its HTTP API when it runs elsewhere), or those of an evaluation run, written as JSON Lines or Parquet rows of one schema
 * (trajectory-rows.ts). Where the agents also wrote their full trajectory files (FARM_TRAJECTORY_DIR, which
 * `farm eval` sets), those are read instead: they hold the prompts the stored reports leave out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getRequest, listRequests, taskReports, type DispatchReport } from '@farm/orchestrator';
import type { ChangeRequestClient } from '@farm/farm-api';
import {
  FarmError,
  environmentRedactor,
  secretsOfCredentialsFiles,
  stateLayout,
  type Logger,
  type Redactor,
} from '@farm/runtime';
import { openStore } from '@farm/store';
import { StateDirLocked, lockStateDir } from '../state-dir-lock';
import { trajectoryRows, type TrajectoryRow } from './trajectory-rows';

export interface ExportOptions {
  /** A farm up state directory (its PGlite database), or undefined with databaseUrl. */
  stateDir?: string;
  databaseUrl?: string;
  trajectoryDir?: string;
  /** Only requests on this repository (its URL or local path contains it). */
  repo?: string;
  /** Only requests created at or after this time. */
  since?: Date;
  /** The most recent requests looked at. */
  limit: number;
  log: Logger;
}

export async function collectTrajectoryRows(o: ExportOptions): Promise<TrajectoryRow[]> {
  if (!o.databaseUrl && o.stateDir && !existsSync(stateLayout(o.stateDir).database)) {
    throw new FarmError(`no farm database in ${o.stateDir}`, { retryable: false });
  }
  // An embedded database has one user at a time: a farm (or eval run) still running on it is named, never raced.
  const unlock = o.databaseUrl || !o.stateDir ? () => undefined : lockedForExport(o.stateDir);
  const store = await openStore(o.databaseUrl, o.stateDir ? stateLayout(o.stateDir).database : undefined, o.log).catch(
    (err: unknown) => {
      unlock();
      throw err;
    },
  );
  const redact = exportRedactor(o.stateDir);
  try {
    const rows: TrajectoryRow[] = [];
    for (const summary of await listRequests(store, o.limit)) {
      if (o.repo && !`${summary.repoUrl} ${summary.repoPath ?? ''}`.includes(o.repo)) continue;
      if (o.since && new Date(summary.createdAt) < o.since) continue;
      const found = await getRequest(store, summary.id);
      if (!found) continue;
      for (const task of found.tasks) {
        const reports = await taskReports(store, summary.id, task.id);
        for (const report of reports) {
          const full = o.trajectoryDir
            ? await readTrajectoryFile(o.trajectoryDir, task.id, report.dispatch)
            : undefined;
          if (full) report.events = full;
        }
        rows.push(...trajectoryRows(found.request, task, reports, redact));
      }
    }
    return rows;
  } finally {
    await store.close();
    unlock();
  }
}

/** The same rows from a running farm's HTTP API (FARM_URL): its requests, their tasks, each task's trajectory. */
export async function collectTrajectoryRowsOverApi(
  api: Pick<ChangeRequestClient, 'list' | 'get'>,
  trajectory: (id: string, taskId: string) => Promise<DispatchReport[]>,
  o: Pick<ExportOptions, 'repo' | 'since' | 'limit' | 'stateDir'>,
): Promise<TrajectoryRow[]> {
  const redact = exportRedactor(o.stateDir);
  const rows: TrajectoryRow[] = [];
  // the API lists at most 500 requests, the most recent first
  for (const summary of await api.list(Math.min(o.limit, 500))) {
    if (o.repo && !`${summary.repoUrl} ${summary.repoPath ?? ''}`.includes(o.repo)) continue;
    if (o.since && new Date(summary.createdAt) < o.since) continue;
    const found = await api.get(summary.id);
    for (const task of found.tasks) {
      rows.push(...trajectoryRows(found.request, task, await trajectory(summary.id, task.id), redact));
    }
  }
  return rows;
}

/**
 * What an export redacts: by value, every secret of this shell and, given a `farm up` state directory, the
 * farm's own (the credentials its intake took off `--repo` URLs, its admin and component tokens); by shape,
 * every credential written in a URL or a header, so rows are clean whichever shell exports them.
 */
export function exportRedactor(stateDir: string | undefined, env: NodeJS.ProcessEnv = process.env): Redactor {
  if (!stateDir) return environmentRedactor(env);
  const layout = stateLayout(stateDir);
  const tokenOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined);
  return environmentRedactor(env, [
    ...secretsOfCredentialsFiles([layout.credentials]),
    tokenOf(layout.adminToken),
    tokenOf(layout.componentToken),
  ]);
}

/** A task's dispatches as the API's trajectory route gives them. */
export function trajectoryOverHttp(baseUrl: string, token: string | undefined) {
  return async (id: string, taskId: string): Promise<DispatchReport[]> => {
    const url = `${baseUrl.replace(/\/+$/, '')}/v1/change-requests/${encodeURIComponent(id)}/tasks/${encodeURIComponent(taskId)}/trajectory`;
    const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!res.ok) throw new FarmError(`${url}: HTTP ${res.status}`, { retryable: res.status >= 500 });
    return ((await res.json()) as { dispatches: DispatchReport[] }).dispatches;
  };
}

function lockedForExport(stateDir: string): () => void {
  try {
    return lockStateDir(stateDir);
  } catch (err) {
    if (!(err instanceof StateDirLocked)) throw err;
    throw new FarmError(
      `the farm's database in ${stateDir} is in use by pid ${err.holder.pid} (a farm up or a farm eval run): ` +
        'export once it has stopped',
      { retryable: true, cause: err },
    );
  }
}

async function readTrajectoryFile(dir: string, taskId: string, dispatch: number) {
  const file = path.join(dir, `${taskId.replace(/[^A-Za-z0-9._-]/g, '_')}.${dispatch || 1}.jsonl`);
  if (!existsSync(file)) return undefined;
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return []; // a line cut short by a killed agent
      }
    });
}

export async function writeRows(rows: TrajectoryRow[], file: string, format: 'jsonl' | 'parquet'): Promise<void> {
  if (format === 'jsonl') {
    await writeFile(file, rows.map((r) => JSON.stringify(r) + '\n').join(''));
    return;
  }
  const { writeParquetRows } = await import('./trajectory-parquet');
  await writeParquetRows(rows, file);
}
