/**
 * Per-test outcomes read from a test run's log, as SWE-bench's harness reads them: the test ids of the
 * instance's lists are looked up here. pytest (`-rA` summary lines, or `-v` lines), unittest (`-v`) and
 * node's test runner (TAP or spec output).
 */
import type { LogParserName } from './instances';

export type TestStatus = 'PASSED' | 'FAILED' | 'SKIPPED';

export function parseTestLog(parser: LogParserName, log: string): Map<string, TestStatus> {
  switch (parser) {
    case 'pytest':
      return parsePytest(log);
    case 'unittest':
      return parseUnittest(log);
    case 'node-test':
      return parseNodeTest(log);
  }
}

const PYTEST_STATUS: Record<string, TestStatus> = {
  PASSED: 'PASSED',
  XFAIL: 'PASSED',
  FAILED: 'FAILED',
  ERROR: 'FAILED',
  XPASS: 'FAILED',
  SKIPPED: 'SKIPPED',
};

function parsePytest(log: string): Map<string, TestStatus> {
  const out = new Map<string, TestStatus>();
  // `-rA` short summary: "PASSED tests/test_a.py::test_x", "FAILED tests/test_a.py::test_y - AssertionError"
  // (a parametrized id may hold spaces: `test_x[a b]`)
  for (const m of log.matchAll(/^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+::.+?)(?: - .*)?$/gm)) {
    out.set(m[2], PYTEST_STATUS[m[1]]);
  }
  // `-v`: "tests/test_a.py::test_x PASSED [ 50%]"
  for (const m of log.matchAll(/^(\S+::\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/gm)) {
    if (!out.has(m[1])) out.set(m[1], PYTEST_STATUS[m[2]]);
  }
  return out;
}

function parseUnittest(log: string): Map<string, TestStatus> {
  const out = new Map<string, TestStatus>();
  // Python 3.11+: "test_x (pkg.mod.Class.test_x) ... ok"; before: "test_x (pkg.mod.Class) ... ok". A docstring's
  // first line may stand between the name and the dots, on the next line.
  const line =
    /^(\w+) \(([\w.]+)\)(?:\n[^\n]*?)?\s\.\.\. (ok|FAIL|ERROR|expected failure|unexpected success|skipped)/gm;
  for (const m of log.matchAll(line)) {
    const id = m[2].endsWith(`.${m[1]}`) ? m[2] : `${m[2]}.${m[1]}`;
    const status: TestStatus =
      m[3] === 'ok' || m[3] === 'expected failure' ? 'PASSED' : m[3] === 'skipped' ? 'SKIPPED' : 'FAILED';
    out.set(id, status);
    // Django's lists name a test as "test_x (pkg.mod.Class)": answer that form too.
    out.set(`${m[1]} (${id.slice(0, -m[1].length - 1)})`, status);
  }
  return out;
}

function parseNodeTest(log: string): Map<string, TestStatus> {
  const out = new Map<string, TestStatus>();
  // TAP: "ok 1 - name", "not ok 2 - name", "# SKIP" directives; nested subtests are indented.
  for (const m of log.matchAll(/^\s*(ok|not ok) \d+ - (.+?)(\s+# (SKIP|TODO)\b.*)?$/gm)) {
    out.set(m[2], m[3] ? 'SKIPPED' : m[1] === 'ok' ? 'PASSED' : 'FAILED');
  }
  // spec reporter: "✔ name (1.2ms)", "✖ name (3ms)", "﹣ name (0.1ms) # SKIP"
  for (const m of log.matchAll(/^\s*(✔|✖|﹣) (.+?)(?: \([\d.]+m?s\))?(\s+# SKIP.*)?$/gm)) {
    if (!out.has(m[2])) out.set(m[2], m[1] === '✔' ? 'PASSED' : m[1] === '✖' ? 'FAILED' : 'SKIPPED');
  }
  return out;
}
