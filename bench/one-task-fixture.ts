/**
 * What the farm benches run: a local repository without checks (no package.json), a scripted model that plans
 * every request as one task and answers it with a one-line diff, and the embedded farm's environment for them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';

/** The one-line change every request asks for. */
const ONE_LINE_DIFF = `--- a/greeting.txt
+++ b/greeting.txt
@@ -1,2 +1,2 @@
 # greeting
-hello
+hello, farm
`;

export interface OneTaskFixture {
  /** A fresh temporary directory holding the repository (`repo`) and the farm's state and work directories. */
  tmp: string;
  repo: string;
  model: ScriptedModelServer;
  /** The embedded farm's environment (no KAFKA_BROKERS, DATABASE_URL, FARM_URL, FARM_TOKEN or FARM_LAUNCHER). */
  env: NodeJS.ProcessEnv;
}

export async function oneTaskFixture(name: string, metricsPort: number): Promise<OneTaskFixture> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const repo = path.join(tmp, 'repo');
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeFileSync(path.join(repo, 'greeting.txt'), '# greeting\nhello\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=b', '-c', 'user.email=b@x', ...args], { stdio: 'pipe' });
  git('add', '-A');
  git('commit', '-qm', 'first');
  const model = await startScriptedModelServer({
    script: {
      chat: [
        // The planner's answer: one item (the request stays one task).
        {
          match: 'You are the architect',
          repeat: true,
          content: JSON.stringify({
            notes: 'one task',
            items: [
              {
                id: 'greet',
                // a text change: no test can show it, and none is asked for (a feature would need one)
                kind: 'docs',
                goal: 'greet the farm',
                paths: ['greeting.txt'],
                symbols: [],
                depends_on: [],
              },
            ],
          }),
        },
        { repeat: true, answer: { diff: ONE_LINE_DIFF, reasoning: 'one line' } },
      ],
    },
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FARM_STATE_DIR: path.join(tmp, 'state'),
    FARM_WORK_DIR: path.join(tmp, 'work'),
    FARM_METRICS_PORT: String(metricsPort),
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'bench',
    FARM_MODEL: 'scripted-agent',
    FARM_PLANNER_MODEL: 'scripted-planner',
    // The scripted model answers with diffs: no tool call to be refused first.
    FARM_AGENT_STRATEGY: 'diff',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  };
  for (const v of ['KAFKA_BROKERS', 'DATABASE_URL', 'FARM_URL', 'FARM_TOKEN', 'FARM_LAUNCHER']) delete env[v];
  return { tmp, repo, model, env };
}
