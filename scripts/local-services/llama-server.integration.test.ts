// The farm's model client against a real model server it did not write: llama.cpp's own HTTP server (from PyPI's
// xllamacpp wheel) with a real small GGUF model (llama-server.ts). What the server answers is read as it means
// it: a request longer than its context is a context overflow with its sizes (never "no tool calling"), an
// answer cut at the output limit is never taken as whole, the model file it answers as is kept apart from the
// configured name, and the context and slots it tells are read. Small calls only: 2 cores, a slow model.
import {
  ContextOverflow,
  createJsonModel,
  createToolModel,
  ModelAnswerCut,
  serverContextOf,
  type ToolSpec,
} from '@farm/llm';
import { startLlamaServer, type LlamaServer } from './llama-server';

const TOOLS: ToolSpec[] = [
  { name: 'finish', description: 'Finish the task', parameters: { type: 'object', properties: {}, required: [] } },
];

let server: LlamaServer;
beforeAll(async () => {
  server = await startLlamaServer({ ctx: 512, slots: 2 });
}, 15 * 60_000); // cold: the install (xllamacpp and the model, ~290 MB) runs first unless test.sh's is done
afterAll(() => server?.stop());

const cfg = () => ({
  baseURL: server.baseURL,
  apiKey: 'none',
  model: 'gemma-3-270m',
  maxRetries: 0,
  timeoutMs: 120_000,
});

test('the context and slots it tells are read from its /props', async () => {
  expect(await serverContextOf(cfg())).toEqual({
    contextTokens: 512,
    contextSource: 'n_ctx of /props (llama.cpp), per slot',
    slots: 2,
  });
});

test('a request longer than its context is ContextOverflow with both sizes, from the tool model too', async () => {
  const long = `${'Describe the weather. '.repeat(300)}`;
  const err = await createToolModel(cfg())
    .nextTurn([{ role: 'user', content: long }], TOOLS)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ContextOverflow);
  const overflow = err as ContextOverflow;
  expect(overflow.contextTokens).toBe(512);
  expect(overflow.promptTokens).toBeGreaterThan(512);
  expect(overflow.status).toBe(400);
  expect(overflow.message).toMatch(/exceeds the available context size \(512 tokens\)/);
});

test('an answer cut at its output limit is ModelAnswerCut, with the model file it answered as kept apart', async () => {
  const json = createJsonModel({ ...cfg(), maxOutputTokens: 3 });
  const err = await json
    .completeJson([{ role: 'user', content: 'Answer with a JSON object listing fifty colour names.' }])
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ModelAnswerCut);
  expect((err as ModelAnswerCut).message).toMatch(/cut at the output limit \(\d+ tokens of max 3/);
  expect((err as ModelAnswerCut).usage?.promptTokens).toBeGreaterThan(0);

  // The name it answered with (its model file) is kept apart from the configured one.
  expect((err as ModelAnswerCut).servedBy).toBe(server.model);
}, 300_000);
