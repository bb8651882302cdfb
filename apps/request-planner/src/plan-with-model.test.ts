import { createJsonModel } from '@farm/llm';
import { ProcessStopping, beginStopping, resetStoppingForTests, silentLogger } from '@farm/runtime';
import { startScriptedModelServer } from '@farm/scripted-llm';
import { farm } from '@farm/proto';
import { PLAN_JSON_SCHEMA, planWithModel, validatePlanAnswer } from './plan-with-model';

const cr = {
  changeRequestId: 'cr-1',
  title: 'Add retry',
  description: 'retry failed calls',
  repo: { url: 'u', baseRef: 'main' },
};
const good = {
  notes: 'client first, then docs',
  items: [
    {
      id: 'client',
      goal: 'Add retry with backoff to fetchJson',
      kind: 'feature',
      paths: ['src/http.js'],
      symbols: ['fetchJson'],
      depends_on: [],
      changed_lines: 40,
    },
    {
      id: 'docs',
      goal: 'Document the retry option in the README',
      kind: 'docs',
      paths: ['README.md'],
      symbols: [],
      depends_on: ['client'],
    },
  ],
};

async function withModel<T>(chat: { content: string }[], fn: (m: ReturnType<typeof createJsonModel>) => Promise<T>) {
  const server = await startScriptedModelServer({ script: { chat } });
  try {
    return await fn(createJsonModel({ baseURL: server.baseURL, apiKey: 'k', model: 'planner', maxRetries: 0 }));
  } finally {
    await server.close();
  }
}

test('a valid decomposition becomes plan items with kinds, hints and dependencies', async () => {
  const { plan } = await withModel([{ content: JSON.stringify(good) }], (m) =>
    planWithModel(cr, m, { maxItems: 5, log: silentLogger }),
  );
  expect(plan.items!.map((i) => [i.itemId, i.kind, i.symbolHints, i.dependsOn, i.estimatedChangedLines])).toEqual([
    ['client', farm.v1.TaskKind.FEATURE, ['fetchJson'], [], 40],
    ['docs', farm.v1.TaskKind.DOCS, [], ['client'], undefined],
  ]);
});

test('an invalid answer is asked again once with the validation errors', async () => {
  const bad = { items: [{ ...good.items[0], depends_on: ['nowhere'] }] };
  const server = await startScriptedModelServer({
    script: {
      chat: [{ content: JSON.stringify(bad) }, { match: 'That plan is invalid', content: JSON.stringify(good) }],
    },
  });
  try {
    const model = createJsonModel({ baseURL: server.baseURL, apiKey: 'k', model: 'planner', maxRetries: 0 });
    const { plan } = await planWithModel(cr, model, { maxItems: 5, log: silentLogger });
    expect(plan.items).toHaveLength(2);
    expect(server.requests[1].messages.at(-1)!.content).toContain('unknown item(s) nowhere');
  } finally {
    await server.close();
  }
});

test('an answer cut at the output limit, or not JSON, is asked again saying so; every answer is counted', async () => {
  const cut = JSON.stringify(good).slice(0, 120);
  const server = await startScriptedModelServer({
    script: {
      chat: [
        { content: cut, finishReason: 'length', usage: { promptTokens: 300, completionTokens: 4096 } },
        {
          match: 'cut at the output limit',
          content: 'Here is the plan!',
          usage: { promptTokens: 400, completionTokens: 5 },
        },
        { match: 'not a usable JSON object', content: JSON.stringify(good) },
      ],
    },
  });
  try {
    const model = createJsonModel({ baseURL: server.baseURL, apiKey: 'k', model: 'planner', maxRetries: 0 });
    const first = await planWithModel(cr, model, { maxItems: 5, log: silentLogger });
    // Cut: asked again; the second answer is no JSON: the plan falls back, saying why, with both answers paid for.
    expect(first.plan.items).toHaveLength(1);
    expect(first.plan.notes![0]).toMatch(
      /^fell back to a single item: the model's plan could not be used \(model answer is not JSON/,
    );
    expect(first.usage.map((u) => u.completionTokens)).toEqual([4096, 5]);
    expect(server.requests[1].messages.at(-2)).toEqual({ role: 'assistant', content: cut });
    expect(server.requests[1].messages.at(-1)!.content).toMatch(/^Your answer was cut at the output limit/);
    expect(server.requests.map((r) => r.maxTokens)).toEqual([8192, 8192]);
  } finally {
    await server.close();
  }
});

test('a planner model that cannot be reached: one item, and the plan says it did not answer', async () => {
  const model = createJsonModel({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'planner', maxRetries: 0 });
  const { plan, usage } = await planWithModel(cr, model, { maxItems: 5, log: silentLogger });
  expect(plan.items).toHaveLength(1);
  expect(plan.notes![0]).toMatch(
    /^fell back to a single item: the planner model did not answer \(model API unreachable/,
  );
  expect(usage).toEqual([]);
});

test('two invalid answers fall back to one item for the whole request, and the plan says so', async () => {
  const { plan } = await withModel([{ content: '{"items": []}' }, { content: 'not json' }], (m) =>
    planWithModel(cr, m, { maxItems: 5, log: silentLogger }),
  );
  expect(plan.items).toHaveLength(1);
  expect(plan.notes![0]).toMatch(/fell back to a single item/);
});

test('validation bounds the number of items and refuses dependency cycles', () => {
  expect(() => validatePlanAnswer(good, 1)).toThrow(/at most 1 items/);
  const cyclic = { items: [{ ...good.items[0], depends_on: ['docs'] }, good.items[1]] };
  expect(() => validatePlanAnswer(cyclic, 5)).toThrow(/cycle/);
});

test('the model is asked for the plan schema derived from the zod schema that checks its answer: every field, no bounds', async () => {
  const strings = { type: 'array', items: { type: 'string' } };
  expect(PLAN_JSON_SCHEMA).toEqual({
    name: 'plan',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['items', 'notes'],
      properties: {
        notes: { type: 'string' },
        items: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'goal', 'kind', 'paths', 'symbols', 'depends_on', 'changed_lines'],
            properties: {
              id: { type: 'string' },
              goal: { type: 'string' },
              kind: { type: 'string', enum: ['feature', 'fix', 'refactor', 'test', 'docs'] },
              paths: strings,
              symbols: strings,
              depends_on: strings,
              changed_lines: { type: 'integer' },
            },
          },
        },
      },
    },
  });
  const server = await startScriptedModelServer({ script: { chat: [{ content: JSON.stringify(good) }] } });
  try {
    const model = createJsonModel({
      baseURL: server.baseURL,
      apiKey: 'k',
      model: 'planner',
      maxRetries: 0,
      structuredOutput: true,
    });
    await planWithModel(cr, model, { maxItems: 5, log: silentLogger });
    expect(server.requests[0]).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'plan', schema: PLAN_JSON_SCHEMA.schema, strict: true },
      },
    });
  } finally {
    await server.close();
  }
});

test('a lenient answer still passes (missing lists and notes filled in), bounds are checked with clear errors', () => {
  const { items, notes } = validatePlanAnswer(
    { items: [{ id: 'one', goal: 'Add retry to fetchJson', kind: 'fix' }] },
    5,
  );
  expect([items[0].paths, items[0].symbols, items[0].depends_on, notes]).toEqual([[], [], [], '']);
  expect(() => validatePlanAnswer({ items: [{ ...good.items[0], id: 'Bad Id', goal: 'short' }] }, 5)).toThrow(
    'items.0.id: lowercase letters, digits and dashes, at most 31 chars; items.0.goal: say what to change in a full sentence',
  );
});

test('the process stopping mid-call is not a model failure: no fallback plan, the call’s error goes up', async () => {
  const server = await startScriptedModelServer({ script: { chat: [{ fault: { delayMs: 600_000, status: 503 } }] } });
  try {
    const model = createJsonModel({ baseURL: server.baseURL, apiKey: 'k', model: 'planner', maxRetries: 3 });
    const planning = planWithModel(cr, model, { maxItems: 5, log: silentLogger }).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    beginStopping('SIGINT');
    // The bus hands the message back; the next start plans the request.
    expect(await planning).toBeInstanceOf(ProcessStopping);
  } finally {
    resetStoppingForTests();
    await server.close();
  }
});
