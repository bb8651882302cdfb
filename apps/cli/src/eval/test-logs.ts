/**
 * Per-test outcomes read from a test run's log, under the names SWE-bench's harness gives the tests (its
 * `swebench/harness/log_parsers`), so that an instance's FAIL_TO_PASS and PASS_TO_PASS ids, made by those
 * parsers, are found as they are written. A test may be known by several names (SWE-bench's, and the dotted or
 * whole id); a later line naming a test replaces what an earlier one said, as in SWE-bench's maps.
 *
 * - `pytest`: SWE-bench's `parse_log_pytest`: a line `STATUS <id>` (pytest's `-rA` summary), the id cut at its
 *   first space (`test_x[a b]` is `test_x[a`, as its published ids are); the whole id is a name too.
 * - `pytest-v2`: SWE-bench's `parse_log_pytest_v2` (astropy, scikit-learn, sphinx): the whole id, spaces kept
 *   (an id cut short in a dataset is matched by grading.ts); colour codes removed.
 *   Both also read `-v` lines, `<id> STATUS` (with or without `[ 50%]`), which SWE-bench's summary lines override.
 * - `unittest` / `django`: SWE-bench's `parse_log_django`: the test's name is what its line says before
 *   ` ... ` (Python 3.11+: `test_x (pkg.mod.Class.test_x)`, before: `test_x (pkg.mod.Class)`; a test with a
 *   docstring prints the docstring's first line there, on the line after its name, and that line is the name
 *   SWE-bench's ids use); the dotted id `pkg.mod.Class.test_x` and the other Python's form are names too.
 * - `node-test`: node's test runner (TAP or spec output), the farm's own.
 */
import type { LogParserName } from './instances';

/** SWE-bench's statuses (its `TestStatus`): XFAIL counts as passing, ERROR as failing. */
export type TestStatus = 'PASSED' | 'FAILED' | 'ERROR' | 'SKIPPED' | 'XFAIL';

export function parseTestLog(parser: LogParserName, log: string): Map<string, TestStatus> {
  switch (parser) {
    case 'pytest':
      return parsePytest(log, { cutAtSpace: true });
    case 'pytest-v2':
      return parsePytest(log, { cutAtSpace: false });
    case 'unittest':
    case 'django':
      return parseUnittest(log);
    case 'node-test':
      return parseNodeTest(log);
  }
}

/** Colour codes and other control characters a terminal-minded runner prints (kept: tab and newline). */
const stripControls = (line: string) =>
  // eslint-disable-next-line no-control-regex
  line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');

const PYTEST_WORDS = 'PASSED|FAILED|ERROR|SKIPPED|XFAIL';

function parsePytest(log: string, o: { cutAtSpace: boolean }): Map<string, TestStatus> {
  const out = new Map<string, TestStatus>();
  const summary = new RegExp(`^(${PYTEST_WORDS}) +(\\S.*)$`);
  const verbose = new RegExp(`^(\\S+::.*?) +(${PYTEST_WORDS})(?: +\\[ *\\d+%\\])?$`);
  for (const raw of log.split('\n')) {
    const line = stripControls(raw).trimEnd();
    const s = summary.exec(line);
    if (s) {
      const [, status, rest] = s;
      // `SKIPPED [2] tests/test_a.py:12: reason`: a count of skipped tests, no test's id
      if (status === 'SKIPPED' && /^\[\d+\]$/.test(rest.split(/\s+/)[0])) continue;
      const id = words(withoutMessage(rest));
      const names = [id];
      if (o.cutAtSpace) names.push(rest.split(/\s+/)[0]);
      // SWE-bench's v2 parser keeps what follows " - " in the id but on FAILED lines
      else if (status !== 'FAILED' && words(rest) !== id) names.push(words(rest));
      for (const name of names) out.set(name, status as TestStatus);
      continue;
    }
    const v = verbose.exec(line);
    if (v) {
      const id = words(v[1]);
      out.set(id, v[2] as TestStatus);
      if (o.cutAtSpace) out.set(id.split(' ')[0], v[2] as TestStatus);
    }
  }
  return out;
}

/** Runs of white space as one space, as SWE-bench's `" ".join(line.split())` makes them. */
const words = (s: string) => s.trim().split(/\s+/).join(' ');

/**
 * The id before pytest's ` - <message>`: the first ` - ` outside the id's brackets (a parametrized id may hold
 * one, `test_x[a - b]`).
 */
function withoutMessage(rest: string): string {
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && rest.startsWith(' - ', i)) return rest.slice(0, i);
  }
  return rest;
}

/** `test_x (pkg.mod.Class.test_x)` (Python 3.11+) or `test_x (pkg.mod.Class)` (before). */
const UNITTEST_NAME = /^(\w+) \(([\w.]+)\)$/;

/** Every name of a test whose line says `name`: itself, the dotted id and the other Python's form of it. */
function unittestNames(name: string): string[] {
  const m = UNITTEST_NAME.exec(name);
  if (!m) return [name];
  const [, method, where] = m;
  const dotted = where.endsWith(`.${method}`) ? where : `${where}.${method}`;
  const owner = dotted.slice(0, -method.length - 1);
  return [...new Set([name, dotted, `${method} (${owner})`, `${method} (${dotted})`])];
}

const UNITTEST_VERDICTS: [RegExp, TestStatus][] = [
  [/^(?:ok|OK| OK)$/, 'PASSED'],
  [/^skipped\b/, 'SKIPPED'],
  [/^FAIL$/, 'FAILED'],
  [/^ERROR$/, 'ERROR'],
  [/^expected failure$/, 'XFAIL'],
  [/^unexpected success$/, 'FAILED'],
];

const verdictOf = (text: string) => UNITTEST_VERDICTS.find(([re]) => re.test(text))?.[1];

function parseUnittest(log: string): Map<string, TestStatus> {
  const out = new Map<string, TestStatus>();
  const record = (names: string[], status: TestStatus) => names.forEach((n) => out.set(n, status));
  /** The names of the test whose line had its ` ... ` last: a verdict on a later line is its. */
  let current: string[] = [];
  /** A test's name on a line of its own: its docstring's first line follows, with the dots. */
  let namedAlone: string[] = [];
  for (const raw of log.split('\n')) {
    const line = stripControls(raw).trim();
    // Django's `--version` test prints the version between its dots and its verdict: SWE-bench's parser
    // counts it passed wherever the line is, and so do its ids.
    if (line.includes('--version is equivalent to version')) out.set('--version is equivalent to version', 'PASSED');
    const dots = line.indexOf(' ... ');
    if (dots >= 0) {
      // a migration's "Applying x... OK" may run into the test's name on the same line
      const head = line.slice(0, dots).replace(/^.*\.\.\.(?=\w+ \([\w.]+\)$)/, '');
      current = UNITTEST_NAME.test(head) ? unittestNames(head) : [head, ...namedAlone];
      namedAlone = [];
      // the verdict after the dots, or after the last ones when the test printed some of its own
      const verdict = verdictOf(line.slice(dots + 5)) ?? verdictOf(line.slice(line.lastIndexOf(' ... ') + 5));
      if (verdict) {
        record(current, verdict);
        current = [];
      }
      continue;
    }
    if (UNITTEST_NAME.test(line)) {
      namedAlone = unittestNames(line);
      continue;
    }
    // `FAIL: test_x (pkg.mod.Class.test_x)`: SWE-bench names the test by its method alone there
    const header = /^(FAIL|ERROR): (\S+)/.exec(line);
    if (header) {
      out.set(header[2], header[1] === 'FAIL' ? 'FAILED' : 'ERROR');
      continue;
    }
    // the test printed between its dots and its verdict: the verdict alone on a line is the current test's
    const verdict = current.length ? verdictOf(line) : undefined;
    if (verdict) {
      record(current, verdict);
      current = [];
    }
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
