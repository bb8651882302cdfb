import { Topics, busConfigSchema, connectBus, type EventBus, type Subscription } from '@farm/bus';
import {
  configureGitCredentials,
  gitCredentialsConfigSchema,
  resolveLocalRef,
  resolveRemoteRef,
  startGitServerProcess,
  takeCredentialsFromUrl,
} from '@farm/git';
import { FINAL_PHASES } from '@farm/proto';
import { InPlaceBuildLauncher, builderConfigSchema, createBuildLauncher } from '@farm/builder';
import { agentConfigSchema } from '@farm/coding-agent';
import { codePlannerConfigSchema } from '@farm/code-planner';
import {
  createTaskLauncher,
  getRequest,
  LocalAgentPool,
  LocalPoolLauncher,
  type TaskLauncher,
  orchestratorConfigSchema,
  orchestratorOptionsFrom,
  resumeLaunches,
  stateLayout,
  changeRequestApi,
  apiSubmitter,
  openApiAccess,
  forgeSetupConfigSchema,
  startForge,
} from '@farm/orchestrator';
import { plannerModelFrom, plannerPricingFrom, requestPlannerConfigSchema } from '@farm/request-planner';
import {
  credentialsFilesOf,
  entryScript,
  holdSecrets,
  loadConfig,
  secretsOfEnvironment,
  useCommandHelper,
  watchStateWritable,
  z,
  type HealthStatus,
  type Logger,
  type RouteHandler,
} from '@farm/runtime';
import { startSrmServer } from '@farm/srm';
import { watchConfinement } from '@farm/sandbox';
import { PostgresSymbolLeases } from '@farm/srm-client';
import { openStore, watchStoreReachable, type SqlStore } from '@farm/store';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_STATE_DIR } from './config';
import { farmLeases, startFarm } from './local-farm';
import type { ChangeRequestInput } from '@farm/farm-api';
import { changeRequestJson } from './repo-arg';
import type { SubmitInput } from './submit';
import { LocalRepoMirrors } from './local-repos';
import { stablePort } from './stable-ports';
import { lockStateDir } from './state-dir-lock';
import { ensureComponentToken, ensureFarmUpToken, tokenNotice } from './farm-up-token';

/**
 * Handlers of phase transitions running at once for the sync-back on the in-process bus: a member handles one
 * message at a time, so with one member requests ending together would be synced one after another; with
 * several, those ending while a sync-back of their repository runs share the next one (one `git fetch`).
 */
const SYNC_BACK_MEMBERS = 64;

/** When a request on a local repository ends, its branches go back into that repository. */
async function syncLocalReposWhenDone(
  bus: EventBus,
  store: SqlStore,
  repos: LocalRepoMirrors,
  log: Logger,
  members: number,
): Promise<Subscription> {
  const subscriptions = await Promise.all(
    Array.from({ length: members }, () =>
      bus.subscribe(Topics.phaseTransitions, 'farm-up-local-repos', async (t) => {
        if (t.taskId || !FINAL_PHASES.has(t.toPhase)) return;
        const found = await getRequest(store, t.changeRequestId);
        if (!found) return;
        const branches = [...found.tasks.map((task) => task.branch), found.request.integrationBranch].filter(Boolean);
        const fetched = await repos.syncBack(t.changeRequestId, branches);
        if (fetched.length) log.info('request ended; its branches are in your repository', { branches: fetched });
      }),
    ),
  );
  return { stop: async () => void (await Promise.all(subscriptions.map((s) => s.stop()))) };
}

/**
 * `farm up`: every component's own settings, composed. Without KAFKA_BROKERS it is the embedded farm (the
 * in-process bus journaled in PGlite under FARM_STATE_DIR); with it, the same farm on Kafka.
 */
export const farmUpConfigSchema = busConfigSchema
  .merge(orchestratorConfigSchema)
  .merge(builderConfigSchema)
  .merge(requestPlannerConfigSchema)
  .merge(codePlannerConfigSchema.omit({ FARM_SRM_URL: true }))
  .merge(forgeSetupConfigSchema)
  .extend({
    /** The state of this machine's farm (an absolute path from here on: the agents and builds read it too). */
    FARM_STATE_DIR: z
      .string()
      .default(DEFAULT_STATE_DIR)
      .transform((dir) => path.resolve(dir)),
    /** The srm `farm up` runs for its agents, on loopback (0: a free port). */
    FARM_SRM_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    /** The git smart-HTTP server serving local repositories to the agents, on loopback (0: a free port). */
    FARM_GIT_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    /**
     * FARM_LAUNCHER=pool on the in-process bus: warm agent worker processes, each running one task at a time
     * (~100 MiB each once warm: 8 keep the whole farm well under 2 GiB).
     */
    FARM_AGENT_POOL_SIZE: z.coerce.number().int().min(1).max(256).default(8),
    /** The address the API (and /metrics) listens on: loopback unless told otherwise, e.g. 0.0.0.0. */
    FARM_API_HOST: z.string().min(1).default('127.0.0.1'),
  });
export type FarmUpConfig = z.infer<typeof farmUpConfigSchema>;

export interface RunningFarm {
  bus: EventBus;
  store: SqlStore;
  localRepos: LocalRepoMirrors;
  routes: RouteHandler;
  /**
   * Submits as POST /v1/change-requests does, without HTTP: validated by the API's own rules (a refusal is a
   * 400 ApiError naming the field and the bound, and nothing reaches the bus or the database), a local
   * repository served through its mirror.
   */
  submit(body: ChangeRequestInput): Promise<{ changeRequestId: string; created: boolean }>;
  /** /healthz: unhealthy while a consumer of the bus is down, or while the sandbox cannot confine checks here. */
  health(): HealthStatus;
  stop(): Promise<void>;
}

/**
 * Submits a change request to a running farm through its API's intake (never straight onto the bus): what the
 * API refuses (a description past its bound, a NUL, a bad id) is refused here too, with the same 400; a local
 * repository is served through its mirror.
 */
export async function submitToFarm(app: RunningFarm, input: SubmitInput): Promise<string> {
  return (await app.submit(changeRequestJson(input))).changeRequestId;
}

/** The file (mode 600) that keeps credentials taken off repository URLs, created empty if missing. */
function intakeCredentialsFile(stateDir: string): string {
  const file = stateLayout(stateDir).credentials;
  mkdirSync(path.dirname(file), { recursive: true });
  if (!existsSync(file)) writeFileSync(file, '', { mode: 0o600 });
  return file;
}

/**
 * FARM_LAUNCHER=pool on the in-process bus: warm agent worker processes of farm up's own take the tasks (no
 * process start per task); on Kafka the topic's workers are the cluster's. Else the configured launcher.
 */
async function localPoolOr(
  config: FarmUpConfig,
  agentEnv: NodeJS.ProcessEnv,
  bus: EventBus,
  log: Logger,
  stack: (() => Promise<void>)[],
  otherwise: () => TaskLauncher,
): Promise<TaskLauncher> {
  if (config.FARM_LAUNCHER !== 'pool' || config.KAFKA_BROKERS) return otherwise();
  const pool = await LocalAgentPool.start({
    bus,
    log: log.child({ app: 'agent-pool' }),
    workerEntry: entryScript('agent-pool-worker', agentEnv),
    env: agentEnv,
    size: config.FARM_AGENT_POOL_SIZE,
    logDir: stateLayout(config.FARM_STATE_DIR).logs,
  });
  stack.push(() => pool.stop());
  return new LocalPoolLauncher(bus, pool);
}

/** Starts the farm in this process; `env` is also what the agent processes get. */
export async function startFarmUp(
  given: NodeJS.ProcessEnv,
  log: Logger,
  /** announce: false for a farm nobody else reaches (the demo's, an evaluation's), on a state directory of its run. */
  opts: { announce?: boolean } = {},
): Promise<RunningFarm> {
  const config = loadConfig(farmUpConfigSchema, given);
  // Credentials split off repository URLs at intake are kept in the state directory, where this process, the
  // agents and the builds (and nothing else) read them with the user's own credential files.
  const credentialsFile = intakeCredentialsFile(config.FARM_STATE_DIR);
  const env = {
    ...given,
    FARM_STATE_DIR: config.FARM_STATE_DIR,
    FARM_GIT_CREDENTIALS_FILE: [credentialsFile, given.FARM_GIT_CREDENTIALS_FILE].filter(Boolean).join(':'),
    // One store of dependency environments for this machine's agents and builds, kept across restarts.
    FARM_ENVIRONMENTS_DIR: given.FARM_ENVIRONMENTS_DIR || stateLayout(config.FARM_STATE_DIR).environments,
  };
  // The builds this process starts inherit its environment.
  process.env.FARM_ENVIRONMENTS_DIR ??= env.FARM_ENVIRONMENTS_DIR;
  configureGitCredentials(loadConfig(gitCredentialsConfigSchema, env));
  // The orchestrator, planners and builds of this process redact what the farm is given, also when `given`
  // is not this process's environment.
  holdSecrets({ secrets: secretsOfEnvironment(env), credentialsFiles: credentialsFilesOf(env) });
  // The agents validate their settings too, but a farm that cannot run one should not start.
  if (config.FARM_LAUNCHER !== 'jobs') loadConfig(agentConfigSchema, env);
  const layout = stateLayout(config.FARM_STATE_DIR);
  // Before anything is written there: a second farm up on the directory stops here, naming the first.
  const unlock = lockStateDir(config.FARM_STATE_DIR);
  const stack: (() => Promise<void>)[] = [async () => unlock()];
  const unwind = async () => {
    for (const close of stack.reverse()) await close().catch((err) => log.error('stopping failed', { err }));
  };
  try {
    // farm up's own git commands (in-place builds, mirrors, branches back) start from a small helper process:
    // a fork of this big one would block its event loop for each (commands.ts).
    stack.push(await useCommandHelper({ log }));
    const store = await openStore(config.DATABASE_URL, layout.database, log);
    stack.push(() => store.close());
    const bus = await connectBus(config, { clientId: 'farm-up', log, store });
    stack.push(() => bus.close());
    // The srm on the same store, over HTTP on loopback for the agent processes' claims.
    const leases = await PostgresSymbolLeases.open(store, log);
    stack.push(async () => leases.close());
    const srmPort = await stablePort(config.FARM_STATE_DIR, 'srm', config.FARM_SRM_PORT);
    // The srm answers the farm's components only: the agent processes get the token in their environment.
    const componentToken = ensureComponentToken(layout.componentToken, config.FARM_COMPONENT_TOKEN);
    holdSecrets({ secrets: [componentToken] });
    const srm = await startSrmServer({ leases, port: srmPort, host: '127.0.0.1', log, componentToken });
    stack.push(() => srm.close());
    const gitPort = await stablePort(config.FARM_STATE_DIR, 'git', config.FARM_GIT_PORT);
    const git = await startGitServerProcess({ root: layout.git, port: gitPort, host: '127.0.0.1', log });
    stack.push(() => git.close());
    const localRepos = await LocalRepoMirrors.open(store, git, log);
    // On Kafka a member is a consumer of its own, and a partition's messages are handled in order anyway.
    const syncMembers = config.KAFKA_BROKERS ? 1 : SYNC_BACK_MEMBERS;
    stack.push((await syncLocalReposWhenDone(bus, store, localRepos, log, syncMembers)).stop);
    const agentEnv = { ...env, FARM_SRM_URL: srm.url, FARM_COMPONENT_TOKEN: componentToken };
    const launcher = await localPoolOr(config, agentEnv, bus, log, stack, () =>
      createTaskLauncher(config, { bus, log, agentEnv, env, onClose: 'leave' }),
    );
    stack.push(() => launcher.close());
    // Builds run as their own processes (or Jobs), left running across a restart like the agents; a one-task
    // build of a repository served here with nothing left to check is done in place, without a process.
    const builds = new InPlaceBuildLauncher(
      createBuildLauncher(config, { bus, log, buildEnv: env, env, onClose: 'leave' }),
      { bus, log: log.child({ app: 'builder' }), gitDirFor: (url) => git.gitDirFor(url) },
    );
    stack.push(() => builds.close());
    const resumed = await resumeLaunches(store, launcher);
    if (resumed) log.info('re-attached to tasks dispatched before the restart', { tasks: resumed });
    const app = await startFarm({
      bus,
      store,
      launcher,
      log,
      leases: farmLeases(leases),
      plannerModel: plannerModelFrom(config, log),
      plannerPricing: plannerPricingFrom(config),
      maxPlanItems: config.FARM_PLANNER_MAX_ITEMS,
      planSingleTask: config.FARM_PLAN_SINGLE_TASK,
      leaseTtlSeconds: config.FARM_LEASE_TTL_S,
      // A repository served here is read on disk, not through its HTTP server: one plan at a time is waiting.
      resolveRef: (url, ref) => {
        const dir = git.gitDirFor(url);
        return dir ? resolveLocalRef(dir, ref, url) : resolveRemoteRef(url, ref, { waitForServerMs: 5_000 });
      },
      options: orchestratorOptionsFrom(config),
      builds,
      takeCredentials: (url) => takeCredentialsFromUrl(url, credentialsFile),
    });
    // startFarm's stop closes both launchers itself.
    stack.splice(stack.length - 2, 2, () => app.stop());
    const access = await openApiAccess(store, config);
    const adminToken = await ensureFarmUpToken(access.tokens, layout.adminToken);
    holdSecrets({ secrets: [adminToken.token] });
    const listening = ['0.0.0.0', '::'].includes(config.FARM_API_HOST) ? '127.0.0.1' : config.FARM_API_HOST;
    const api = `http://${listening.includes(':') ? `[${listening}]` : listening}:${config.FARM_METRICS_PORT}`;
    // The token itself goes to no log: the notice says where it is kept.
    if (opts.announce !== false)
      process.stderr.write(tokenNotice(api, layout.adminToken, adminToken.created, config.FARM_STATE_DIR));
    // The CLI on this machine reads where this farm listens (any FARM_METRICS_PORT) from the state directory.
    if (config.FARM_METRICS_PORT) {
      writeFileSync(layout.apiUrl, `${api}\n`);
      stack.push(async () => rmSync(layout.apiUrl, { force: true }));
    }
    log.info('farm up', {
      api,
      tokenFile: layout.adminToken,
      console: `${api}/console/`,
      bus: config.KAFKA_BROKERS ? 'kafka' : 'in-process',
      store: config.DATABASE_URL ? 'postgres' : layout.database,
      launcher: config.FARM_LAUNCHER,
    });
    // The forge (FARM_FORGE_KIND): its links point at this farm's console unless FARM_PUBLIC_URL says otherwise.
    const forge = startForge(
      { ...config, FARM_PUBLIC_URL: config.FARM_PUBLIC_URL ?? api },
      { store, orchestrator: app.orchestrator, log: log.child({ app: 'forge' }) },
    );
    if (forge) stack.push(() => forge.bridge.stop());
    // A full disk under the state directory is said by /healthz, a gauge and the API's 503, not only by warnings.
    const writable = watchStateWritable(config.FARM_STATE_DIR, { log });
    stack.push(async () => writable.stop());
    const submit = apiSubmitter({
      orchestrator: app.orchestrator,
      resolveLocalRepo: (id, repo) => localRepos.prepare(id, repo),
      refuseNewWork: () => writable.problem(),
      log,
    });
    const routes = changeRequestApi({
      store,
      orchestrator: app.orchestrator,
      log,
      access,
      resolveLocalRepo: (id, repo) => localRepos.prepare(id, repo),
      localRepoPaths: (ids) => localRepos.paths(ids),
      localRepoPathsByUrl: () => localRepos.pathsByUrl(),
      forgeWebhooks: forge?.webhooks,
      forgeSite: forge?.site,
      refuseNewWork: () => writable.problem(),
    });
    // Agents and builds on this machine: a sandbox that cannot confine their checks makes every task fail; one whose
    // probe does not answer yet (a busy machine) is degraded, its tasks waiting for the answer.
    const confinement = config.FARM_LAUNCHER === 'jobs' ? undefined : await watchConfinement(log);
    if (confinement) stack.push(async () => confinement.stop());
    // The database (PostgreSQL with DATABASE_URL) away: said, not hidden behind a bare `ok`.
    const database = watchStoreReachable(store, log);
    stack.push(async () => database.stop());
    const health = () => {
      const status = bus.health();
      const disk = writable.health();
      const sandbox = confinement?.health() ?? { healthy: true, reasons: [] };
      return {
        healthy: status.healthy && disk.reasons.length === 0 && sandbox.healthy,
        reasons: [...status.reasons, ...disk.reasons, ...sandbox.reasons, ...database.health().reasons],
      };
    };
    return { bus, store, localRepos, routes, submit, health, stop: unwind };
  } catch (err) {
    await unwind();
    throw err;
  }
}
