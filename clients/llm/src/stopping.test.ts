// The process beginning to stop (SIGTERM, Ctrl-C) ends a model call in flight, retries included, with
// ProcessStopping: the real openai client against the project's scripted server on loopback. A file of its own:
// stopping is process-wide state.
import { startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';
import { ProcessStopping, beginStopping, resetStoppingForTests } from '@farm/runtime';
import { createJsonModel, createToolModel } from './index';

describe('a model call when the process begins to stop', () => {
  let server: ScriptedModelServer;
  beforeAll(async () => (server = await startScriptedModelServer({ script: { chat: [] } })));
  afterAll(() => server.close());
  afterEach(() => resetStoppingForTests());

  it('a call the server is slow to answer, with retries left, ends with ProcessStopping after one request', async () => {
    // Without the stop this would wait 10 minutes, then retry: the test's own timeout would fail it.
    server.setScript({ chat: [{ fault: { delayMs: 600_000, status: 503 } }, { answer: { diff: 'x' } }] });
    const model = createJsonModel({ baseURL: server.baseURL, apiKey: 'k', model: 'planner', maxRetries: 5 });
    const call = model.completeJson([{ role: 'user', content: 'plan' }]).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    beginStopping('SIGINT');
    const err = await call;
    expect(err).toBeInstanceOf(ProcessStopping);
    expect(err).toMatchObject({ retryable: true, message: expect.stringMatching(/stopping \(SIGINT\)/) });
    expect(server.requests).toHaveLength(1);
  });

  it('a call started after the stop began is not sent at all', async () => {
    server.requests.splice(0);
    server.setScript({ chat: [{ content: 'done' }] });
    beginStopping('SIGTERM');
    const model = createToolModel({ baseURL: server.baseURL, apiKey: 'k', model: 'coder', maxRetries: 2 });
    await expect(model.nextTurn([{ role: 'user', content: 'go' }], [])).rejects.toBeInstanceOf(ProcessStopping);
    expect(server.requests).toHaveLength(0);
  });
});
