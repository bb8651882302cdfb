// `farm up` on a repository with a real third-party test dependency (uvu, from the npm registry): the first request
// sets its environment up once (the agent's checks, the base run of its tests and the build share it), the second
// request on the same repository sets nothing up again, and both end DONE with the change verified.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { farm } from '@farm/proto';
import { agentStep, makeLocalRepo, planStep, startFarmUpProcess } from '../testing';

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
    await makeLocalRepo(repo, 'main', FILES);
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
    const state = path.join(tmp, 'state');
    const started = await startFarmUpProcess({
      stateDir: state,
      workDir: path.join(tmp, 'work'),
      logFile: path.join(tmp, 'farm-up.log'),
      args: ['--model-script', script],
      // the install (only it) may reach the registry; farm up's own store: <state>/environments
      env: { FARM_CHECK_HOST_NETWORK: 'install', FARM_ENVIRONMENTS_DIR: '', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' },
    });
    up = started.process;
    const { api } = started;
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
