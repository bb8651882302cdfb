// Generated repositories and scripted patches for the coding agent's integration tests.

export const PYTHON_REPO: Record<string, string> = {
  'pyproject.toml': `[project]
name = "calc"
version = "0.1.0"

[tool.pytest.ini_options]
pythonpath = ["."]
markers = ["fast: quick unit tests the agents run on every attempt"]
`,
  'calc.py': `def add(a, b):
    return a + b


def subtract(a, b):
    return a - b
`,
  'utils/__init__.py': '',
  'utils/strings.py': `def shout(text):
    return text.upper() + "!"


def whisper(text):
    return text.lower()
`,
  'tests/test_calc.py': `import pytest

import calc


@pytest.mark.fast
def test_add():
    assert calc.add(2, 3) == 5


@pytest.mark.fast
def test_subtract():
    assert calc.subtract(5, 3) == 2
`,
};

export const PY_ADD_MULTIPLY = `--- a/calc.py
+++ b/calc.py
@@ -4,3 +4,7 @@ def add(a, b):
 
 def subtract(a, b):
     return a - b
+
+
+def multiply(a, b):
+    return a * b
`;

/** Adds multiply but breaks add: the repo's own test catches it. */
export const PY_ADD_MULTIPLY_BREAKING_ADD = `--- a/calc.py
+++ b/calc.py
@@ -1,6 +1,10 @@
 def add(a, b):
-    return a + b
+    return a - b
 
 
 def subtract(a, b):
     return a - b
+
+
+def multiply(a, b):
+    return a * b
`;

/** Right content, line numbers far off (as models often write them). */
export const PY_ADD_MULTIPLY_WRONG_LINES = PY_ADD_MULTIPLY.replace('@@ -4,3 +4,7 @@', '@@ -40,3 +40,7 @@');

export const PY_NOT_APPLYING = `--- a/calc.py
+++ b/calc.py
@@ -1,2 +1,2 @@
 def divide(a, b):
-    return a / b
+    return a // b
`;

export const PY_SHOUT_QUIETER = `--- a/utils/strings.py
+++ b/utils/strings.py
@@ -1,2 +1,2 @@
 def shout(text):
-    return text.upper() + "!"
+    return text.upper() + "."
`;

export const NODE_JEST_REPO: Record<string, string> = {
  '.gitignore': 'node_modules/\n',
  'package.json':
    JSON.stringify(
      {
        name: 'greet',
        version: '1.0.0',
        private: true,
        scripts: { test: 'jest' },
        devDependencies: { jest: '^29.7.0' },
      },
      null,
      2,
    ) + '\n',
  'src/greet.js': `'use strict';

function greet(name) {
  return 'Hello, ' + name;
}

module.exports = { greet };
`,
  'src/greet.test.js': `'use strict';
const { greet } = require('./greet');

test('greets by name', () => {
  expect(greet('Ada')).toBe('Hello, Ada');
});
`,
};

export const NODE_ADD_FAREWELL = `--- a/src/greet.js
+++ b/src/greet.js
@@ -4,4 +4,8 @@ function greet(name) {
   return 'Hello, ' + name;
 }
 
-module.exports = { greet };
+function farewell(name) {
+  return 'Bye, ' + name;
+}
+
+module.exports = { greet, farewell };
`;

/** Breaks greet: the repo's jest test fails. */
export const NODE_BREAK_GREET = `--- a/src/greet.js
+++ b/src/greet.js
@@ -1,5 +1,5 @@
 'use strict';
 
 function greet(name) {
-  return 'Hello, ' + name;
+  return 'Hi, ' + name;
 }
`;
