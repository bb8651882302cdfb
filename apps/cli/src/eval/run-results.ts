/**
 * A run's directory: its settings, the result of each instance as it finishes (appended, one JSON line, so an
 * interrupted run keeps what it did), and the outputs made from them. Re-running the same run id skips the
 * instances with a final result; a line cut short by a crash is ignored, never fatal.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FarmError } from '@farm/runtime';
import type { InstanceResult } from './instance-result';

export interface RunLayout {
  dir: string;
  settings: string;
  results: string;
  predictions: string;
  report: string;
  html: string;
  /** The embedded farm's state (kept: a resumed run re-attaches to the requests it had submitted). */
  farmState: string;
  /** Local copies of the instances' repositories, served to the farm. */
  repos: string;
  /** Scratch checkouts for set-up checks and scoring. */
  scratch: string;
  /** Each instance's kept test output (`logs/<instance_id>/`): what its verdict was graded from. */
  logs: string;
  /** The agents' full trajectory files (FARM_TRAJECTORY_DIR), for `farm trajectories export --run`. */
  trajectories: string;
}

export function runLayout(evalDir: string, runId: string): RunLayout {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(runId)) {
    throw new FarmError(`run id ${JSON.stringify(runId)}: use letters, digits, '.', '_' and '-'`, { retryable: false });
  }
  const dir = path.resolve(evalDir, runId);
  return {
    dir,
    settings: path.join(dir, 'run.json'),
    results: path.join(dir, 'results.jsonl'),
    predictions: path.join(dir, 'predictions.jsonl'),
    report: path.join(dir, 'report.json'),
    html: path.join(dir, 'report.html'),
    farmState: path.join(dir, 'farm'),
    repos: path.join(dir, 'repos'),
    scratch: path.join(dir, 'scratch'),
    logs: path.join(dir, 'logs'),
    trajectories: path.join(dir, 'trajectories'),
  };
}

/** A run's directory given as a path, or as a run id under `evalDir`. */
export function resolveRunDir(evalDir: string, nameOrDir: string): string {
  return nameOrDir.includes(path.sep) || nameOrDir.startsWith('.')
    ? path.resolve(nameOrDir)
    : runLayout(evalDir, nameOrDir).dir;
}

export async function appendResult(layout: RunLayout, result: InstanceResult): Promise<void> {
  await mkdir(layout.dir, { recursive: true });
  await appendFile(layout.results, JSON.stringify(result) + '\n');
}

/** The latest result of each instance in a results file (a later line replaces an earlier one). */
export function latestResults(text: string): Map<string, InstanceResult> {
  const out = new Map<string, InstanceResult>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as InstanceResult;
      if (r && typeof r.instance_id === 'string' && typeof r.status === 'string') out.set(r.instance_id, r);
    } catch {
      // a line cut short by a crash mid-write: its instance runs again
    }
  }
  return out;
}

export async function readResults(resultsFile: string): Promise<Map<string, InstanceResult>> {
  try {
    return latestResults(await readFile(resultsFile, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
}

export interface RunSettings {
  runId: string;
  dataset: string;
  modelName: string;
  startedAt: string;
}

/** The first start of a run fixes its dataset and model name; a resume with other ones is refused. */
export async function settleRunSettings(layout: RunLayout, wanted: RunSettings): Promise<RunSettings> {
  await mkdir(layout.dir, { recursive: true });
  let existing: RunSettings | undefined;
  try {
    existing = JSON.parse(await readFile(layout.settings, 'utf8')) as RunSettings;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (!existing) {
    await writeFile(layout.settings, JSON.stringify(wanted, null, 2) + '\n');
    return wanted;
  }
  for (const key of ['dataset', 'modelName'] as const) {
    if (existing[key] !== wanted[key]) {
      throw new FarmError(
        `run ${wanted.runId} was started with ${key} ${existing[key]}, not ${wanted[key]}: use another --run-id`,
        { retryable: false },
      );
    }
  }
  return existing;
}
