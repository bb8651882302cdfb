import { Command, Option } from 'commander';
import { ApiError, ApiUnreachable } from '@farm/farm-api';
import { ConfigError, FarmError } from '@farm/runtime';
import type { SubmitOptions } from './commands';
import { registerScaleCommand } from './scale-command';
import { registerLessonsCommand } from './lessons-command';
import { registerTokenCommand } from './token-command';
import { registerApprovalCommands } from './approval-commands';
import { registerEvalCommand } from './eval/eval-command';
import { registerTrajectoriesCommand } from './trajectories/trajectories-command';

/** The commands' code, loaded when one runs: `farm --help` and a command's help load only this file. */
const commands = () => import('./commands');

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
  .option('--require-approval', 'wait for a person to approve the plan before any task starts (farm approve)')
  .option('--json', 'print JSON')
  .action(async (o: SubmitOptions) => (await commands()).submitCommand(o));

program
  .command('watch <id>')
  .description('follow a change request: every phase transition and task result from the first, until a final phase')
  .option('--json', 'one JSON object per transition')
  .addOption(new Option('--timeout <seconds>', 'give up after this long').argParser(Number))
  .action(async (id: string, o) => (await commands()).watchCommand(id, o));

program
  .command('demo')
  .description('run the whole farm on this machine against a generated sample repo with the scripted model')
  .option('--keep', 'keep the demo directory (repos, agent logs)')
  .option('--model-script <file>', 'answer from this scripted-model JSON file instead of the built-in one')
  .option('--serve', 'afterwards keep the farm up with its console (FARM_METRICS_PORT, 9464) until Ctrl-C')
  .action(async (o) => (await commands()).demoCommand(o));

program
  .command('up')
  .description(
    'run the farm in this process: orchestrator, planners, build phase, srm and an agent process per task; ' +
      'the in-process bus and PGlite under FARM_STATE_DIR, or Kafka when KAFKA_BROKERS is set',
  )
  .option(
    '--model-script <file>',
    'answer the planner and the agents from this scripted-model JSON file (no paid model; format: docs of `farm demo`)',
  )
  .action(async (o: { modelScript?: string }) => (await commands()).upCommand(o));

program
  .command('list')
  .description('the most recent change requests with their phase and task progress')
  .option('--limit <n>', 'how many', '50')
  .option('--json', 'print JSON')
  .action(async (o) => (await commands()).listCommand(o));

program
  .command('status [id]')
  .description('one change request with its tasks, or the table of requests without an id')
  .option('--json', 'print JSON')
  .action(async (id: string | undefined, o) => (await commands()).statusCommand(id, o));

program
  .command('cancel <id>')
  .description('cancel a change request: running tasks are stopped, leases released, state CANCELLED')
  .option('--reason <text>', 'why', '')
  .option('--json', 'print JSON')
  .action(async (id: string, o) => (await commands()).cancelCommand(id, o));

program
  .command('doctor')
  .description(
    'ask the model endpoint (OPENAI_BASE_URL, FARM_MODEL, the planner and reviewer models) what it can do: ' +
      'context, slots, tool calls, JSON, output limits, overflows; says what will not work and the setting that fixes it',
  )
  .option('--json', 'print the facts and findings as JSON')
  .option(
    '--overflow-up-to <tokens>',
    'send a request longer than the context only when the context is at most this',
    '65536',
  )
  .action(async (o) => (await import('./doctor')).doctorCommand(o));

registerApprovalCommands(program);
registerScaleCommand(program);
registerLessonsCommand(program);
registerTokenCommand(program);
registerEvalCommand(program);
registerTrajectoriesCommand(program);

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
