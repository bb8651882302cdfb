// farm doctor's probes through the real openai client against the scripted server playing the servers users
// bring (llama.cpp's context, slots and echoed model file; an endpoint without tools; one that is down), and
// its verdicts on what they answered.
import { probeEndpoint, type EndpointFacts } from '@farm/llm';
import { startScriptedModelServer, type ModelScript } from '@farm/scripted-llm';
import { doctorFindings, formatFindings, type DoctorSettings } from './doctor';

const SETTINGS: DoctorSettings = {
  roles: ['agent'],
  contextWindowTokens: 100_000,
  contextBudgetTokens: 8_000,
  maxOutputTokens: 8192,
  timeoutS: 120,
  strategy: 'auto',
  priced: false,
  instructionTokens: 1400,
};

/** A model that answers every probe as a capable one would. */
const CAPABLE: ModelScript['chat'] = [
  { match: 'single word: ready', content: 'ready', repeat: true },
  { match: 'Record the colour', toolCalls: [{ name: 'record_colour', arguments: { colour: 'blue' } }], repeat: true },
  { match: 'JSON object', content: '{"colour": "blue"}', repeat: true },
  {
    match: 'Count from one',
    content: 'one two three four',
    finishReason: 'length',
    usage: { promptTokens: 20, completionTokens: 8 },
    repeat: true,
  },
];

async function probe(script: ModelScript, model = 'qwen2.5-coder') {
  const server = await startScriptedModelServer({ script });
  try {
    return await probeEndpoint({ baseURL: server.baseURL, apiKey: 'k', model });
  } finally {
    await server.close();
  }
}

const levels = (findings: { level: string; what: string }[]) => findings.map((f) => `${f.level}: ${f.what}`);

test("llama.cpp with a 4,096-token context: its size, slots and echoed model file read, every probe's answer judged", async () => {
  const facts = await probe({
    chat: CAPABLE,
    contextTokens: 4096,
    slots: 1,
    answeredModel: '/models/qwen2.5-coder-1.5b-q4_k_m.gguf',
  });
  expect(facts).toMatchObject({
    contextTokens: 4096,
    slots: 1,
    chat: { ok: true, answeredAs: '/models/qwen2.5-coder-1.5b-q4_k_m.gguf', usageReported: true },
    tools: { auto: 'calls', required: 'calls' },
    json: { ok: true },
    cut: { finishReason: 'length', completionTokens: 8 },
    overflow: { outcome: 'refused' },
  });
  const findings = doctorFindings(facts, SETTINGS);
  const text = levels(findings).join('\n');
  expect(text).toMatch(
    /^warn: the server's context is 4,096 tokens \(n_ctx of \/props \(llama\.cpp\), per slot\): a task's first prompt is about 9,900 tokens/m,
  );
  expect(findings.find((f) => /first prompt/.test(f.what))!.fix).toBe(
    "set FARM_CONTEXT_BUDGET_TOKENS=898, or raise the server's context",
  );
  expect(findings.find((f) => /FARM_CONTEXT_WINDOW_TOKENS/.test(f.what))!.fix).toBe(
    'set FARM_CONTEXT_WINDOW_TOKENS=2867',
  );
  expect(findings.find((f) => /FARM_LLM_MAX_OUTPUT_TOKENS/.test(f.what))!.fix).toBe(
    'set FARM_LLM_MAX_OUTPUT_TOKENS=1024',
  );
  expect(text).toMatch(
    /^note: it answers as \/models\/qwen2\.5-coder-1\.5b-q4_k_m\.gguf: calls are recorded and priced as qwen2\.5-coder/m,
  );
  expect(text).toMatch(/^warn: no price for qwen2\.5-coder/m);
  expect(text).toMatch(/^ok: tool calls work/m);
  expect(text).toMatch(/^ok: an answer cut at the output limit says so/m);
  expect(text).toMatch(/^ok: a request longer than the context is refused as such/m);
  expect(findings.some((f) => f.level === 'fail')).toBe(false);
  // 2,048 tokens cannot hold the instructions and a task at all.
  expect(doctorFindings({ ...facts, contextTokens: 2048 }, SETTINGS)[1]).toMatchObject({
    level: 'fail',
    what: expect.stringMatching(
      /it cannot hold the agent's instructions and tools \(about 1,400 tokens\) with a task$/,
    ),
  });
  expect(formatFindings('qwen2.5-coder', findings)).toMatch(
    /\n {2}warn {2}no price for qwen2\.5-coder[^\n]*\n {8}→ set FARM_MODEL_PRICES/,
  );
});

test('a model that writes its tool calls as text, on a server that ignores max_tokens: said, with the fix', async () => {
  const facts = await probe({
    chat: [
      CAPABLE[0],
      {
        match: 'Record the colour',
        content: '<tool_call>{"name": "record_colour", "arguments": {"colour": "blue"}}</tool_call>',
        repeat: true,
      },
      CAPABLE[2],
      {
        match: 'Count from one',
        content: 'one two ... fifty',
        usage: { promptTokens: 20, completionTokens: 90 },
        repeat: true,
      },
      // (a tool-call step elsewhere in the script: the server offers tools)
      { match: 'never asked', toolCalls: [{ name: 'record_colour', arguments: { colour: 'x' } }] },
    ],
  });
  expect(facts.tools).toMatchObject({ auto: 'text-calls' });
  const findings = doctorFindings(facts, { ...SETTINGS, priced: true });
  expect(levels(findings)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^warn: the model writes its tool calls as text/),
      'fail: the server ignores max_tokens (asked 8, got 90): a model that does not stop runs until its context is full',
    ]),
  );
});

test('an endpoint without tool calling, and one that is down: what the agent will do, and what to set', async () => {
  const noTools = await probe({ chat: [CAPABLE[0], CAPABLE[2], CAPABLE[3]] });
  expect(noTools.tools).toMatchObject({ auto: 'refused', required: 'refused' });
  expect(levels(doctorFindings(noTools, { ...SETTINGS, priced: true }))).toContainEqual(
    expect.stringMatching(/^warn: the endpoint refuses tool calls \(.+\): the agent falls back to one-shot diffs$/),
  );
  expect(
    doctorFindings(noTools, { ...SETTINGS, strategy: 'tools' }).find((f) => /refuses tool/.test(f.what))!.level,
  ).toBe('fail');

  const down: EndpointFacts = await probeEndpoint({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm' });
  const [only] = doctorFindings(down, SETTINGS);
  expect(only.level).toBe('fail');
  expect(only.what).toMatch(/^the endpoint does not answer: GET http:\/\/127\.0\.0\.1:9\/v1\/models: /);
  expect(only.fix).toMatch(/OPENAI_BASE_URL/);
});

test('an endpoint that cuts a long prompt behind HTTP 200 (Ollama) fails, saying how much it read', () => {
  const facts: EndpointFacts = {
    baseURL: 'http://127.0.0.1:11434/v1',
    model: 'qwen2.5-coder:7b',
    models: ['qwen2.5-coder:7b'],
    contextTokens: 2048,
    contextSource: "Ollama's default num_ctx (the model sets none)",
    chat: { ok: true, ms: 900, usageReported: true },
    overflow: { outcome: 'silently-cut', detail: 'sent about 3072 tokens, the server read 2048 and answered 200' },
  };
  const fail = doctorFindings(facts, SETTINGS).find((f) => f.level === 'fail' && /cuts a prompt/.test(f.what))!;
  expect(fail.what).toMatch(/cuts a prompt longer than its context without an error \(sent about 3072 tokens/);
  expect(fail.fix).toMatch(/OLLAMA_CONTEXT_LENGTH\) to at least 18,092$/);
});
