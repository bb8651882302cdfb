/**
 * What each command of `farm` does (main.ts declares them and loads this when one runs). The heavy parts
 * (Kafka, the farm itself, the progress view) are imported by the commands that use them, so a submit over
 * the HTTP API loads little more than its client.
 */
import type { farm } from '@farm/proto';
import type { KafkaBus } from '@farm/bus';
import type { ChangeRequestClient } from '@farm/farm-api';
import { ConfigError, FarmError, createLogger, loadConfig, runService } from '@farm/runtime';
import { loadCliConfig, requireBrokers, type CliConfig } from './config';
import { changeRequestJson, localRepoPath, resolveRepoArg } from './repo-arg';
import { farmApiClient } from './farm-api-client';

export interface SubmitOptions {
  repo: string;
  title: string;
  base?: string;
  description: string;
  checkCommand?: string;
  id?: string;
  watch?: boolean;
  json?: boolean;
  requireApproval?: boolean;
}

export async function submitCommand(o: SubmitOptions): Promise<void> {
  const config = loadCliConfig();
  const repo = await resolveRepoArg(o.repo, o.base);
  const input = {
    ...repo,
    title: o.title,
    description: o.description,
    checkCommand: o.checkCommand,
    id: o.id,
    requireApproval: o.requireApproval,
  };
  if (usesKafka(config)) {
    if (localRepoPath(input.repoUrl)) {
      throw new ConfigError(
        'a local repository can only be submitted to `farm up` over its HTTP API: unset KAFKA_BROKERS or set FARM_URL',
      );
    }
    const { submitChangeRequest } = await import('./submit');
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
  if (!o.watch) return;
  process.exitCode = await watchOverHttp(api, id, o.json);
  // The farm fetches a local repository's branches back once the request is DONE: what the README runs next
  // (`git branch --list 'agt/*' 'farm/*'`) must see them when the watch returns.
  const home = localRepoPath(input.repoUrl);
  if (process.exitCode === 0 && home) await branchesBack(home, id);
}

/** Waits (up to `timeoutMs`) until `farm/<id>` is in the user's repository; says so when it does not come. */
async function branchesBack(repo: string, id: string, timeoutMs = 120_000): Promise<void> {
  const { execFile } = await import('node:child_process');
  const has = () =>
    new Promise<boolean>((resolve) =>
      execFile('git', ['-C', repo, 'rev-parse', '--verify', '-q', `refs/heads/farm/${id}`], (err) => resolve(!err)),
    );
  const deadline = Date.now() + timeoutMs;
  while (!(await has())) {
    if (Date.now() > deadline) {
      process.stderr.write(
        `farm: the request is DONE but farm/${id} was not fetched back into ${repo} within ${timeoutMs / 1000} s; see farm up's log\n`,
      );
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function watchCommand(id: string, o: { json?: boolean; timeout?: number }): Promise<void> {
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
}

export async function demoCommand(o: { keep?: boolean; modelScript?: string; serve?: boolean }): Promise<void> {
  const { runDemo } = await import('./demo');
  process.exitCode = await runDemo({ keep: o.keep, modelScript: o.modelScript, serve: o.serve });
}

export async function upCommand(o: { modelScript?: string } = {}): Promise<void> {
  const { farmUpConfigSchema, startFarmUp } = await import('./farm-up');
  const log = createLogger('farm');
  // Trying the farm costs nothing: a scripted model on loopback answers the planner and the agents.
  const scripted = o.modelScript ? await startScriptedModel(o.modelScript, log) : undefined;
  const env = { ...process.env, ...scripted?.env };
  const config = loadConfig(farmUpConfigSchema, env);
  // The state directory before the port: a second farm up on it is told which farm holds it.
  const { refuseHeldStateDir } = await import('./state-dir-lock');
  refuseHeldStateDir(config.FARM_STATE_DIR);
  await runService(
    log,
    config.FARM_METRICS_PORT,
    async () => {
      const app = await startFarmUp(env, log);
      return {
        ...app,
        stop: async () => {
          await app.stop();
          await scripted?.close();
        },
      };
    },
    config.FARM_API_HOST,
  );
}

/** The project's scripted OpenAI-compatible model, answering from `file`, as `farm up`'s model. */
export async function startScriptedModel(file: string, log: ReturnType<typeof createLogger>) {
  const { loadModelScript, startScriptedModelServer } = await import('@farm/scripted-llm');
  const server = await startScriptedModelServer({ script: await loadModelScript(file) });
  log.info('the model is the scripted one: answers come from the script, no model is paid', {
    script: file,
    url: server.baseURL,
  });
  return {
    env: {
      OPENAI_BASE_URL: server.baseURL,
      // A key no text contains: every secret is redacted wherever it appears, so a plain word would be too.
      OPENAI_API_KEY: 'farm-scripted-model-takes-no-key',
      FARM_PLANNER_MODEL: process.env.FARM_PLANNER_MODEL ?? 'scripted-planner',
      FARM_MODEL: process.env.FARM_MODEL ?? 'scripted-agent',
    },
    close: () => server.close(),
  };
}

export async function listCommand(o: { limit: string; json?: boolean }): Promise<void> {
  const { formatRequestList } = await import('./format');
  const list = await farmApi(loadCliConfig()).list(Number(o.limit));
  process.stdout.write((o.json ? JSON.stringify(list, null, 2) : formatRequestList(list)) + '\n');
}

export async function statusCommand(id: string | undefined, o: { json?: boolean }): Promise<void> {
  const { formatRequest, formatRequestList } = await import('./format');
  const api = farmApi(loadCliConfig());
  if (!id) {
    const list = await api.list();
    process.stdout.write((o.json ? JSON.stringify(list, null, 2) : formatRequestList(list)) + '\n');
    return;
  }
  const found = await api.get(id);
  process.stdout.write(
    (o.json ? JSON.stringify(found, null, 2) : formatRequest(found.request, found.tasks, found.forge)) + '\n',
  );
}

export async function cancelCommand(id: string, o: { reason: string; json?: boolean }): Promise<void> {
  const config = loadCliConfig();
  if (usesKafka(config)) {
    const { cancelChangeRequest } = await import('./submit');
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
}

async function connect(config: CliConfig, command: string): Promise<KafkaBus> {
  const { KafkaBus } = await import('@farm/bus');
  return KafkaBus.connect({
    brokers: requireBrokers(config, command),
    clientId: `farm-cli-${command}`,
    topicPrefix: config.FARM_TOPIC_PREFIX,
  });
}

/** Kafka only for a user who has only Kafka: KAFKA_BROKERS set and FARM_URL not. */
function usesKafka(config: CliConfig): boolean {
  return !!config.KAFKA_BROKERS && !process.env.FARM_URL;
}

/** The farm's HTTP API; an event stream survives a restart of the farm of up to a few minutes. */
function farmApi(config: CliConfig): ChangeRequestClient {
  return farmApiClient(config, { maxReconnects: 60 });
}

async function watchOverHttp(
  api: ChangeRequestClient,
  id: string,
  json: boolean | undefined,
  timeoutS?: number,
): Promise<number> {
  const [{ farm: proto }, { transitionToJson }, { ProgressView }] = await Promise.all([
    import('@farm/proto'),
    import('@farm/orchestrator'),
    import('./progress'),
  ]);
  const view = new ProgressView(process.stdout, !!json);
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
  return last?.toPhase === proto.v1.Phase.DONE ? 0 : 1;
}

async function watchOverKafka(
  bus: KafkaBus,
  id: string,
  json: boolean | undefined,
  timeoutS?: number,
): Promise<number> {
  const [{ farm: proto }, { transitionToJson }, { ProgressView }, { watchChangeRequest }] = await Promise.all([
    import('@farm/proto'),
    import('@farm/orchestrator'),
    import('./progress'),
    import('./submit'),
  ]);
  const view = new ProgressView(process.stdout, !!json);
  try {
    const last = await watchChangeRequest(bus, id, (t) => view.show(t, () => transitionToJson(t)), {
      timeoutMs: timeoutS ? timeoutS * 1000 : undefined,
    });
    return last.toPhase === proto.v1.Phase.DONE ? 0 : 1;
  } finally {
    view.close();
  }
}
