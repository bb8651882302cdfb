// `farm up` on a repository with a real third-party test dependency (uvu, from the npm registry): the first request
// sets its environment up once (the agent's checks, the base run of its tests and the build share it), the second
// request on the same repository sets nothing up again, and both end DONE with the change verified.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { farm } from '@farm/proto';
import { ChangeRequestClient } from '@farm/farm-api';
import { agentStep, planStep } from '../testing';

const exec = promisify(execFile);
const FARM_BIN = path.join(__dirname, '..', 'bin', 'farm');

const FILES: Record<string, string> = {
  'package.json': JSON.stringify(
    { name: 'calc', private: true, scripts: { test: 'uvu test' }, devDependencies: { uvu: '0.5.6' } },
    null,
    2,
  ),
  'src/add.js': 'exports.add = (a, b) => a + b;\n',
  'test/add.js': [
    "const { test } = require('uvu');",
    "const assert = require('uvu/assert');",
    "const { add } = require('../src/add');",
    "test('add', () => assert.is(add(1, 2), 3));",
    'test.run();',
    '',
  ].join('\n'),
};

/** A task's change: a function and its uvu test (which fails on the base: the function is not there). */
const addFunction = (fn: string, body: string, call: string, expected: string) => {
  const src = [`exports.${fn} = ${body};`];
  const test = [
    "const { test } = require('uvu');",
    "const assert = require('uvu/assert');",
    `const { ${fn} } = require('../src/${fn}');`,
    `test('${fn}', () => assert.is(${call}, ${expected}));`,
    'test.run();',
  ];
  const file = (name: string, lines: string[]) =>
    `--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join('')}`;
  return file(`src/${fn}.js`, src) + file(`test/${fn}.js`, test);
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

describe('farm up on a repository whose tests need a dependency from the registry', () => {
  let tmp: string;
  let up: ChildProcess | undefined;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-shared-env-'));
  });
  afterAll(async () => {
    if (up && up.exitCode === null && !up.signalCode) up.kill('SIGKILL');
    await rm(tmp, { recursive: true, force: true });
  });

  test('the first request sets its environment up once; the second sets nothing up; both verified and DONE', async () => {
    const repo = path.join(tmp, 'calc');
    for (const [file, content] of Object.entries(FILES)) {
      await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
      await writeFile(path.join(repo, file), content);
    }
    const git = (...args: string[]) => exec('git', ['-C', repo, ...args]);
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-qm', 'initial');
    const SUB = 'Add sub to the library';
    const MUL = 'Add mul to the library';
    const script = path.join(tmp, 'script.json');
    await writeFile(
      script,
      JSON.stringify({
        chat: [
          { ...planStep([{ id: 'sub', goal: SUB }]), match: `CHANGE REQUEST: ${SUB}` },
          planStep([{ id: 'mul', goal: MUL }]),
          agentStep(SUB, addFunction('sub', '(a, b) => a - b', 'sub(5, 2)', '3')),
          agentStep(MUL, addFunction('mul', '(a, b) => a * b', 'mul(2, 3)', '6')),
        ],
      }),
    );
    const port = await freePort();
    const state = path.join(tmp, 'state');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FARM_STATE_DIR: state,
      FARM_WORK_DIR: path.join(tmp, 'work'),
      FARM_METRICS_PORT: String(port),
      // the install (only it) may reach the registry
      FARM_CHECK_HOST_NETWORK: 'install',
      LOG_LEVEL: 'info',
    };
    for (const name of ['KAFKA_BROKERS', 'DATABASE_URL', 'FARM_URL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY'])
      delete env[name];
    delete env.FARM_ENVIRONMENTS_DIR; // farm up's own: <state>/environments
    up = spawn(FARM_BIN, ['up', '--model-script', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(path.join(tmp, 'farm-up.log'));
    up.stdout!.pipe(log);
    up.stderr!.pipe(log);
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (
        await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (up.exitCode !== null || i > 1200) throw new Error(`farm up did not start; see ${tmp}/farm-up.log`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const token = (await readFile(path.join(state, 'admin-token'), 'utf8')).trim();
    const api = new ChangeRequestClient({ baseUrl: url, token, maxReconnects: 60 });
    const run = async (title: string) => {
      const { changeRequestId: id } = await api.submit({ title, repo: { url: repo, baseRef: 'main' } });
      let last: farm.v1.PhaseTransition | undefined;
      for await (const t of api.events(id, { signal: AbortSignal.timeout(400_000) })) last = t;
      const found = await api.get(id);
      return { phase: farm.v1.Phase[last!.toPhase], reason: found.request.reason, task: found.tasks[0] };
    };
    /** What the agents' and builds' logs say about environments, by message. */
    const said = async () => {
      const counts: Record<string, number> = {};
      const files = (await readdir(state, { recursive: true })).filter((f) => f.endsWith('.log'));
      for (const file of files) {
        for (const line of (await readFile(path.join(state, file), 'utf8')).split('\n')) {
          const msg =
            /"msg":"((?:setting up an environment|environment set up|waiting for the environment)[^"]*)"/.exec(
              line,
            )?.[1];
          if (msg) counts[msg] = (counts[msg] ?? 0) + 1;
        }
      }
      return counts;
    };

    const first = await run(SUB);
    expect([first.phase, first.reason]).toEqual(['DONE', expect.any(String)]);
    expect(first.task.verification).toMatchObject({
      differential: { testFiles: ['test/sub.js'], base: 'TEST_RUN_FAILED', branch: 'TEST_RUN_PASSED' },
    });
    const environments = (await readdir(path.join(state, 'environments'))).filter((f) => f.startsWith('node-'));
    expect(environments).toHaveLength(1);
    expect(await said()).toEqual({ 'setting up an environment': 1, 'environment set up': 1 });

    const second = await run(MUL);
    expect(second.phase).toBe('DONE');
    expect(second.task.verification).toMatchObject({ differential: { testFiles: ['test/mul.js'] } });
    // Nothing set up again: the same one environment, the same one set-up in every log.
    expect((await readdir(path.join(state, 'environments'))).filter((f) => f.startsWith('node-'))).toEqual(
      environments,
    );
    expect(await said()).toEqual({ 'setting up an environment': 1, 'environment set up': 1 });
    up.kill('SIGTERM');
  }, 900_000);
});
