import { createJsonModel, ModelAnswerInvalid } from '@farm/llm';
import { startScriptedModelServer } from '@farm/scripted-llm';
import { REVIEW_SYSTEM_PROMPT, reviewDiff, reviewPrompt, VERDICT_SCHEMA } from './review-diff';

const input = { goal: 'Fix multiply', summary: 'fixed it', diff: '--- a/x\n+++ b/x\n', checks: 'all checks passed' };

async function review(answers: unknown[]) {
  const server = await startScriptedModelServer({
    script: { chat: answers.map((a) => ({ content: JSON.stringify(a) })) },
  });
  try {
    const model = createJsonModel({
      baseURL: server.baseURL,
      apiKey: 'k',
      model: 'reviewer',
      maxRetries: 0,
      structuredOutput: true,
    });
    const verdict = await reviewDiff(model, input).catch((err: unknown) => err);
    return { verdict, request: server.requests[0] };
  } finally {
    await server.close();
  }
}

test('the reviewer is asked for the verdict schema derived from the zod schema that checks its answer', async () => {
  expect(VERDICT_SCHEMA).toEqual({
    name: 'review',
    schema: {
      type: 'object',
      properties: {
        approved: { type: 'boolean' },
        objections: {
          type: 'array',
          items: {
            type: 'object',
            properties: { file: { type: 'string' }, line: { type: 'integer' }, text: { type: 'string' } },
            required: ['file', 'line', 'text'],
            additionalProperties: false,
          },
        },
        confidence: { type: 'number' },
        accept_unverified: { type: 'boolean' },
      },
      required: ['approved', 'objections', 'confidence', 'accept_unverified'],
      additionalProperties: false,
    },
  });
  const { verdict, request } = await review([{ approved: false, objections: ['x.ts: remove the debug print'] }]);
  expect(verdict).toMatchObject({ approved: false, objections: ['x.ts: remove the debug print'], model: 'reviewer' });
  expect(request.response_format).toEqual({ type: 'json_schema', json_schema: { ...VERDICT_SCHEMA, strict: true } });
});

test('a sloppy verdict still counts; a rejection without reasons says so; no boolean verdict is invalid', async () => {
  expect((await review([{ approved: true }])).verdict).toMatchObject({ approved: true, objections: [] });
  expect((await review([{ approved: false, objections: [3, 'a.ts: wrong name'] }])).verdict).toMatchObject({
    objections: ['a.ts: wrong name'],
  });
  expect((await review([{ approved: false, objections: [] }])).verdict).toMatchObject({
    objections: ['the reviewer rejected the change without saying why'],
  });
  const { verdict } = await review([{ approved: 'yes', objections: [] }]);
  expect(verdict).toBeInstanceOf(ModelAnswerInvalid);
  expect((verdict as Error).message).toBe('review answer is invalid: approved: Expected boolean, received string');
});

test('objections are tied to files and lines; the confidence is held to 0..1 and taken as 1 when missing', async () => {
  const { verdict } = await review([
    {
      approved: false,
      objections: [
        { file: 'calc.py', line: 12, text: 'multiply adds' },
        { file: 'calc.py', line: 0, text: 'no docstring' },
        { message: 'the test does not call multiply', line: -3 },
        { file: 'x.py' },
      ],
      confidence: 1.7,
    },
  ]);
  expect(verdict).toMatchObject({
    objections: ['calc.py:12: multiply adds', 'calc.py: no docstring', 'the test does not call multiply'],
    findings: [
      { file: 'calc.py', line: 12, text: 'multiply adds' },
      { file: 'calc.py', line: 0, text: 'no docstring' },
      { file: '', line: 0, text: 'the test does not call multiply' },
    ],
    confidence: 1,
    acceptUnverified: false,
  });
  expect((await review([{ approved: true, objections: [] }])).verdict).toMatchObject({ confidence: 1 });
  expect((await review([{ approved: true, objections: [], confidence: 0.25 }])).verdict).toMatchObject({
    confidence: 0.25,
  });
});

describe("the reviewer's prompt within its context", () => {
  const long = {
    goal: 'Fix multiply in calc.py',
    summary: 'fixed it',
    checks: 'PASS '.repeat(5_000),
    diff: Array.from({ length: 4_000 }, (_, i) => `+line ${i} of the change`).join('\n'),
  };

  test('a prompt that fits is sent whole; one that does not is cut to fit, the goal kept, the cut said', () => {
    const whole = reviewPrompt(long);
    expect(reviewPrompt(long, 1_000_000)).toBe(whole);
    const cut = reviewPrompt(long, 4_000);
    expect(Math.ceil(cut.length / 4) + Math.ceil(REVIEW_SYSTEM_PROMPT.length / 4)).toBeLessThanOrEqual(4_000);
    expect(cut).toContain('GOAL:\nFix multiply in calc.py');
    expect(cut).toMatch(
      /\[\.\.\. diff cut: \d+ of \d+ characters left out to fit the reviewer's context \(FARM_REVIEW_CONTEXT_WINDOW_TOKENS\)/,
    );
    expect(cut).toMatch(/checks output cut/);
    // the diff's beginning and its end are both shown
    expect(cut).toContain('+line 0 of the change');
    expect(cut).toContain('+line 3999 of the change');
  });

  test('the cut prompt is what the reviewer is sent', async () => {
    const server = await startScriptedModelServer({
      script: { chat: [{ content: JSON.stringify({ approved: true, objections: [], confidence: 0.9 }) }] },
    });
    try {
      const model = createJsonModel({ baseURL: server.baseURL, apiKey: 'k', model: 'reviewer', maxRetries: 0 });
      const verdict = await reviewDiff(model, { ...long, maxPromptTokens: 3_000 });
      expect(verdict.approved).toBe(true);
      const sent = server.requests[0].messages.map((m) => String(m.content)).join('');
      expect(Math.ceil(sent.length / 4)).toBeLessThanOrEqual(3_000 + 50);
      expect(sent).toContain('diff cut');
    } finally {
      await server.close();
    }
  });
});
