// Job-style entry point: one task in, its CommitResult out, and an exit code saying how it went
// (0 SUCCESS, 2 SOFT_FAIL, 3 HARD_FAIL, 64 bad input or configuration).
import { farm } from '@farm/proto';
import { join } from 'node:path';
import { LIVE_SPOOL, SpoolDirBus, Topics, connectKafkaFromEnv, type EventBus } from '@farm/bus';
import { configureGitCredentials, gitCredentialsConfigSchema } from '@farm/git';
import { ConfigError, createLogger, errorMessage, loadConfig } from '@farm/runtime';
import { reportConfinement, sandboxRunnerFromEnv } from '@farm/sandbox';
import { agentDepsFromConfig } from './agent-deps';
import { loadAgentConfig } from './config';
import { agentMetricSamples } from './metrics';
import { BadTaskInput, readTask } from './read-task';
import { runCodingTask } from './run-task';

const EXIT: Record<number, number> = {
  [farm.v1.CommitStatus.SUCCESS]: 0,
  [farm.v1.CommitStatus.SOFT_FAIL]: 2,
  [farm.v1.CommitStatus.HARD_FAIL]: 3,
};

async function main(): Promise<number> {
  const log = createLogger('coding-agent');
  let task: farm.v1.CodingTask;
  let bus: EventBus;
  try {
    task = readTask(process.argv.slice(2), process.env);
    const config = loadAgentConfig();
    const gitCredentials = loadConfig(gitCredentialsConfigSchema);
    configureGitCredentials(gitCredentials);
    if (config.FARM_AGENT_SPOOL_DIR) bus = new SpoolDirBus(config.FARM_AGENT_SPOOL_DIR, log);
    else if (config.KAFKA_BROKERS) bus = await connectKafkaFromEnv(`coding-agent-${task.id}`, log);
    else throw new ConfigError('KAFKA_BROKERS is required when the agent does not run under a one-machine farm');
    // The pod's sandbox runner, said once at start; a gap (or no answer) refuses the task in its set-up.
    if (sandboxRunnerFromEnv())
      await reportConfinement(log).catch((err: unknown) =>
        log.error('the sandbox runner does not answer: the task will be refused', { err: errorMessage(err) }),
      );
    const deps = agentDepsFromConfig(config, log, [gitCredentials.FARM_GIT_TOKEN]);
    // Steps as they happen: on Kafka straight away; under a one-machine farm spooled apart from the result, in
    // `live/`, which the launcher publishes while the agent runs.
    deps.services.steps = config.FARM_AGENT_SPOOL_DIR
      ? new SpoolDirBus(join(config.FARM_AGENT_SPOOL_DIR, LIVE_SPOOL), log)
      : bus;
    const result = await runCodingTask(task, deps);
    // Nobody scrapes a process that lives for one task: its metrics travel with its result.
    result.agentMetrics = await agentMetricSamples();
    await bus.publish(Topics.commitResults, farm.v1.CommitResult.fromObject(result));
    await bus.close();
    return EXIT[result.status ?? 0] ?? 1;
  } catch (err) {
    if (err instanceof BadTaskInput || err instanceof ConfigError) {
      log.error('cannot start task', { err: errorMessage(err) });
      return 64;
    }
    throw err;
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`coding-agent crashed: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
