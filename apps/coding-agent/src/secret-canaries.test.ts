// Canaries through every way a secret reaches an agent: a `--repo` URL's credentials (taken off by the intake
// into its credentials file), the operator's own credentials file, the agent's environment (model key, component
// and forge tokens) and a URL written in the repository that no process holds. The repository quotes them all;
// the model reads them, searches for them, prints them, copies them into the change and quotes them when it
// finishes. Not one may reach a byte the agent writes: its trajectory, live steps, result, logs and prompts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TopicSpec } from '@farm/bus';
import {
  configureGitCredentials,
  seedBareRepo,
  startGitHttpServer,
  takeCredentialsFromUrl,
  type GitHttpServer,
} from '@farm/git';
import { farm } from '@farm/proto';
import { createLogger } from '@farm/runtime';
import { startScriptedModelServer, type ScriptStep } from '@farm/scripted-llm';
import { agentDepsFromConfig } from './agent-deps';
import { loadAgentConfig } from './config';
import { runCodingTask } from './run-task';

const CANARY = {
  urlToken: 'canary-url-token-7f3a91',
  operatorFileToken: 'canary-file-token-2c84e0',
  modelKey: 'canary-model-key-91b2c3',
  componentToken: 'canary-component-token-00000000000001',
  forgeToken: 'canary-forge-token-44d1e2',
  shapeOnly: 'canary-shape-only-3d2c5b',
};
const ENV = {
  OPENAI_API_KEY: CANARY.modelKey,
  FARM_COMPONENT_TOKEN: CANARY.componentToken,
  FARM_FORGE_TOKEN: CANARY.forgeToken,
};
/** The repository's file quoting every canary, one as a URL's credentials nobody holds. */
const LEAK = [
  `url token: ${CANARY.urlToken}`,
  `operator token: ${CANARY.operatorFileToken}`,
  `model key: "${CANARY.modelKey}"`,
  `component token: ${CANARY.componentToken}`,
  `forge token: ${CANARY.forgeToken}`,
  `mirror: https://someone:${CANARY.shapeOnly}@elsewhere.example/x.git`,
  '',
].join('\n');

let tmp: string;
let git: GitHttpServer;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agent-canaries-'));
  // The agent's process holds the environment's canaries as a deployed agent does.
  for (const [name, value] of Object.entries(ENV)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  git = await startGitHttpServer({
    root: path.join(tmp, 'git'),
    auth: { username: 'bot', password: CANARY.urlToken },
  });
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  configureGitCredentials({ FARM_GIT_USERNAME: 'x-access-token' });
  await git.close();
  await rm(tmp, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown> = {}): ScriptStep => ({
  toolCalls: [{ name, arguments: args }],
});

test('no canary given by URL, file, environment or only written in the repository reaches what the agent writes', async () => {
  // The intake takes the credentials off the submitted URL; the task carries the bare URL.
  const bare = await git.createBareRepo('private.git');
  const submitted = bare.replace('://', `://bot:${CANARY.urlToken}@`);
  const intake = path.join(tmp, 'intake-credentials');
  const operatorFile = path.join(tmp, 'operator-credentials');
  await writeFile(intake, '', { mode: 0o600 });
  await writeFile(operatorFile, `https://deploy:${CANARY.operatorFileToken}@other.example\n`, { mode: 0o600 });
  const repoUrl = takeCredentialsFromUrl(submitted, intake);
  expect(repoUrl).toBe(bare);
  const credentialsFiles = `${intake}:${operatorFile}`;
  configureGitCredentials({ FARM_GIT_USERNAME: 'x-access-token', FARM_GIT_CREDENTIALS_FILE: credentialsFiles });
  const baseCommit = await seedBareRepo({
    url: repoUrl,
    files: { 'README.md': '# app\n', 'config/leak.txt': LEAK },
    message: 'initial',
  });

  const model = await startScriptedModelServer({
    script: {
      chat: [
        call('read_file', { path: 'config/leak.txt' }),
        call('search', { pattern: 'token' }),
        call('run_command', { command: 'cat config/leak.txt' }),
        call('create_file', { path: 'docs/copied.md', content: `# copied\n${LEAK}` }),
        call('finish', { summary: `Copied the settings (${CANARY.urlToken}, ${CANARY.forgeToken}).` }),
        { match: 'You review', content: JSON.stringify({ approved: true, objections: [] }) },
      ],
    },
  });
  const logLines: string[] = [];
  const published: string[] = [];
  try {
    const env = {
      ...process.env,
      OPENAI_BASE_URL: model.baseURL,
      FARM_GIT_CREDENTIALS_FILE: credentialsFiles,
      FARM_TRAJECTORY_DIR: path.join(tmp, 'trajectories'),
      FARM_WORK_DIR: path.join(tmp, 'work'),
      FARM_REVIEW_ROUNDS: '1',
      FARM_UNVERIFIED_CHANGES: 'deliver',
      FARM_LESSONS: 'on',
      FARM_LLM_MAX_RETRIES: '0',
    };
    const log = createLogger('coding-agent', { level: 'debug', write: (line) => logLines.push(line) });
    const deps = agentDepsFromConfig(loadAgentConfig(env), log, [], env);
    deps.services.steps = {
      publish: async <T>(_topic: TopicSpec<T>, message: T) => {
        published.push((message as farm.v1.ITaskStep).line ?? '');
      },
    };
    const task: farm.v1.ICodingTask = {
      id: 'cr-canary-a',
      changeRequestId: 'cr-canary',
      goal: 'Copy config/leak.txt into docs/copied.md',
      repo: { url: repoUrl, baseRef: 'main', baseCommit },
      dispatch: 1,
    };
    const result = await runCodingTask(task, deps);

    // The task ran through: it cloned with the intake's credentials and delivered the copy.
    expect(farm.v1.CommitStatus[result.status!]).toBe('SUCCESS');
    expect(result.report?.diff).toContain('+url token: [secret redacted]');
    expect(published.length).toBeGreaterThan(3);
    const outputs = {
      trajectory: await readFile(path.join(tmp, 'trajectories', 'cr-canary-a.1.jsonl'), 'utf8'),
      liveSteps: published.join('\n'),
      result: JSON.stringify(farm.v1.CommitResult.toObject(farm.v1.CommitResult.fromObject(result))),
      logs: logLines.join('\n'),
      // What the model was sent, less its own turns (this script's model knows the canaries; a real one saw
      // only what the agent sent it).
      prompts: JSON.stringify(model.requests.map((r) => r.messages.filter((m) => m.role !== 'assistant'))),
    };
    for (const [output, text] of Object.entries(outputs)) {
      for (const [kind, canary] of Object.entries(CANARY)) {
        expect({ output, kind, leaked: text.includes(canary) }).toEqual({ output, kind, leaked: false });
      }
    }
    // What was read is still there to follow, the secrets marked.
    expect(outputs.trajectory).toContain('url token: [secret redacted]');
    expect(outputs.trajectory).toContain('https://[secret redacted]@elsewhere.example/x.git');
  } finally {
    await model.close();
  }
});
