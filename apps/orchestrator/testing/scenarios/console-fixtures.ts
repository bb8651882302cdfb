/**
 * A task's report as an agent of the tool strategy writes one (the line shapes of coding-agent's tool-loop.ts,
 * task-observer.ts and strategies), for the console's trajectory and diff review: every kind of step, code with
 * newlines in an edit, a long command output, a review with objections at file:line, and hostile text (a
 * `<script>`, a `javascript:` URL) where an agent's output or a diff could hold it.
 */

export const HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">';
export const HOSTILE_URL = 'javascript:alert(document.domain)';

/** The committed change: two files changed, one added (with hostile text in a line), one removed. */
export const REVIEW_DIFF = [
  '--- a/src/calc.js',
  '+++ b/src/calc.js',
  '@@ -1,7 +1,10 @@',
  ' // The calculator.',
  ' function add(a, b) {',
  '   return a + b;',
  ' }',
  '-',
  '-module.exports = { add };',
  '+function multiply(a, b) {',
  '+  return a * b;',
  '+}',
  '+',
  '+module.exports = { add, multiply };',
  ' // end',
  '@@ -20,3 +23,3 @@ function later() {',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  ' const c = 4;',
  '--- /dev/null',
  '+++ b/test/multiply.test.js',
  '@@ -0,0 +1,4 @@',
  "+const { multiply } = require('../src/calc');",
  `+// ${HOSTILE}`,
  `+// see ${HOSTILE_URL}`,
  "+test('multiplies', () => expect(multiply(2, 3)).toBe(6));",
  '--- a/README.old',
  '+++ /dev/null',
  '@@ -1,1 +0,0 @@',
  '-obsolete',
  '',
].join('\n');

export const REVIEW_VERIFICATION = {
  checks: [
    { name: 'test', run: 'npm test', ok: true },
    { name: 'lint', skipped: true, reason: 'no lint script' },
  ],
  differential: {
    testFiles: ['test/multiply.test.js'],
    command: 'npx jest test/multiply.test.js',
    narrowed: true,
    base: 'TEST_RUN_FAILED',
    branch: 'TEST_RUN_PASSED',
  },
};

const OLD_TEXT = 'function add(a, b) {\n  return a + b;\n}\n';
const NEW_TEXT = 'function add(a, b) {\n  return a + b;\n}\n\nfunction multiply(a, b) {\n  return a * b;\n}\n';
export const LONG_OUTPUT = Array.from({ length: 40 }, (_, i) => `  at frame ${i} (src/calc.js:${i + 1}:3)`).join('\n');

/** The lines of a dispatch, `ts` from `start` on (each line written when its step ended, as the agent does). */
export function trajectoryLines(taskId: string, start = Date.parse('2025-01-01T10:00:00Z')): Record<string, unknown>[] {
  let at = start;
  const line = (event: string, ms: number, data: Record<string, unknown>) => {
    at += ms;
    return { ts: new Date(at).toISOString(), event, taskId, dispatch: 1, ...data };
  };
  const tokens = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });
  return [
    line('context', 800, { shown: ['src/calc.js'], omitted: [], tokens: 420 }),
    line('checks', 5, { steps: [{ name: 'test', run: 'npm test' }], skipped: [], strategy: 'tools' }),
    line('step', 2100, {
      step: 1,
      model: 'coder-1',
      tokens: tokens(1200, 80),
      costUsd: 0.0031,
      durationMs: 2100,
      toolCalls: ['read_file'],
      text: `I read the calculator first.\nIt may hold ${HOSTILE}`,
    }),
    line('tool', 12, {
      step: 1,
      tool: 'read_file',
      arguments: { path: 'src/calc.js', start_line: 1, end_line: 20 },
      ok: true,
      outputChars: 60,
      result: '1| // The calculator.\n2| function add(a, b) {\n3|   return a + b;\n4| }\n5| module.exports = { add };',
      durationMs: 12,
    }),
    line('step', 1500, {
      step: 2,
      model: 'coder-1',
      tokens: tokens(1400, 120),
      costUsd: 0.0042,
      durationMs: 1500,
      toolCalls: ['edit_file'],
    }),
    line('tool', 20, {
      step: 2,
      tool: 'edit_file',
      arguments: { path: 'src/calc.js', old_text: OLD_TEXT, new_text: NEW_TEXT },
      ok: true,
      outputChars: 70,
      result: 'edited src/calc.js: 1 replacement(s), first at line 2 (old_text matched ignoring indentation)',
      durationMs: 20,
      changed: ['src/calc.js'],
      match: 'indentation',
    }),
    line('step', 900, { step: 3, model: 'coder-1', tokens: tokens(1500, 40), costUsd: 0.002, durationMs: 900 }),
    line('tool', 3400, {
      step: 3,
      tool: 'run_command',
      arguments: { command: `npm test -- --grep "${HOSTILE_URL}"` },
      ok: false,
      outputChars: LONG_OUTPUT.length + 12,
      result: `exit code 1\nError: multiply is not defined\n${LONG_OUTPUT}\n${HOSTILE}`,
      durationMs: 3400,
    }),
    line('tool', 8, {
      step: 3,
      tool: 'create_file',
      arguments: { path: 'test/multiply.test.js', content: "test('x', () => {\n  expect(1).toBe(1);\n});\n" },
      ok: true,
      outputChars: 40,
      result: 'created test/multiply.test.js (4 lines)',
      durationMs: 8,
      changed: ['test/multiply.test.js'],
    }),
    line('tool', 30, {
      step: 3,
      tool: 'search',
      arguments: { pattern: 'multiply', glob: '*.js' },
      ok: true,
      outputChars: 30,
      result: 'src/calc.js:5: function multiply(a, b) {',
      durationMs: 30,
    }),
    line('tool', 4, {
      step: 3,
      tool: 'edit_file',
      arguments: { path: 'src/nope.js', old_text: 'x', new_text: 'y' },
      ok: false,
      outputChars: 40,
      result: 'ERROR: edit_file: src/nope.js does not exist',
      durationMs: 4,
    }),
    line('step', 700, { step: 4, model: 'coder-1', tokens: tokens(1600, 30), costUsd: 0.002, durationMs: 700 }),
    line('check', 5200, {
      attempt: 1,
      ok: true,
      steps: [
        {
          name: 'test',
          run: 'npm test',
          ok: true,
          exitCode: 0,
          timedOut: false,
          durationMs: 5200,
          output: `PASS test/multiply.test.js\n${HOSTILE}`,
        },
      ],
      isolation: 'checkout-only',
    }),
    line('reward', 1, { attempt: 1, reward: 1, checksOk: true }),
    line('verification', 2000, { ...REVIEW_VERIFICATION }),
    line('review', 3000, {
      approved: false,
      round: 1,
      objections: ['src/calc.js:6: multiply ignores NaN'],
      findings: [{ file: 'src/calc.js', line: 6, text: `multiply ignores NaN ${HOSTILE_URL}` }],
      confidence: 0.8,
    }),
    line('tool', 9000, {
      step: 4,
      tool: 'finish',
      arguments: { summary: 'Added multiply next to add, with a test.' },
      ok: true,
      outputChars: 20,
      result: 'finished: accepted',
      durationMs: 9000,
    }),
  ];
}

/** `n` lines of a long dispatch: model turns, each followed by a command with a few lines of output. */
export function manyLines(
  taskId: string,
  n: number,
  start = Date.parse('2025-01-01T10:00:00Z'),
): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const ts = new Date(start + i * 1000).toISOString();
    return i % 2
      ? {
          ts,
          event: 'tool',
          taskId,
          dispatch: 1,
          step: Math.ceil(i / 2),
          tool: 'run_command',
          arguments: { command: `grep -n step${i} src/*.js` },
          ok: true,
          outputChars: 80,
          result: `exit code 0\n${Array.from({ length: 8 }, (_, k) => `src/a.js:${k}: step${i}`).join('\n')}`,
          durationMs: 300,
        }
      : {
          ts,
          event: 'step',
          taskId,
          dispatch: 1,
          step: i / 2 + 1,
          model: 'coder-1',
          tokens: { promptTokens: 1000 + i, completionTokens: 50, totalTokens: 1050 + i },
          costUsd: 0.001,
          durationMs: 600,
          toolCalls: ['run_command'],
          text: `Turn ${i / 2 + 1}: looking for step${i}.`,
        };
  });
}
