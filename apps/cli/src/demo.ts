import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { farm } from '@farm/proto';
import { Topics } from '@farm/bus';
import { ConfigError, createLogger, errorMessage, serveMetrics, stateLayout } from '@farm/runtime';
import { loadModelScript, startScriptedModelServer, type ModelScript } from '@farm/scripted-llm';
import { startFarmUp, submitToFarm } from './farm-up';
import { planStep } from './sample-repo';
import { SAMPLE_DIFF, SAMPLE_REPO_FILES, SAMPLE_REQUEST } from './sample-repo';
import { formatTransition } from './format';
import { watchChangeRequest } from './submit';

const P = farm.v1.Phase;
const run = promisify(execFile);

/**
 * The demo's own script for the scripted model: the planner's answer (one task) and the agent's (the diff). The
 * same script, as JSON, is the complete example of docs/scripted-model.md (a unit test keeps the two equal).
 */
export const DEMO_SCRIPT: ModelScript = {
  chat: [
    planStep([{ id: 'multiply', goal: SAMPLE_REQUEST.description, paths: ['src/calculator.js'] }]),
    { match: 'TASK GOAL:', repeat: true, answer: { diff: SAMPLE_DIFF, reasoning: 'Add multiply and its test.' } },
  ],
};

/** The demo's repository: a work tree on this machine, as a user's own would be. */
async function createSampleRepo(dir: string): Promise<string> {
  for (const [file, content] of Object.entries(SAMPLE_REPO_FILES)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  const git = (...args: string[]) => run('git', ['-C', dir, ...args]);
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git(
    '-c',
    'user.name=farm-demo',
    '-c',
    'user.email=demo@agent-farm.local',
    'commit',
    '-qm',
    'Initial sample calculator',
  );
  return (await git('rev-parse', 'HEAD')).stdout.trim();
}

/**
 * The whole farm on one machine, as `farm up` runs it (in-process bus journaled in PGlite, the srm, the git
 * server, an agent process per task), against a generated repository on this machine and the scripted model.
 * Streams the phases, then shows the branches the farm put back into the repository.
 */
export async function runDemo(opts: {
  keep?: boolean;
  modelScript?: string;
  /** Keep the farm up afterwards, its API and console served, until `until` (Ctrl-C from the CLI). */
  serve?: boolean;
  until?: Promise<void>;
  out?: (line: string) => void;
}): Promise<number> {
  const out = opts.out ?? ((line: string) => process.stdout.write(line + '\n'));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'farm-demo-'));
  const log = createLogger('farm-demo', { level: (process.env.LOG_LEVEL as 'info') || 'warn' });
  const script: ModelScript = opts.modelScript ? await loadModelScript(opts.modelScript) : DEMO_SCRIPT;
  const model = await startScriptedModelServer({ script });
  const repo = path.join(dir, 'sample-calculator');
  const baseCommit = await createSampleRepo(repo);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FARM_STATE_DIR: path.join(dir, 'state'),
    FARM_WORK_DIR: path.join(dir, 'work'),
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'demo',
    FARM_PLANNER_MODEL: 'scripted-planner',
    FARM_MODEL: 'scripted-agent',
  };
  for (const name of ['KAFKA_BROKERS', 'DATABASE_URL', 'FARM_LAUNCHER']) delete env[name]; // always the embedded farm
  const app = await startFarmUp(env, log, { announce: false });
  try {
    out(`repository    ${repo} (main at ${baseCommit.slice(0, 12)})`);
    out(`model         scripted, ${model.baseURL}`);
    const results: farm.v1.CommitResult[] = [];
    await app.bus.subscribe(Topics.commitResults, 'demo', async (r) => void results.push(r));
    const id = await submitToFarm(app, { repoUrl: repo, baseRef: 'main', ...SAMPLE_REQUEST });
    out(`submitted     ${id}: ${SAMPLE_REQUEST.title}\n`);
    const last = await watchChangeRequest(app.bus, id, (t) => out(formatTransition(t)), { timeoutMs: 300_000 });
    const result = results.find((r) => r.changeRequestId === id && r.status === farm.v1.CommitStatus.SUCCESS);
    if (last.toPhase !== P.DONE || !result) {
      out(`\nthe request did not succeed: ${last.reason}`);
      out(`agent logs: ${path.join(dir, 'state', 'logs')}`);
      return 1;
    }
    await app.localRepos.whenSynced(id, 30_000);
    const { stdout: diff } = await run('git', ['-C', repo, 'diff', baseCommit, result.branchName]);
    out(
      `\nbranch        ${result.branchName} at ${result.commitSha.slice(0, 12)} (${result.attempts} attempt(s), ${result.tokenUsage?.totalTokens} tokens)`,
    );
    out(`\n${diff}`);
    out(`integrated    farm/${id} (the build merged the task branches and ran the repo's tests)`);
    out(`both branches were fetched back into ${repo}`);
    if (opts.serve) await serveUntil(app, env, opts.until, out);
    out(
      opts.keep
        ? `kept          ${dir} (git -C ${repo} branch --list 'agt/*' 'farm/*')`
        : `removed       ${dir} (run with --keep to look around)`,
    );
    return 0;
  } finally {
    await app.stop();
    await model.close();
    if (!opts.keep) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The demo's farm, still up: its API and console served on FARM_METRICS_PORT (9464 unless set) until `until`, so
 * the request can be looked at in the browser; stopped and cleaned up afterwards as without it.
 */
async function serveUntil(
  app: Awaited<ReturnType<typeof startFarmUp>>,
  env: NodeJS.ProcessEnv,
  until: Promise<void> | undefined,
  out: (line: string) => void,
): Promise<void> {
  const port = Number(env.FARM_METRICS_PORT ?? 9464);
  const server = await serveMetrics(port, undefined, app.routes, app.health, '127.0.0.1').catch((err: unknown) => {
    throw new ConfigError(
      `the demo's console cannot listen on 127.0.0.1:${port} (${errorMessage(err)}): set FARM_METRICS_PORT to a free port`,
    );
  });
  const tokenFile = stateLayout(env.FARM_STATE_DIR!).adminToken;
  out(`console       http://127.0.0.1:${server.port}/ (sign in with the token in ${tokenFile})`);
  out(`              the farm stays up until Ctrl-C (FARM_METRICS_PORT chooses the port)`);
  try {
    await (until ?? new Promise<void>((resolve) => process.once('SIGINT', () => resolve())));
  } finally {
    await server.close();
  }
}
