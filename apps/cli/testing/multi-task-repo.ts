// A repository and scripted answers for multi-task scenarios: a planner answer splitting a request into
// items, and per-goal diffs for the agents (matched on the goal text in the agent's prompt). Each diff adds the
// function and a test of its own that fails without it, so the change is verified (see verifyChange).

import { SAMPLE_REPO_FILES } from '../src/sample-repo';
export { planStep, type ItemSpec } from '../src/sample-repo';

export const MULTI_REPO_FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'multi', private: true, scripts: { test: 'node --test' } }, null, 2) + '\n',
  'src/calculator.js': SAMPLE_REPO_FILES['src/calculator.js'],
  'src/strings.js': `'use strict';

function upper(s) {
  return s.toUpperCase();
}

module.exports = { upper };
`,
  'test/all.test.js': `'use strict';
const test = require('node:test');
const assert = require('node:assert');
const calc = require('../src/calculator');
const strings = require('../src/strings');

test('what exists works', () => {
  assert.strictEqual(calc.add(1, 2), 3);
  assert.strictEqual(strings.upper('a'), 'A');
  if (calc.multiply) assert.strictEqual(calc.multiply(2, 3), 6);
  if (calc.divide) assert.strictEqual(calc.divide(6, 3), 2);
  if (strings.lower) assert.strictEqual(strings.lower('A'), 'a');
});
`,
};

/** A diff creating test/<fn>.test.js, a test that `fn` of src/<module>.js gives `expected` for `call`. */
function newTest(fn: string, module: string, call: string, expected: string): string {
  const lines = [
    "'use strict';",
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    `const { ${fn} } = require('../src/${module}');`,
    '',
    `test('${fn}', () => {`,
    `  assert.strictEqual(${call}, ${expected});`,
    '});',
  ];
  return `--- /dev/null\n+++ b/test/${fn}.test.js\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join('')}`;
}

export const ADD_MULTIPLY = `--- a/src/calculator.js
+++ b/src/calculator.js
@@ -8,4 +8,8 @@ function subtract(a, b) {
   return a - b;
 }
 
-module.exports = { add, subtract };
+function multiply(a, b) {
+  return a * b;
+}
+
+module.exports = { add, subtract, multiply };
${newTest('multiply', 'calculator', `multiply(2, 3)`, `6`)}`;

/** Applies only on top of ADD_MULTIPLY: proves the divide task started from the multiply task's commit. */
export const ADD_DIVIDE_AFTER_MULTIPLY = `--- a/src/calculator.js
+++ b/src/calculator.js
@@ -12,4 +12,8 @@ function multiply(a, b) {
   return a * b;
 }
 
-module.exports = { add, subtract, multiply };
+function divide(a, b) {
+  return a / b;
+}
+
+module.exports = { add, subtract, multiply, divide };
${newTest('divide', 'calculator', `divide(6, 3)`, `2`)}`;

export const ADD_LOWER = `--- a/src/strings.js
+++ b/src/strings.js
@@ -4,4 +4,8 @@ function upper(s) {
   return s.toUpperCase();
 }
 
-module.exports = { upper };
+function lower(s) {
+  return s.toLowerCase();
+}
+
+module.exports = { upper, lower };
${newTest('lower', 'strings', `lower('A')`, `'a'`)}`;

/** Same line as ADD_MULTIPLY, different content: both apply to the base, they cannot both merge. */
export const ADD_POWER = `--- a/src/calculator.js
+++ b/src/calculator.js
@@ -8,4 +8,8 @@ function subtract(a, b) {
   return a - b;
 }
 
-module.exports = { add, subtract };
+function power(a, b) {
+  return a ** b;
+}
+
+module.exports = { add, subtract, power };
${newTest('power', 'calculator', `power(2, 3)`, `8`)}`;

/** An agent's answer for the task whose goal contains `goal`. */
export function agentStep(goal: string, diff: string, delayMs = 0) {
  return {
    match: `TASK GOAL:\n${goal}`,
    repeat: true,
    answer: { diff, reasoning: goal },
    ...(delayMs ? { fault: { delayMs } } : {}),
  };
}
