// A warm agent of `farm up`'s local pool (FARM_LAUNCHER=pool on one machine): started by the farm with an IPC
// channel, it runs the tasks the farm hands it, one at a time, each with a log file of its own, and answers each
// with its CommitResult. Start-up (Node, the modules, the model client) is paid once per worker, not per task.
// It exits when the channel closes (the farm went away) and, like a job, on any error a task did not contain.
import { createWriteStream } from 'node:fs';
import { farm } from '@farm/proto';
import { configureGitCredentials, gitCredentialsConfigSchema } from '@farm/git';
import { createLogger, errorMessage, loadConfigOrExit } from '@farm/runtime';
import { agentDepsFromConfig } from './agent-deps';
import { agentConfigSchema } from './config';
import { agentMetricSamples } from './metrics';
import { poolMessageSchema, type PoolReply } from './pool-protocol';
import { readTask } from './read-task';
import { runCodingTask } from './run-task';

const send = (reply: PoolReply) => process.send?.(reply);

if (!process.send) {
  process.stderr.write('agent-pool-worker: runs under farm up only (started with an IPC channel)\n');
  process.exit(64);
}

const config = loadConfigOrExit(agentConfigSchema);
const gitCredentials = loadConfigOrExit(gitCredentialsConfigSchema);
configureGitCredentials(gitCredentials);

let busy = false;

async function runOne(taskBase64: string, logFile: string): Promise<void> {
  const out = createWriteStream(logFile, { flags: 'a' });
  const log = createLogger('coding-agent', { write: (line) => out.write(line + '\n') });
  try {
    const task = readTask([], { FARM_TASK: taskBase64 });
    log.info('task taken by a pool worker', { taskId: task.id, pid: process.pid });
    const deps = agentDepsFromConfig(config, log, [gitCredentials.FARM_GIT_TOKEN]);
    // The farm publishes each step on its bus (LocalAgentPool).
    deps.services.steps = {
      publish: async (_topic, step) =>
        void send({
          kind: 'step',
          taskId: task.id,
          step: Buffer.from(farm.v1.TaskStep.encode(step as farm.v1.TaskStep).finish()).toString('base64'),
        }),
    };
    const result = await runCodingTask(task, deps);
    result.agentMetrics = await agentMetricSamples(); // what this task added: the farm serves the pool's sum
    send({
      kind: 'result',
      taskId: task.id,
      result: Buffer.from(farm.v1.CommitResult.encode(farm.v1.CommitResult.fromObject(result)).finish()).toString(
        'base64',
      ),
    });
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
}

process.on('message', (raw: unknown) => {
  const parsed = poolMessageSchema.safeParse(raw);
  if (!parsed.success || busy) {
    // The farm sends one task at a time: anything else is a bug on its side, and this worker's state unknown.
    process.stderr.write(`agent-pool-worker: unexpected message ${busy ? 'while busy' : errorMessage(parsed.error)}\n`);
    process.exit(70);
  }
  busy = true;
  runOne(parsed.data.task, parsed.data.logFile).then(
    () => (busy = false),
    (err: unknown) => {
      // As a job would: the task is reported by the farm as ended without a result, and dispatched again.
      process.stderr.write(`coding-agent crashed: ${(err as Error)?.stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(busy ? 1 : 0));
send({ kind: 'ready', pid: process.pid });
