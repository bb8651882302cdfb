// Test harness: a farm on the given bus and store with the git smart-HTTP server, the scripted model (for the
// planner and the agents), the srm over HTTP and an agent process per task — what a user runs, minus Kafka set-up.
// Another launcher (a Kubernetes Job per task) can be given; it gets the environment the agents need.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type farm } from '@farm/proto';
import { Topics, type EventBus, type Subscription } from '@farm/bus';
import { seedBareRepo, startGitHttpServer, type GitHttpServer } from '@farm/git';
import { createJsonModel } from '@farm/llm';
import {
  Orchestrator,
  type ChildProcessLauncher,
  type OrchestratorOptions,
  type TaskLauncher,
} from '@farm/orchestrator';
import { createLogger, silentLogger } from '@farm/runtime';
import { startScriptedModelServer, type ModelScript, type ScriptedModelServer } from '@farm/scripted-llm';
import { startSrmServer } from '@farm/srm';
import { PostgresSymbolLeases } from '@farm/srm-client';
import type { SqlStore } from '@farm/store';
import type { BuildLauncher } from '@farm/builder';
import { agentProcessLauncher, farmLeases, startFarm, submitChangeRequest, watchChangeRequest } from '@farm/cli';

export const testLog = process.env.FARM_TEST_LOGS ? createLogger('test') : silentLogger;

export interface FarmHarness<L extends TaskLauncher = ChildProcessLauncher> {
  bus: EventBus;
  store: SqlStore;
  git: GitHttpServer;
  model: ScriptedModelServer;
  leases: PostgresSymbolLeases;
  /** The current launcher (a new one after restartOrchestrator when the harness was given a factory). */
  launcher: L;
  results: farm.v1.CommitResult[];
  builds: farm.v1.BuildResult[];
  farm: { orchestrator: Orchestrator; stop(): Promise<void> };
  seed(name: string, files: Record<string, string>): Promise<{ url: string; baseCommit: string }>;
  submit(input: { repoUrl: string; title: string; description?: string; checkCommand?: string }): Promise<string>;
  watch(id: string, onTransition?: (t: farm.v1.PhaseTransition) => void): Promise<farm.v1.PhaseTransition[]>;
  /**
   * Replaces the orchestrator by a new one on the same store, as after a crash and restart; with a launcher
   * factory, its launcher too (a new process has a new one).
   */
  restartOrchestrator(): Promise<void>;
  close(): Promise<void>;
}

/** What the agents need to reach the harness' services, whatever runs them. */
export interface AgentServices {
  OPENAI_BASE_URL: string;
  OPENAI_API_KEY: string;
  FARM_SRM_URL: string;
  /** The srm asks for it, as deployed. */
  FARM_COMPONENT_TOKEN: string;
  FARM_LLM_MAX_RETRIES: string;
}

export interface HarnessOptions {
  orchestrator?: Partial<OrchestratorOptions>;
  /** How builds run (a Job per build); a process per build when omitted. */
  buildsFor?: (bus: EventBus) => Promise<BuildLauncher>;
  /** false: no planner model, each request is one task with the request's title and description as its goal. */
  planner?: false;
  /** Where the git server, the scripted model and the srm listen (127.0.0.1): pods on a real node need its gateway. */
  serviceHost?: string;
}

export async function startFarmHarness(
  bus: EventBus,
  store: SqlStore,
  script: ModelScript,
  launcherFor?: undefined,
  options?: HarnessOptions,
): Promise<FarmHarness>;
export async function startFarmHarness<L extends TaskLauncher>(
  bus: EventBus,
  store: SqlStore,
  script: ModelScript,
  launcherFor: (agent: AgentServices) => Promise<L>,
  options?: HarnessOptions,
): Promise<FarmHarness<L>>;
export async function startFarmHarness(
  bus: EventBus,
  store: SqlStore,
  script: ModelScript,
  launcherFor?: (agent: AgentServices) => Promise<TaskLauncher>,
  options: HarnessOptions = {},
): Promise<FarmHarness<TaskLauncher>> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-harness-'));
  const host = options.serviceHost ?? '127.0.0.1';
  const git = await startGitHttpServer({ root: path.join(tmp, 'git'), host });
  const model = await startScriptedModelServer({ script, host });
  const leases = await PostgresSymbolLeases.open(store);
  const componentToken = `farm_${randomBytes(32).toString('base64url')}`;
  const srm = await startSrmServer({ leases, port: 0, host, componentToken });
  const agent: AgentServices = {
    FARM_COMPONENT_TOKEN: componentToken,
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'test-key',
    FARM_LLM_MAX_RETRIES: '0',
    FARM_SRM_URL: srm.url,
  };
  const firstLauncher =
    (await launcherFor?.(agent)) ??
    agentProcessLauncher(path.join(tmp, 'state'), {
      bus,
      log: testLog,
      agentEnv: { ...process.env, ...agent, FARM_WORK_DIR: path.join(tmp, 'work') },
    });
  let launcher = firstLauncher;
  const results: farm.v1.CommitResult[] = [];
  const builds: farm.v1.BuildResult[] = [];
  const subs: Subscription[] = [
    await bus.subscribe(Topics.commitResults, `harness-results-${tmp}`, async (r) => void results.push(r)),
    await bus.subscribe(Topics.buildResults, `harness-builds-${tmp}`, async (b) => void builds.push(b)),
  ];
  const leaseParts = farmLeases(leases);
  const plannerModel = createJsonModel({ baseURL: model.baseURL, apiKey: 'k', model: 'planner', maxRetries: 0 });
  const parts = {
    bus,
    store,
    launcher: firstLauncher,
    log: testLog,
    leases: leaseParts,
    plannerModel: options.planner === false ? undefined : plannerModel,
    options: { deadlineCheckMs: 500, ...options.orchestrator },
    builds: await options.buildsFor?.(bus),
  };
  const app = await startFarm(parts);
  let orchestrator = app.orchestrator;
  const harness: FarmHarness<TaskLauncher> = {
    bus,
    store,
    git,
    model,
    leases,
    get launcher() {
      return launcher;
    },
    results,
    builds,
    farm: app,
    async seed(name, files) {
      const url = await git.createBareRepo(name);
      return { url, baseCommit: await seedBareRepo({ url, files, message: 'initial' }) };
    },
    submit: (input) => submitChangeRequest(bus, { baseRef: 'main', ...input }),
    async watch(id, onTransition) {
      const seen: farm.v1.PhaseTransition[] = [];
      await watchChangeRequest(
        bus,
        id,
        (t) => {
          seen.push(t);
          onTransition?.(t);
        },
        { timeoutMs: 150_000 },
      );
      return seen;
    },
    async restartOrchestrator() {
      await orchestrator.stop();
      if (launcherFor) {
        await launcher.close(); // app.stop() closes the first one again: close() is idempotent
        launcher = await launcherFor(agent);
      }
      orchestrator = new Orchestrator({
        bus,
        store,
        launcher,
        log: testLog,
        leases: leaseParts,
        options: parts.options,
      });
      await orchestrator.start();
    },
    async close() {
      await Promise.all(subs.map((s) => s.stop()));
      await app.stop();
      if (orchestrator !== app.orchestrator) await orchestrator.stop();
      if (launcher !== firstLauncher) await launcher.close();
      await srm.close();
      await model.close();
      await git.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
  return harness;
}
