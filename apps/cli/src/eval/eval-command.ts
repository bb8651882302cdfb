/** `farm eval run | compare`: declared here, their code loaded when one runs. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_EVAL_DIR } from './eval-dir';
import type { EvalRunFlags } from './eval-cli';

const positive = (what: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${what}: a positive number`);
  return n;
};

export function registerEvalCommand(program: Command): void {
  const evalCmd = program
    .command('eval')
    .description(
      'evaluation runs on SWE-bench-format task instances: resolved rate, predictions, reports, comparisons',
    );
  evalCmd
    .command('run')
    .description(
      'run each instance through the farm (embedded, or the farm at FARM_URL) and judge it with its own tests; ' +
        'the same --run-id again resumes, skipping finished instances',
    )
    .requiredOption('--dataset <file.jsonl>', "task instances in SWE-bench's JSON Lines format")
    .option('--instances <ids>', 'only these instance ids (comma-separated)')
    .option('--run-id <name>', 'the run (its directory under --out-dir); default: the dataset name and the date')
    .option('--model-name <name>', 'model_name_or_path in the predictions (default: FARM_MODEL)')
    .option('--model-script <file>', 'answer from this scripted-model JSON file (no paid model)')
    .addOption(
      new Option('--concurrency <n>', 'instances in flight at once').argParser(positive('--concurrency')).default(4),
    )
    .addOption(
      new Option('--max-cost-usd <usd>', 'start no instance once the run cost this much').argParser(
        positive('--max-cost-usd'),
      ),
    )
    .addOption(
      new Option('--instance-timeout <s>', "an instance's time in the farm before it is recorded incomplete")
        .argParser(positive('--instance-timeout'))
        .default(3600),
    )
    .addOption(
      new Option('--test-timeout <s>', "each run of an instance's tests")
        .argParser(positive('--test-timeout'))
        .default(1800),
    )
    .option('--out-dir <dir>', 'where runs are kept', DEFAULT_EVAL_DIR)
    .option(
      '--repos-dir <dir>',
      'local mirrors of the repositories (owner__name.bundle, owner__name, owner/name, name; a .git suffix too)',
    )
    .option('--json', 'print the report as JSON')
    .action(async (o: EvalRunFlags) => (await import('./eval-cli')).evalRunCommand(o));
  evalCmd
    .command('regrade <run>')
    .description(
      "grade a run's verdicts again from the test output kept with each (no farm, no model, no test run); " +
        'changed verdicts are recorded and the report written again',
    )
    .option('--out-dir <dir>', 'where runs are kept', DEFAULT_EVAL_DIR)
    .option('--json', 'print JSON')
    .action(async (run: string, o: { outDir: string; json?: boolean }) =>
      (await import('./eval-cli')).evalRegradeCommand(run, o),
    );
  evalCmd
    .command('compare <runs...>')
    .description(
      'compare runs (ids under --out-dir, or directories) instance by instance, each against the first, with exact McNemar p-values',
    )
    .option('--out-dir <dir>', 'where runs are kept', DEFAULT_EVAL_DIR)
    .option('--json', 'print JSON')
    .action(async (runs: string[], o: { outDir: string; json?: boolean }) =>
      (await import('./eval-cli')).evalCompareCommand(runs, o),
    );
}
