import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { farm } from '@farm/proto';
import { InProcessBus, Topics } from '@farm/bus';
import { AGENT_JOB_ENTRY } from '@farm/coding-agent';
import { seedBareRepo, startGitHttpServer } from '@farm/git';
import { ChildProcessLauncher } from '@farm/orchestrator';
import { createLogger } from '@farm/runtime';
import { loadModelScript, startScriptedModelServer, type ModelScript } from '@farm/scripted-llm';
import { createPgliteStore } from '@farm/store';
import { startFarm } from './local-farm';
import { SAMPLE_DIFF, SAMPLE_REPO_FILES, SAMPLE_REQUEST } from './sample-repo';
import { formatTransition } from './format';
import { submitChangeRequest, watchChangeRequest } from './submit';

const P = farm.v1.Phase;

/**
 * The whole farm on one machine: a generated sample repo behind the git smart-HTTP server, the scripted model,
 * the in-process bus, PGlite and an agent process per task. Streams the phases, then prints the branch and diff.
 */
export async function runDemo(opts: {
  keep?: boolean;
  modelScript?: string;
  out?: (line: string) => void;
}): Promise<number> {
  const out = opts.out ?? ((line: string) => process.stdout.write(line + '\n'));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'farm-demo-'));
  const log = createLogger('farm-demo', { level: (process.env.LOG_LEVEL as 'info') || 'warn' });
  const git = await startGitHttpServer({ root: path.join(dir, 'git') });
  const script: ModelScript = opts.modelScript
    ? await loadModelScript(opts.modelScript)
    : { chat: [{ repeat: true, answer: { diff: SAMPLE_DIFF, reasoning: 'Add multiply and its test.' } }] };
  const model = await startScriptedModelServer({ script });
  const bus = new InProcessBus(log);
  const store = await createPgliteStore();
  const launcher = new ChildProcessLauncher({
    bus,
    log,
    agentEntry: AGENT_JOB_ENTRY,
    logDir: path.join(dir, 'agent-logs'),
    env: {
      ...process.env,
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'demo',
      FARM_WORK_DIR: path.join(dir, 'work'),
    },
  });
  const app = await startFarm({ bus, store, launcher, log });
  try {
    const repoUrl = await git.createBareRepo('sample-calculator.git');
    const baseCommit = await seedBareRepo({
      url: repoUrl,
      files: SAMPLE_REPO_FILES,
      message: 'Initial sample calculator',
    });
    out(`sample repo   ${repoUrl} (main at ${baseCommit.slice(0, 12)})`);
    out(`model         scripted, ${model.baseURL}`);
    const results: farm.v1.CommitResult[] = [];
    await bus.subscribe(Topics.commitResults, 'demo', async (r) => void results.push(r));
    const id = await submitChangeRequest(bus, { repoUrl, baseRef: 'main', ...SAMPLE_REQUEST });
    out(`submitted     ${id}: ${SAMPLE_REQUEST.title}\n`);
    const last = await watchChangeRequest(bus, id, (t) => out(formatTransition(t)), { timeoutMs: 300_000 });
    const result = results.find((r) => r.changeRequestId === id);
    if (last.toPhase !== P.DONE || !result || result.status !== farm.v1.CommitStatus.SUCCESS) {
      out(`\nthe request did not succeed: ${last.reason}`);
      out(`agent logs: ${path.join(dir, 'agent-logs')}`);
      return 1;
    }
    const run = promisify(execFile);
    const checkout = path.join(dir, 'review');
    await run('git', ['clone', '-q', '--branch', result.branchName, repoUrl, checkout]);
    const { stdout: diff } = await run('git', ['diff', baseCommit, 'HEAD'], { cwd: checkout });
    out(
      `\nbranch        ${result.branchName} at ${result.commitSha.slice(0, 12)} (${result.attempts} attempt(s), ${result.tokenUsage?.totalTokens} tokens)`,
    );
    out(`\n${diff}`);
    out(`integrated    farm/${id} (the build merged the task branches and ran the repo's tests)`);
    if (opts.keep) out(`kept          ${dir} (git server stopped; the bare repo is in ${path.join(dir, 'git')})`);
    return 0;
  } finally {
    await app.stop();
    await bus.close();
    await store.close();
    await model.close();
    await git.close();
    if (!opts.keep) await rm(dir, { recursive: true, force: true });
  }
}
