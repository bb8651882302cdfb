// The walking-skeleton scenarios, run on one machine (in-process bus, PGlite) and on the cluster's services
// (Kafka, PostgreSQL); both with the git smart-HTTP server, the scripted model and an agent process per task.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { farm } from '@farm/proto';
import {
  CONTENT_TYPE_HEADER,
  DEAD_LETTER_TOPIC,
  DLQ_HEADERS,
  JSON_CONTENT,
  Topics,
  type EventBus,
  type RawMessage,
} from '@farm/bus';
import { remoteBranchSha, seedBareRepo, startGitHttpServer, type GitHttpServer } from '@farm/git';
import { createLogger, silentLogger } from '@farm/runtime';
import { startScriptedModelServer, type ModelScript } from '@farm/scripted-llm';
import type { SqlStore } from '@farm/store';
import {
  NON_APPLYING_DIFF,
  SAMPLE_DIFF,
  SAMPLE_REPO_FILES,
  SAMPLE_REQUEST,
  agentProcessLauncher,
  startFarm,
  submitChangeRequest,
  watchChangeRequest,
} from '@farm/cli';

// Async on purpose: the git server runs in this process, a sync child would block it.
const run = async (cmd: string, args: string[], cwd?: string) => (await promisify(execFile)(cmd, args, { cwd })).stdout;
const log = process.env.FARM_TEST_LOGS ? createLogger('test') : silentLogger;

export function defineFarmScenarios(mode: string, open: () => Promise<{ bus: EventBus; store: SqlStore }>): void {
  describe(`walking skeleton on ${mode}`, () => {
    let tmp: string;
    let git: GitHttpServer;
    let bus: EventBus;
    let store: SqlStore;
    const results: farm.v1.CommitResult[] = [];
    const deadLetters: RawMessage[] = [];

    beforeAll(async () => {
      tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-e2e-'));
      git = await startGitHttpServer({ root: path.join(tmp, 'git') });
      ({ bus, store } = await open());
      await bus.subscribe(Topics.commitResults, 'test-results', async (r) => void results.push(r));
      await bus.subscribeRaw(DEAD_LETTER_TOPIC, 'test-dead-letters', async (m) => void deadLetters.push(m));
    });
    afterAll(async () => {
      await bus.close();
      await store.close();
      await git.close();
      await rm(tmp, { recursive: true, force: true });
    });

    /** A farm on this bus and store, its agents asking a scripted model that answers from `script`. */
    async function farmWithModel(script: ModelScript) {
      const model = await startScriptedModelServer({ script });
      const launcher = agentProcessLauncher(path.join(tmp, 'state'), {
        bus,
        log,
        agentEnv: {
          ...process.env,
          OPENAI_BASE_URL: model.baseURL,
          OPENAI_API_KEY: 'test-key',
          FARM_WORK_DIR: path.join(tmp, 'work'),
          FARM_LLM_MAX_RETRIES: '0',
        },
      });
      return { model, farmApp: await startFarm({ bus, store, launcher, log }) };
    }

    /** Runs one request through a farm whose model answers from `script`; returns what a user would see. */
    async function runRequest(repoName: string, script: ModelScript) {
      const repoUrl = await git.createBareRepo(repoName);
      const baseCommit = await seedBareRepo({ url: repoUrl, files: SAMPLE_REPO_FILES, message: 'initial' });
      const { model, farmApp } = await farmWithModel(script);
      try {
        const id = await submitChangeRequest(bus, { repoUrl, baseRef: 'main', ...SAMPLE_REQUEST });
        const transitions: farm.v1.PhaseTransition[] = [];
        await watchChangeRequest(bus, id, (t) => transitions.push(t), {
          timeoutMs: Number(process.env.FARM_TEST_WATCH_TIMEOUT_MS ?? 150_000),
        });
        log.info('watch finished', { id });
        return { id, repoUrl, baseCommit, transitions, prompts: model.requests };
      } finally {
        await farmApp.stop();
        log.info('farm stopped');
        await model.close();
      }
    }

    test('a change request reaches DONE with a pushed, checked agt/<task_id> branch merged into farm/<id>', async () => {
      const garbageKey = `garbage-${Date.now()}`;
      await bus.publishRaw(Topics.changeRequests.name, Buffer.from('{not a change request'), { key: garbageKey });

      const req = await runRequest('calc-ok.git', {
        chat: [{ answer: { diff: SAMPLE_DIFF, reasoning: 'add multiply' } }],
      });

      const phases = req.transitions.filter((t) => !t.taskId).map((t) => farm.v1.Phase[t.toPhase]);
      expect(phases).toEqual(['RECEIVED', 'PLANNING', 'CODING', 'BUILD', 'DONE']);
      expect(req.transitions.filter((t) => t.taskId).map((t) => t.taskState)).toEqual([
        farm.v1.TaskState.TASK_DISPATCHED,
        farm.v1.TaskState.TASK_SUCCESS,
      ]);
      expect(req.transitions.map((t) => Number(t.sequence))).toEqual(req.transitions.map((_, i) => i + 1));

      const result = results.find((r) => r.changeRequestId === req.id)!;
      expect(farm.v1.CommitStatus[result.status]).toBe('SUCCESS');
      expect(result.branchName).toBe(`agt/${result.taskId}`);
      expect(result.attempts).toBe(1);
      expect(result.tokenUsage?.totalTokens).toBeGreaterThan(0);
      expect(result.stepDurations.map((d) => d.step)).toEqual(
        expect.arrayContaining(['clone', 'llm', 'apply', 'check', 'push']),
      );
      expect(await remoteBranchSha(req.repoUrl, result.branchName)).toBe(result.commitSha);

      // What a reviewer would do: clone the branch, diff it against the base, run the repo's tests.
      const checkout = path.join(tmp, 'review-ok');
      await run('git', ['clone', '-q', '--branch', result.branchName, req.repoUrl, checkout]);
      const changed = await run('git', ['diff', '--name-only', req.baseCommit, 'HEAD'], checkout);
      expect(changed.trim().split('\n').sort()).toEqual(['src/calculator.js', 'test/calculator.test.js']);
      const diff = await run('git', ['diff', req.baseCommit, 'HEAD'], checkout);
      expect(diff).toContain('+function multiply(a, b) {');
      expect(diff).toContain('+  assert.strictEqual(multiply(4, 3), 12);');
      await run('node', ['--test'], checkout); // rejects if the tests fail
      // The build phase merged it into the integration branch.
      expect(await remoteBranchSha(req.repoUrl, `farm/${req.id}`)).toBeDefined();

      expect(req.prompts[0].messages.map((m) => m.content).join('\n')).toContain(SAMPLE_REQUEST.title);

      // The garbage sent first went to the dead-letter topic with its reason; the request after it was processed.
      const letter = deadLetters.find((m) => m.key === garbageKey);
      expect(letter?.headers[DLQ_HEADERS.errorKind]).toBe('decode');
      expect(letter?.headers[DLQ_HEADERS.sourceTopic]).toBe(Topics.changeRequests.name);
    });

    test('poison and invalid submissions on the Kafka intake are refused or failed with a reason, and never stop the farm', async () => {
      const run = Date.now();
      const planned: string[] = [];
      await bus.subscribe(Topics.plans, `test-plans-${run}`, async (p) => void planned.push(p.changeRequestId));
      const repoUrl = await git.createBareRepo(`intake-${run}.git`);
      await seedBareRepo({ url: repoUrl, files: SAMPLE_REPO_FILES, message: 'initial' });
      const { model, farmApp } = await farmWithModel({
        chat: [{ repeat: true, answer: { diff: SAMPLE_DIFF, reasoning: 'add multiply' } }],
      });
      const id = (name: string) => `${name}-${run}`;
      const json = (body: object) =>
        bus.publishRaw(Topics.changeRequests.name, Buffer.from(JSON.stringify(body)), {
          key: (body as { changeRequestId?: string }).changeRequestId,
          headers: { [CONTENT_TYPE_HEADER]: JSON_CONTENT },
        });
      const proto = (body: farm.v1.IChangeRequest) =>
        bus.publish(Topics.changeRequests, farm.v1.ChangeRequest.fromObject(body));
      try {
        // What kcat and Kafka's console producer users sent.
        await json({ changeRequestId: id('no-title'), repo: { url: repoUrl } });
        await proto({ changeRequestId: id('only-id') });
        await proto({ changeRequestId: id('empty-url'), title: 't', repo: { url: '' } });
        await json({ changeRequestId: id('ftp'), title: 't', repo: { url: 'ftp://example.com/r.git' } });
        await proto({ title: 'no id at all', repo: { url: repoUrl } });
        // Valid, but planning cannot succeed: nothing listens there; a ref the repository does not have.
        await proto({ changeRequestId: id('unreachable'), title: 't', repo: { url: 'http://127.0.0.1:9/r.git' } });
        await proto({ changeRequestId: id('no-ref'), title: 't', repo: { url: repoUrl, baseRef: 'no-such-branch' } });
        const good = await submitChangeRequest(bus, { repoUrl, baseRef: 'main', ...SAMPLE_REQUEST });

        const final = async (crId: string) => watchChangeRequest(bus, crId, () => undefined, { timeoutMs: 120_000 });
        const reasons = Object.fromEntries(
          await Promise.all(
            ['no-title', 'only-id', 'empty-url', 'ftp', 'unreachable', 'no-ref'].map(async (name) => {
              const last = await final(id(name));
              return [name, `${farm.v1.Phase[last.toPhase]}: ${last.reason}`];
            }),
          ),
        );
        expect(reasons).toEqual({
          'no-title': expect.stringMatching(/^FAILED: refused: title is required/),
          'only-id': expect.stringMatching(/^FAILED: refused: title is required/),
          'empty-url': 'FAILED: refused: repo.url is required',
          ftp: expect.stringMatching(/^FAILED: refused: repo.url must be an http\(s\) git remote/),
          unreachable: expect.stringMatching(/^FAILED: planning failed: .*127\.0\.0\.1:9/),
          'no-ref': expect.stringMatching(/^FAILED: planning failed: .*no-such-branch/),
        });
        // A refused request was never planned; the one after all of them went through.
        for (const name of ['no-title', 'only-id', 'empty-url', 'ftp']) expect(planned).not.toContain(id(name));
        expect(farm.v1.Phase[(await final(good)).toPhase]).toBe('DONE');
        const noId = deadLetters.find((m) => m.value?.toString('utf8').includes('no id at all'));
        expect(noId?.headers[DLQ_HEADERS.error]).toMatch(/has no change_request_id/);
      } finally {
        await farmApp.stop();
        await model.close();
      }
    });

    test('a model whose diff never applies: SOFT_FAIL after the retries, re-dispatched once, FAILED, no branch', async () => {
      const req = await runRequest('calc-bad.git', {
        chat: [{ repeat: true, answer: { diff: NON_APPLYING_DIFF, reasoning: 'guess' } }],
      });

      const last = req.transitions.filter((t) => !t.taskId).at(-1)!;
      expect(farm.v1.Phase[last.toPhase]).toBe('FAILED');
      const mine = results.filter((r) => r.changeRequestId === req.id);
      expect(mine.map((r) => [farm.v1.CommitStatus[r.status], r.dispatch, r.attempts])).toEqual([
        ['SOFT_FAIL', 1, 3],
        ['SOFT_FAIL', 2, 3],
      ]);
      expect(mine[0].notes.join('\n')).toMatch(/rejected/);
      // 1 + 2 retries per dispatch; the rejection reason goes back to the model on each retry,
      // and the second dispatch starts from the first one's notes.
      expect(req.prompts).toHaveLength(6);
      const prompt = (i: number) => req.prompts[i].messages.map((m) => m.content).join('\n');
      expect(prompt(1)).toMatch(/rejected/);
      expect(prompt(3)).toMatch(/NOTES FROM AN EARLIER RUN/);
      expect(await remoteBranchSha(req.repoUrl, `agt/${mine[0].taskId}`)).toBeUndefined();
    });
  });
}
