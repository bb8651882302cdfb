import { Command, Option } from 'commander';
import { farm } from '@farm/proto';
import { KafkaBus } from '@farm/bus';
import { ApiError, ApiUnreachable, type ChangeRequestClient } from '@farm/farm-api';
import { transitionToJson } from '@farm/orchestrator';
import { ConfigError, FarmError, createLogger, loadConfig, runService } from '@farm/runtime';
import { loadCliConfig, requireBrokers, type CliConfig } from './config';
import { runDemo } from './demo';
import { registerScaleCommand } from './scale-command';
import { registerLessonsCommand } from './lessons-command';
import { registerTokenCommand } from './token-command';
import { formatRequest, formatRequestList } from './format';
import { ProgressView } from './progress';
import { localRepoPath } from './local-repos';
import { changeRequestJson, resolveRepoArg } from './repo-arg';
import { farmUpConfigSchema, startFarmUp } from './farm-up';
import { cancelChangeRequest, submitChangeRequest, watchChangeRequest } from './submit';
import { farmApiClient } from './farm-api-client';

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
  .requiredOption('--repo <url|path>', 'git clone URL (smart HTTP) of the repository, or the path of a local one')
  .requiredOption('--title <text>', 'what to change, in one line')
  .option('--base <ref>', 'branch, tag or commit to start from (default: main; a local repo: its current branch)')
  .option('--description <text>', 'details for the planners and agents', '')
  .option('--check-command <cmd>', 'command that checks a patch (default: detected from the repo)')
  .option('--id <uuid>', 'the request id (submitting the same id again changes nothing)')
  .option('--watch', 'follow its progress after submitting')
  .option('--json', 'print JSON')
  .action(async (o) => {
    const config = loadCliConfig();
    const repo = await resolveRepoArg(o.repo, o.base);
    const input = { ...repo, title: o.title, description: o.description, checkCommand: o.checkCommand, id: o.id };
    if (usesKafka(config)) {
      if (localRepoPath(input.repoUrl)) {
        throw new ConfigError(
          'a local repository can only be submitted to `farm up` over its HTTP API: unset KAFKA_BROKERS or set FARM_URL',
        );
      }
      const bus = await connect(config, 'submit');
      try {
        const id = await submitChangeRequest(bus, input);
        process.stdout.write(o.json ? JSON.stringify({ changeRequestId: id }) + '\n' : `${id}\n`);
        if (o.watch) process.exitCode = await watchOverKafka(bus, id, o.json);
      } finally {
        await bus.close();
      }
      return;
    }
    const api = farmApi(config);
    const { changeRequestId: id, created } = await api.submit(changeRequestJson(input));
    process.stdout.write(o.json ? JSON.stringify({ changeRequestId: id, created }) + '\n' : `${id}\n`);
    if (o.watch) process.exitCode = await watchOverHttp(api, id, o.json);
  });

program
  .command('watch <id>')
  .description('follow a change request: every phase transition and task result from the first, until a final phase')
  .option('--json', 'one JSON object per transition')
  .addOption(new Option('--timeout <seconds>', 'give up after this long').argParser(Number))
  .action(async (id: string, o) => {
    const config = loadCliConfig();
    if (!usesKafka(config)) {
      process.exitCode = await watchOverHttp(farmApi(config), id, o.json, o.timeout);
      return;
    }
    const bus = await connect(config, 'watch');
    try {
      process.exitCode = await watchOverKafka(bus, id, o.json, o.timeout);
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
    'run the farm in this process: orchestrator, planners, build phase, srm and an agent process per task; ' +
      'the in-process bus and PGlite under FARM_STATE_DIR, or Kafka when KAFKA_BROKERS is set',
  )
  .action(async () => {
    const log = createLogger('farm');
    const config = loadConfig(farmUpConfigSchema);
    await runService(log, config.FARM_METRICS_PORT, () => startFarmUp(process.env, log), config.FARM_API_HOST);
  });

program
  .command('list')
  .description('the most recent change requests with their phase and task progress')
  .option('--limit <n>', 'how many', '50')
  .option('--json', 'print JSON')
  .action(async (o) => {
    const list = await farmApi(loadCliConfig()).list(Number(o.limit));
    process.stdout.write((o.json ? JSON.stringify(list, null, 2) : formatRequestList(list)) + '\n');
  });

program
  .command('status [id]')
  .description('one change request with its tasks, or the table of requests without an id')
  .option('--json', 'print JSON')
  .action(async (id: string | undefined, o) => {
    const api = farmApi(loadCliConfig());
    if (!id) {
      const list = await api.list();
      process.stdout.write((o.json ? JSON.stringify(list, null, 2) : formatRequestList(list)) + '\n');
      return;
    }
    const found = await api.get(id);
    process.stdout.write((o.json ? JSON.stringify(found, null, 2) : formatRequest(found.request, found.tasks, found.forge)) + '\n');
  });

program
  .command('cancel <id>')
  .description('cancel a change request: running tasks are stopped, leases released, state CANCELLED')
  .option('--reason <text>', 'why', '')
  .option('--json', 'print JSON')
  .action(async (id: string, o) => {
    const config = loadCliConfig();
    if (usesKafka(config)) {
      const bus = await connect(config, 'cancel');
      try {
        await cancelChangeRequest(bus, id, o.reason);
      } finally {
        await bus.close();
      }
    } else {
      await farmApi(config).cancel(id, o.reason);
    }
    process.stdout.write(
      o.json ? JSON.stringify({ changeRequestId: id, cancelRequested: true }) + '\n' : `cancel requested for ${id}\n`,
    );
  });

registerScaleCommand(program);
registerLessonsCommand(program);
registerTokenCommand(program);

/** Kafka only for a user who has only Kafka: KAFKA_BROKERS set and FARM_URL not. */
function usesKafka(config: CliConfig): boolean {
  return !!config.KAFKA_BROKERS && !process.env.FARM_URL;
}

/** The farm's HTTP API; an event stream survives a restart of the farm of up to a few minutes. */
function farmApi(config: CliConfig): ChangeRequestClient {
  return farmApiClient(config, { maxReconnects: 60 });
}

async function watchOverHttp(api: ChangeRequestClient, id: string, json: boolean, timeoutS?: number): Promise<number> {
  const view = new ProgressView(process.stdout, json);
  const signal = timeoutS ? AbortSignal.timeout(timeoutS * 1000) : undefined;
  let last: farm.v1.PhaseTransition | undefined;
  try {
    for await (const t of api.events(id, { signal })) {
      view.show(t, () => transitionToJson(t));
      last = t;
    }
  } catch (err) {
    if (signal?.aborted) throw new FarmError(`no final phase for ${id} within ${timeoutS} s`, { retryable: true });
    throw err;
  } finally {
    view.close();
  }
  return last?.toPhase === farm.v1.Phase.DONE ? 0 : 1;
}

async function watchOverKafka(bus: KafkaBus, id: string, json: boolean, timeoutS?: number): Promise<number> {
  const view = new ProgressView(process.stdout, json);
  try {
    const last = await watchChangeRequest(bus, id, (t) => view.show(t, () => transitionToJson(t)), {
      timeoutMs: timeoutS ? timeoutS * 1000 : undefined,
    });
    return last.toPhase === farm.v1.Phase.DONE ? 0 : 1;
  } finally {
    view.close();
  }
}

program.parseAsync(process.argv).catch((err) => {
  const hint =
    err instanceof ApiUnreachable
      ? '\n  Start a farm with `farm up`, point FARM_URL at one, or set KAFKA_BROKERS to go through Kafka.'
      : err instanceof ApiError && err.status === 401
        ? '\n  Set FARM_TOKEN to a token (`farm token create`), or FARM_STATE_DIR to the state directory of `farm up`.'
        : '';
  process.stderr.write(`farm: ${err instanceof FarmError ? err.message : (err?.stack ?? err)}${hint}\n`);
  process.exit(err instanceof ConfigError ? 78 : 1);
});
