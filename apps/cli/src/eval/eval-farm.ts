/**
 * The farm an evaluation runs on, behind one small interface: the embedded farm (`farm up` in this process,
 * its state in the run's directory, so a resumed run re-attaches to the requests it submitted) or a running
 * farm at FARM_URL (its HTTP API; a cluster's orchestrator, or a `farm up` on this machine).
 */
import type { DispatchReport, RequestSummary, TaskSummary } from '@farm/orchestrator';
import { FarmError, type Logger } from '@farm/runtime';
import type { ChangeRequestClient } from '@farm/farm-api';
import type { SubmitInput } from '../submit';
import type { RunLayout } from './run-results';

export interface FarmRequestState {
  request: Pick<RequestSummary, 'phase' | 'reason' | 'integrationBranch' | 'costUsd' | 'tokens'>;
  tasks: Pick<
    TaskSummary,
    'id' | 'status' | 'dispatch' | 'attempts' | 'costUsd' | 'tokens' | 'verification' | 'notes'
  >[];
}

export type TaskReport = Pick<
  DispatchReport,
  'steps' | 'attempts' | 'costUsd' | 'tokens' | 'events' | 'status' | 'failedStep' | 'notes'
>;

export interface EvalFarm {
  /**
   * Whether the farm runs on this machine, where it serves a repository given by its path (and fetches its
   * branches back into it); a farm elsewhere clones the instance's repository URL and pushes its branches there.
   */
  readonly onThisMachine: boolean;
  /** Publishes the request; the same id again changes nothing. */
  submit(input: SubmitInput & { id: string }): Promise<void>;
  /** The request as the farm keeps it, or undefined when the farm has never seen it. */
  request(id: string): Promise<FarmRequestState | undefined>;
  /** What each dispatch of a task reported (steps, tokens, trajectory lines). */
  reports(id: string, taskId: string): Promise<TaskReport[]>;
  /**
   * Resolves once the request's branch is in `repoDir`: fetched back there by a farm on this machine, fetched
   * from `url` (where a remote farm pushed it) otherwise.
   */
  branchesBack(id: string, repoDir: string, branch: string, url: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The embedded farm's settings for a run: `base` (the user's, the model's) with its state, work and trajectory
 * directories in the run's. A change no test of its own verifies is delivered, marked, unless the user set
 * FARM_UNVERIFIED_CHANGES: the instance's tests judge it, and the report counts the farm's verdict.
 */
export function embeddedFarmEnv(base: NodeJS.ProcessEnv, layout: RunLayout): NodeJS.ProcessEnv {
  return {
    FARM_UNVERIFIED_CHANGES: 'deliver',
    ...base,
    FARM_STATE_DIR: layout.farmState,
    FARM_WORK_DIR: `${layout.dir}/work`,
    FARM_TRAJECTORY_DIR: layout.trajectories,
  };
}

/** The embedded farm, as `farm up` starts it, on `env` (its FARM_STATE_DIR is the run's). */
export async function embeddedFarm(env: NodeJS.ProcessEnv, log: Logger): Promise<EvalFarm> {
  const [{ startFarmUp, submitToFarm }, { getRequest, taskReports }] = await Promise.all([
    import('../farm-up'),
    import('@farm/orchestrator'),
  ]);
  const app = await startFarmUp(env, log, { announce: false });
  return {
    onThisMachine: true,
    submit: async (input) => void (await submitToFarm(app, input)),
    request: (id) => getRequest(app.store, id),
    reports: (id, taskId) => taskReports(app.store, id, taskId),
    branchesBack: (id) => app.localRepos.whenSynced(id, 120_000),
    stop: () => app.stop(),
  };
}

/** A running farm's HTTP API (FARM_URL, FARM_TOKEN). */
export function remoteFarm(api: ChangeRequestClient, baseUrl: string, token: string | undefined): EvalFarm {
  const onThisMachine = ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(baseUrl).hostname);
  return {
    onThisMachine,
    submit: async (input) => {
      const { changeRequestJson } = await import('../repo-arg');
      await api.submit(changeRequestJson(input));
    },
    request: async (id) => {
      try {
        const found = await api.get(id);
        return { request: found.request, tasks: found.tasks as FarmRequestState['tasks'] };
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
    },
    reports: async (id, taskId) => {
      const url = `${baseUrl.replace(/\/+$/, '')}/v1/change-requests/${encodeURIComponent(id)}/tasks/${encodeURIComponent(taskId)}/trajectory`;
      const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new FarmError(`${url}: HTTP ${res.status}`, { retryable: res.status >= 500 });
      return ((await res.json()) as { dispatches: TaskReport[] }).dispatches;
    },
    // A farm on this machine fetches the branches back into the repository when the request ends; a remote one
    // pushed them to the repository's URL.
    branchesBack: async (id, repoDir, branch, url) => {
      const { execFile } = await import('node:child_process');
      if (!onThisMachine) {
        await new Promise<void>((resolve, reject) =>
          execFile(
            'git',
            ['-C', repoDir, 'fetch', '-q', '--', url, `+refs/heads/${branch}:refs/heads/${branch}`],
            (err) =>
              err
                ? reject(
                    new FarmError(`cannot fetch ${branch} of ${id} from ${url}: ${err.message}`, { retryable: true }),
                  )
                : resolve(),
          ),
        );
        return;
      }
      const deadline = Date.now() + 120_000;
      for (;;) {
        const found = await new Promise<boolean>((resolve) =>
          execFile('git', ['-C', repoDir, 'rev-parse', '--verify', '-q', `refs/heads/${branch}`], (err) =>
            resolve(!err),
          ),
        );
        if (found) return;
        if (Date.now() > deadline)
          throw new FarmError(`branch ${branch} of ${id} not in ${repoDir} within 120 s`, { retryable: true });
        await new Promise((r) => setTimeout(r, 500));
      }
    },
    stop: async () => undefined,
  };
}
