import { Command, Option } from 'commander';
import { farm } from '@farm/proto';
import { KafkaBus, Topics, toJson } from '@farm/bus';
import { ChildProcessLauncher, changeRequestApi, type RequestSummary, type TaskSummary } from '@farm/orchestrator';
import { ConfigError, FarmError, createLogger, runService } from '@farm/runtime';
import { openStore } from '@farm/store';
import { loadCliConfig, requireBrokers, type CliConfig } from './config';
import { runDemo } from './demo';
import { registerScaleCommand } from './scale-command';
import { formatRequest, formatRequestList, formatTransition } from './format';
import { farmLeases, startFarm } from './local-farm';
import { createJsonModel } from '@farm/llm';
import { PostgresSymbolLeases } from '@farm/srm-client';
import { startSrmServer } from '@farm/srm/src/server';
import { cancelChangeRequest, submitChangeRequest, watchChangeRequest } from './submit';

const AGENT_ENTRY = require.resolve('@farm/coding-agent/src/job.ts');

async function connect(config: CliConfig, command: string): Promise<KafkaBus> {
  return KafkaBus.connect({
    brokers: requireBrokers(config, command),
    clientId: `farm-cli-${command}`,
    topicPrefix: config.FARM_TOPIC_PREFIX,
  });
}

const program = new Command('farm').description(
  'agent-farm: submit change requests to a farm of coding agents and watch them',
);

program
  .command('submit')
  .description('submit a change request; prints its id')
  .requiredOption('--repo <url>', 'git clone URL (smart HTTP) of the repository')
  .requiredOption('--title <text>', 'what to change, in one line')
  .option('--base <ref>', 'branch, tag or commit to start from', 'main')
  .option('--description <text>', 'details for the planners and agents', '')
  .option('--check-command <cmd>', 'command that checks a patch (default: detected from the repo)')
  .option('--watch', 'stream its phases after submitting')
  .option('--json', 'print JSON')
  .action(async (o) => {
    const bus = await connect(loadCliConfig(), 'submit');
    try {
      const id = await submitChangeRequest(bus, {
        repoUrl: o.repo,
        baseRef: o.base,
        title: o.title,
        description: o.description,
        checkCommand: o.checkCommand,
      });
      process.stdout.write(o.json ? JSON.stringify({ changeRequestId: id }) + '\n' : `${id}\n`);
      if (o.watch) process.exitCode = await watch(bus, id, o.json);
    } finally {
      await bus.close();
    }
  });

program
  .command('watch <id>')
  .description('stream the phase transitions of a change request until it reaches a final phase')
  .option('--json', 'one JSON object per transition')
  .addOption(new Option('--timeout <seconds>', 'give up after this long').argParser(Number))
  .action(async (id: string, o) => {
    const bus = await connect(loadCliConfig(), 'watch');
    try {
      process.exitCode = await watch(bus, id, o.json, o.timeout);
    } finally {
      await bus.close();
    }
  });

program
  .command('demo')
  .description('run the whole farm on this machine against a generated sample repo with the scripted model')
  .option('--keep', 'keep the demo directory (repos, agent logs)')
  .option('--model-script <file>', 'answer from this scripted-model JSON file instead of the built-in one')
  .action(async (o) => {
    process.exitCode = await runDemo({ keep: o.keep, modelScript: o.modelScript });
  });

program
  .command('up')
  .description(
    'run the farm in this process on Kafka (KAFKA_BROKERS): orchestrator, planners, build phase, srm, an agent process per task',
  )
  .action(async () => {
    const config = loadCliConfig();
    const log = createLogger('farm');
    await runService(log, config.FARM_METRICS_PORT, async () => {
      const bus = await connect(config, 'up');
      const store = await openStore(config.DATABASE_URL, config.FARM_STATE_DIR);
      // The srm on the same store, over HTTP on loopback for the agent processes' claims.
      const leases = await PostgresSymbolLeases.open(store, log);
      const srm = await startSrmServer({ leases, port: config.FARM_SRM_PORT, host: '127.0.0.1', log });
      const launcher = new ChildProcessLauncher({
        bus,
        log,
        agentEntry: AGENT_ENTRY,
        env: { ...process.env, FARM_SRM_URL: srm.url },
      });
      const plannerModel = config.OPENAI_BASE_URL
        ? createJsonModel({
            baseURL: config.OPENAI_BASE_URL,
            apiKey: config.OPENAI_API_KEY,
            model: config.FARM_PLANNER_MODEL,
            log,
          })
        : undefined;
      const app = await startFarm({ bus, store, launcher, log, leases: farmLeases(leases), plannerModel });
      return {
        routes: changeRequestApi({ store, orchestrator: app.orchestrator, log }),
        stop: async () => (await app.stop(), await srm.close(), await bus.close(), await store.close()),
      };
    });
  });

program
  .command('list')
  .description('the most recent change requests with their phase and task progress')
  .option('--limit <n>', 'how many', '50')
  .option('--json', 'print JSON')
  .action(async (o) => {
    const { changeRequests } = await askOrchestrator<{ changeRequests: RequestSummary[] }>(
      `/v1/change-requests?limit=${Number(o.limit)}`,
    );
    process.stdout.write((o.json ? JSON.stringify(changeRequests, null, 2) : formatRequestList(changeRequests)) + '\n');
  });

program
  .command('status [id]')
  .description('one change request with its tasks, or the table of requests without an id')
  .option('--json', 'print JSON')
  .action(async (id: string | undefined, o) => {
    if (!id) {
      const { changeRequests } = await askOrchestrator<{ changeRequests: RequestSummary[] }>('/v1/change-requests');
      process.stdout.write(
        (o.json ? JSON.stringify(changeRequests, null, 2) : formatRequestList(changeRequests)) + '\n',
      );
      return;
    }
    const found = await askOrchestrator<{ request: RequestSummary; tasks: TaskSummary[] }>(
      `/v1/change-requests/${encodeURIComponent(id)}`,
    );
    process.stdout.write((o.json ? JSON.stringify(found, null, 2) : formatRequest(found.request, found.tasks)) + '\n');
  });

program
  .command('cancel <id>')
  .description('cancel a change request: running tasks are stopped, leases released, state CANCELLED')
  .option('--reason <text>', 'why', '')
  .option('--json', 'print JSON')
  .action(async (id: string, o) => {
    const bus = await connect(loadCliConfig(), 'cancel');
    try {
      await cancelChangeRequest(bus, id, o.reason);
      process.stdout.write(
        o.json ? JSON.stringify({ changeRequestId: id, cancelRequested: true }) + '\n' : `cancel requested for ${id}\n`,
      );
    } finally {
      await bus.close();
    }
  });

registerScaleCommand(program);

async function askOrchestrator<T>(path: string): Promise<T> {
  const base = loadCliConfig().FARM_ORCHESTRATOR_URL;
  let res: Response;
  try {
    res = await fetch(new URL(path, base));
  } catch (err) {
    throw new ConfigError(
      `cannot reach the orchestrator at ${base} (set FARM_ORCHESTRATOR_URL): ${(err as Error).message}`,
    );
  }
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new FarmError(body.error ?? `orchestrator answered ${res.status}`);
  return body;
}

async function watch(bus: KafkaBus, id: string, json: boolean, timeoutS?: number): Promise<number> {
  const last = await watchChangeRequest(
    bus,
    id,
    (t) =>
      process.stdout.write((json ? JSON.stringify(toJson(Topics.phaseTransitions, t)) : formatTransition(t)) + '\n'),
    { timeoutMs: timeoutS ? timeoutS * 1000 : undefined },
  );
  return last.toPhase === farm.v1.Phase.DONE ? 0 : 1;
}

program.parseAsync(process.argv).catch((err) => {
  process.stderr.write(`farm: ${err instanceof FarmError ? err.message : (err?.stack ?? err)}\n`);
  process.exit(err instanceof ConfigError ? 78 : 1);
});
