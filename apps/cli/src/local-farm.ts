import type { EventBus, Subscription } from '@farm/bus';
import { ProcessBuildLauncher, startBuilder, type BuildLauncher } from '@farm/builder';
import { srmReserver, startCodePlanner, type SymbolLocator, type SymbolReserver } from '@farm/code-planner';
import type { SymbolLeases } from '@farm/srm-client';
import type { JsonModel } from '@farm/llm';
import {
  type ChildProcessLauncher,
  Orchestrator,
  createTaskLauncher,
  orchestratorConfigSchema,
  type LeaseReleaser,
  type OrchestratorOptions,
  type TaskLauncher,
} from '@farm/orchestrator';
import { startRequestPlanner, type PlannerPricing } from '@farm/request-planner';
import { entryScript, loadConfig, type Logger } from '@farm/runtime';
import type { SqlStore } from '@farm/store';

export interface FarmParts {
  bus: EventBus;
  store: SqlStore;
  launcher: TaskLauncher;
  log: Logger;
  leases?: LeaseReleaser & SymbolReserver;
  options?: Partial<OrchestratorOptions>;
  /** The request-planner's model; without one each request is a single task. */
  plannerModel?: JsonModel;
  /** The planner model's configured name and price table (its calls' cost in the request's totals). */
  plannerPricing?: PlannerPricing;
  /** Bound on the planner's items per request. */
  maxPlanItems?: number;
  /** FARM_PLAN_SINGLE_TASK (default `never`). */
  planSingleTask?: 'auto' | 'never';
  /** Lifetime of the symbol leases the code-planner reserves. */
  leaseTtlSeconds?: number;
  locateSymbols?: SymbolLocator;
  /** How the code-planner resolves a base ref to a commit (default: asking the repository's server). */
  resolveRef?: (url: string, ref: string) => Promise<string>;
  /** How builds run; a process per build (stopped with the farm) when omitted. */
  builds?: BuildLauncher;
  /** Where credentials in a repository URL go at intake; refused when omitted. */
  takeCredentials?: (url: string) => string;
}

/**
 * Every app of the farm in one process, on whatever bus, store and launcher it is given: the in-process bus,
 * PGlite and child processes on one machine; Kafka and PostgreSQL when those are configured.
 */
export async function startFarm(parts: FarmParts): Promise<{ orchestrator: Orchestrator; stop(): Promise<void> }> {
  const orchestrator = new Orchestrator({
    bus: parts.bus,
    store: parts.store,
    launcher: parts.launcher,
    leases: parts.leases,
    options: parts.options,
    takeCredentials: parts.takeCredentials,
    log: parts.log.child({ app: 'orchestrator' }),
  });
  await orchestrator.start();
  const subs: Subscription[] = [
    await startRequestPlanner({
      bus: parts.bus,
      model: parts.plannerModel,
      pricing: parts.plannerPricing,
      maxItems: parts.maxPlanItems,
      singleTask: parts.planSingleTask,
      log: parts.log.child({ app: 'request-planner' }),
    }),
    await startCodePlanner({
      bus: parts.bus,
      leases: parts.leases,
      locateSymbols: parts.locateSymbols,
      resolveRef: parts.resolveRef,
      leaseTtlSeconds: parts.leaseTtlSeconds,
      log: parts.log.child({ app: 'code-planner' }),
    }),
    await startBuilder({
      bus: parts.bus,
      launcher:
        parts.builds ??
        new ProcessBuildLauncher({
          bus: parts.bus,
          log: parts.log,
          buildEntry: entryScript('build-job'),
          onClose: 'stop',
        }),
      log: parts.log.child({ app: 'builder' }),
    }),
  ];
  return {
    orchestrator,
    async stop() {
      await Promise.all(subs.map((s) => s.stop()));
      await orchestrator.stop();
      await parts.launcher.close();
    },
  };
}

/** The srm as the farm's apps use it: the code-planner reserves, the orchestrator releases. */
export function farmLeases(leases: SymbolLeases): LeaseReleaser & SymbolReserver {
  return { releaseForChangeRequest: (id) => leases.releaseForChangeRequest(id), ...srmReserver(leases) };
}

/**
 * An agent process per task, with its state under `stateDir`, built by the same function every entry uses;
 * agents still running are stopped when the farm stops (tests and the demo).
 */
export function agentProcessLauncher(
  stateDir: string,
  deps: { bus: EventBus; log: Logger; agentEnv: NodeJS.ProcessEnv },
): ChildProcessLauncher {
  const config = loadConfig(orchestratorConfigSchema, { FARM_STATE_DIR: stateDir, FARM_LAUNCHER: 'process' });
  return createTaskLauncher(config, { ...deps, onClose: 'stop' }) as ChildProcessLauncher;
}
