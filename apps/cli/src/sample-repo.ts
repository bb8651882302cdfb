// A small Node repository the farm generates for the demo and the tests: no dependencies, `node --test`
// as its check, and a change request whose scripted answer adds a function with its test.

export const SAMPLE_REPO_FILES: Record<string, string> = {
  'package.json':
    JSON.stringify(
      { name: 'sample-calculator', version: '1.0.0', private: true, scripts: { test: 'node --test' } },
      null,
      2,
    ) + '\n',
  'README.md': '# sample-calculator\n\nA tiny library the agent farm demo changes.\n',
  'src/calculator.js': `'use strict';

function add(a, b) {
  return a + b;
}

function subtract(a, b) {
  return a - b;
}

module.exports = { add, subtract };
`,
  'test/calculator.test.js': `'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { add, subtract } = require('../src/calculator');

test('add', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('subtract', () => {
  assert.strictEqual(subtract(5, 3), 2);
});
`,
};

export const SAMPLE_REQUEST = {
  title: 'Add multiply to the calculator',
  description: 'Export multiply(a, b) from src/calculator.js, returning the product, with a test.',
};

/** The patch the scripted model answers with: correct, so the checks pass. */
export const SAMPLE_DIFF = `--- a/src/calculator.js
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
--- a/test/calculator.test.js
+++ b/test/calculator.test.js
@@ -1,7 +1,7 @@
 'use strict';
 const test = require('node:test');
 const assert = require('node:assert');
-const { add, subtract } = require('../src/calculator');
+const { add, subtract, multiply } = require('../src/calculator');
 
 test('add', () => {
   assert.strictEqual(add(2, 3), 5);
@@ -10,3 +10,7 @@ test('add', () => {
 test('subtract', () => {
   assert.strictEqual(subtract(5, 3), 2);
 });
+
+test('multiply', () => {
+  assert.strictEqual(multiply(4, 3), 12);
+});
`;

/** A patch whose context matches nothing in the repository: it can never apply. */
export const NON_APPLYING_DIFF = `--- a/src/calculator.js
+++ b/src/calculator.js
@@ -1,3 +1,3 @@
-function divide(a, b) {
-  return a / b;
+function divide(a, b) {
+  return b === 0 ? NaN : a / b;
 }
`;

export interface ItemSpec {
  id: string;
  goal: string;
  symbols?: string[];
  paths?: string[];
  depends_on?: string[];
  changed_lines?: number;
}

/** The planner's answer (matched by the architect prompt). */
export function planStep(items: ItemSpec[]) {
  return {
    match: 'You are the architect',
    repeat: true,
    content: JSON.stringify({
      notes: 'scripted plan',
      items: items.map((i) => ({ kind: 'feature', paths: [], symbols: [], depends_on: [], ...i })),
    }),
  };
}
