/** `farm trajectories export`: declared here, its code loaded when it runs. */
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_EVAL_DIR } from '../eval/eval-dir';

interface ExportFlags {
  out: string;
  format?: 'jsonl' | 'parquet';
  run?: string;
  evalDir: string;
  stateDir?: string;
  repo?: string;
  since?: Date;
  limit: number;
}

export function registerTrajectoriesCommand(program: Command): void {
  program
    .command('trajectories')
    .description('the agents’ trajectories as a dataset')
    .command('export')
    .description(
      'write the trajectories of an evaluation run (--run) or of a farm’s history (the farm at FARM_URL, the ' +
        'database of a stopped `farm up` (--state-dir, FARM_STATE_DIR) or DATABASE_URL) as JSON Lines or Parquet ' +
        'rows of one schema, secrets redacted',
    )
    .requiredOption('--out <file>', 'the file to write (.jsonl or .parquet)')
    .addOption(new Option('--format <format>', 'jsonl or parquet (default: from --out)').choices(['jsonl', 'parquet']))
    .option('--run <id|dir>', 'the trajectories of this `farm eval` run')
    .option('--eval-dir <dir>', 'where `farm eval` keeps its runs', DEFAULT_EVAL_DIR)
    .option('--state-dir <dir>', 'a `farm up` state directory (default: FARM_STATE_DIR, unless DATABASE_URL is set)')
    .option('--repo <text>', 'only requests whose repository URL or path contains this')
    .addOption(
      new Option('--since <time>', 'only requests created at or after this time (ISO 8601)').argParser((v) => {
        const d = new Date(v);
        if (Number.isNaN(d.getTime())) throw new InvalidArgumentError('an ISO 8601 date or time');
        return d;
      }),
    )
    .addOption(
      new Option('--limit <n>', 'the most recent requests looked at')
        .argParser((v) => {
          const n = Number(v);
          if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a positive whole number');
          return n;
        })
        .default(1000),
    )
    .action(async (o: ExportFlags) => {
      const [exporter, { createLogger }, { resolveRunDir }, { loadCliConfig }, { cliApiUrl, cliToken, farmApiClient }] =
        await Promise.all([
          import('./trajectories-export'),
          import('@farm/runtime'),
          import('../eval/run-results'),
          import('../config'),
          import('../farm-api-client'),
        ]);
      const runDir = o.run ? resolveRunDir(o.evalDir, o.run) : undefined;
      const config = loadCliConfig();
      const filters = { repo: o.repo, since: o.since, limit: o.limit };
      let rows;
      if (!runDir && !o.stateDir && process.env.FARM_URL) {
        rows = await exporter.collectTrajectoryRowsOverApi(
          farmApiClient(config),
          exporter.trajectoryOverHttp(cliApiUrl(config), cliToken(config)),
          { ...filters, stateDir: config.FARM_STATE_DIR },
        );
      } else {
        const databaseUrl = runDir || o.stateDir ? undefined : process.env.DATABASE_URL || undefined;
        rows = await exporter.collectTrajectoryRows({
          stateDir: runDir
            ? path.join(runDir, 'farm')
            : databaseUrl
              ? undefined
              : path.resolve(o.stateDir ?? config.FARM_STATE_DIR),
          databaseUrl,
          trajectoryDir: runDir ? path.join(runDir, 'trajectories') : process.env.FARM_TRAJECTORY_DIR,
          ...filters,
          log: createLogger('farm-trajectories', { level: 'warn' }),
        });
      }
      const format = o.format ?? (o.out.endsWith('.parquet') ? 'parquet' : 'jsonl');
      await exporter.writeRows(rows, o.out, format);
      process.stdout.write(`${rows.length} trajectory row(s) written to ${o.out} (${format})\n`);
    });
}
