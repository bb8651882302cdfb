import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkPlanFor, declaresFastMarker, describeFailure, planChecks, runChecks } from './checks';
import { ChecksConfigInvalid } from './errors';
import { explainFailure } from './output';
import { NO_NAMESPACES } from './isolation';
import { detectIsolation, runSandboxed } from './sandbox';

let repo: string;
beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'checks-test-'));
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
}

const installed =
  (...tools: string[]) =>
  (name: string) =>
    tools.includes(name) ? `/usr/bin/${name}` : undefined;

describe('detecting the checks a repository implies', () => {
  it('finds format, lint and tests in a Node repo with prettier, eslint and jest', () => {
    write({
      'package.json': JSON.stringify({
        scripts: { test: 'jest', lint: 'eslint .', format: 'prettier --write .' },
        devDependencies: { prettier: '^3.0.0', eslint: '^9.0.0', jest: '^29.0.0' },
      }),
      'node_modules/.keep': '',
    });
    expect(planChecks(repo)).toEqual({
      source: 'detected',
      steps: [
        { name: 'format', run: 'npx --no-install prettier --check .' },
        { name: 'lint', run: 'npm run --silent lint' },
        { name: 'test', run: 'npm run --silent test' },
      ],
      skipped: [],
    });
  });

  it("uses the repo's package manager and its fast scripts, and installs missing dependencies first", () => {
    write({
      'package.json': JSON.stringify({
        scripts: { test: 'vitest run', 'test:fast': 'vitest run --project unit', 'format:check': 'prettier -c .' },
        devDependencies: { vitest: '^1.0.0' },
      }),
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
    });
    expect(planChecks(repo).steps).toEqual([
      {
        name: 'install',
        run: 'pnpm install --frozen-lockfile --ignore-scripts',
        network: 'host',
        installsDependencies: true,
        environment: 'node',
      },
      { name: 'format', run: 'pnpm run --silent format:check' },
      { name: 'test', run: 'pnpm run --silent test:fast' },
    ]);
  });

  it("runs the repository's prepare script after the install (its build), but not one that installs git hooks", () => {
    write({
      'package.json': JSON.stringify({
        scripts: { test: 'node --test', build: 'gen-esm-wrapper . ./dist/koa.mjs', prepare: 'npm run build' },
        devDependencies: { 'gen-esm-wrapper': '^1.1.0' },
      }),
    });
    expect(planChecks(repo).steps.map((s) => `${s.name}: ${s.run}`)).toEqual([
      'install: npm install --ignore-scripts',
      'prepare: npm run --silent prepare',
      'test: npm run --silent test',
    ]);
    write({
      'package.json': JSON.stringify({
        scripts: { test: 'node --test', prepare: 'husky install' },
        devDependencies: { husky: '^9' },
      }),
    });
    const plan = planChecks(repo);
    expect(plan.steps.map((s) => s.name)).toEqual(['install', 'test']);
    expect(plan.skipped).toEqual([
      { name: 'prepare', reason: 'the prepare script installs git hooks (husky install)' },
    ]);
  });

  it("runs the test framework itself when the test script is npm's placeholder", () => {
    write({
      'package.json': JSON.stringify({
        scripts: { test: 'echo "Error: no test specified" && exit 1' },
        devDependencies: { jest: '^29.0.0' },
      }),
      'node_modules/.keep': '',
    });
    expect(planChecks(repo).steps).toEqual([{ name: 'test', run: 'npx --no-install jest --ci --bail' }]);
  });

  it('runs only the fast tests of a Python repo that declares a fast marker', () => {
    write({
      'pytest.ini': '[pytest]\nmarkers =\n    slow: takes minutes\n    fast: runs in the self-check\n',
      'pyproject.toml':
        '[project]\nname = "calc"\n\n[tool.black]\nline-length = 100\n\n[tool.ruff]\nline-length = 100\n',
      'calc.py': 'def add(a, b):\n    return a + b\n',
      'tests/test_calc.py': 'from calc import add\n',
    });
    const plan = planChecks(repo, { findTool: installed('black', 'pytest') });
    expect(plan.steps).toEqual([
      { name: 'format', run: 'black --check .' },
      { name: 'test', run: 'pytest -q -p no:cacheprovider -m fast' },
    ]);
    expect(plan.skipped).toEqual([{ name: 'lint', reason: 'the repository uses ruff but it is not installed here' }]);
  });

  it("prefers the repo's virtualenv and runs all tests when no fast marker exists", () => {
    write({
      'pyproject.toml': '[tool.pytest.ini_options]\nmarkers = ["slow: takes minutes"]\n',
      'test_calc.py': 'def test_ok():\n    pass\n',
      '.venv/bin/pytest': '#!/bin/sh\n',
    });
    expect(planChecks(repo, { findTool: installed() }).steps).toEqual([
      { name: 'test', run: './.venv/bin/pytest -q -p no:cacheprovider' },
    ]);
  });

  it('finds tests where pytest collects them: inside the package (shortuuid/test_shortuuid.py), not in a virtualenv', () => {
    // skorokithakis/shortuuid as it is: poetry's pyproject, a tox.ini, the tests inside the package.
    write({
      'pyproject.toml': '[tool.poetry]\nname = "shortuuid"\n\n[tool.poetry.dependencies]\npython = ">=3.6"\n',
      'tox.ini': '[tox]\nenvlist = py39\n\n[testenv]\ncommands = python setup.py test\n',
      'shortuuid/__init__.py': '',
      'shortuuid/main.py': 'def uuid():\n    return "x"\n',
      'shortuuid/test_shortuuid.py': 'import unittest\n',
    });
    expect(planChecks(repo, { findTool: installed('pytest') }).steps).toEqual([
      { name: 'test', run: 'pytest -q -p no:cacheprovider' },
    ]);
    rmSync(join(repo, 'shortuuid/test_shortuuid.py'));
    write({ '.venv/lib/site-packages/pkg/test_pkg.py': '', 'node_modules/x/y_test.py': '', 'build/test_old.py': '' });
    expect(planChecks(repo, { findTool: installed('pytest') }).steps).toEqual([]);
    write({ 'src/deep/er/calc_test.py': '' });
    expect(planChecks(repo, { findTool: installed('pytest') }).steps).toEqual([
      { name: 'test', run: 'pytest -q -p no:cacheprovider' },
    ]);
    // Found, but pytest is not installed: skipped, saying so (what the refusal before any model call names).
    expect(planChecks(repo, { findTool: installed() }).skipped).toEqual([
      { name: 'test', reason: 'the repository uses pytest but it is not installed here' },
    ]);
  });

  it("runs a Go module's, a Rust crate's, a Maven and a Gradle project's own tests when the tool is installed", () => {
    write({ 'go.mod': 'module example.com/m\n\ngo 1.22\n', 'm_test.go': 'package m\n' });
    expect(planChecks(repo, { findTool: installed('go') }).steps).toEqual([{ name: 'test', run: 'go test ./...' }]);
    expect(planChecks(repo, { findTool: installed() }).skipped).toEqual([
      { name: 'test', reason: 'the repository is a Go project but go is not installed here' },
    ]);
    rmSync(join(repo, 'go.mod'));
    write({ 'Cargo.toml': '[package]\nname = "c"\n' });
    expect(planChecks(repo, { findTool: installed('cargo') }).steps).toEqual([
      { name: 'test', run: 'cargo test --offline' },
    ]);
    rmSync(join(repo, 'Cargo.toml'));
    write({ 'build.gradle.kts': '', gradlew: '#!/bin/sh\n' });
    expect(planChecks(repo, { findTool: installed('sh') }).steps).toEqual([
      { name: 'test', run: 'sh ./gradlew test --offline' },
    ]);
    // A Node project with a Go tool beside it: one test step, the other said.
    write({ 'package.json': JSON.stringify({ scripts: { test: 'node --test' } }), 'go.mod': 'module m\n' });
    const mixed = planChecks(repo, { findTool: installed('go', 'sh') });
    expect(mixed.steps).toEqual([{ name: 'test', run: 'npm run --silent test' }]);
    expect(mixed.skipped.map((s) => s.reason)).toEqual([
      'the Go tests too (one test step runs: npm run --silent test)',
      'the Gradle tests too (one test step runs: npm run --silent test)',
    ]);
  });

  it('does not run formatters a Python repo does not use', () => {
    write({ 'main.py': 'print(1)\n' });
    expect(planChecks(repo, { findTool: installed('black', 'ruff', 'pytest') }).steps).toEqual([]);
  });

  it.each([
    ['INI continuation lines', '[pytest]\nmarkers =\n  fast: quick\n  slow\n', true],
    ['a TOML array', 'markers = [\n  "slow: minutes",\n  "fast: seconds",\n]\n', true],
    ['a one-line TOML array', 'markers = ["fast", "slow"]\n', true],
    ['a look-alike marker', '[pytest]\nmarkers =\n  fastapi: api tests\n', false],
    ['markers of another setting', '[pytest]\nmarkers =\n  slow: minutes\naddopts = -m fast\n', false],
  ])('tells whether %s declares a fast marker', (_what, config, expected) => {
    expect(declaresFastMarker(config)).toBe(expected);
  });

  it('lets .farm/checks.json replace everything it would detect', () => {
    write({
      'package.json': JSON.stringify({ scripts: { test: 'jest' }, devDependencies: { jest: '^29' } }),
      '.farm/checks.json': JSON.stringify({
        steps: [
          { name: 'types', run: 'npx tsc --noEmit', timeoutSeconds: 120, memoryMb: 2048, maxProcesses: 64 },
          { name: 'unit', run: 'npm run test:unit' },
        ],
        maxRetries: 1,
      }),
    });
    expect(planChecks(repo)).toEqual({
      source: 'config',
      steps: [
        { name: 'types', run: 'npx tsc --noEmit', timeoutSeconds: 120, memoryMb: 2048, maxProcesses: 64 },
        { name: 'unit', run: 'npm run test:unit' },
      ],
      maxRetries: 1,
      skipped: [],
    });
  });

  it('runs the command a task or build request names instead of anything the repository says', () => {
    write({
      'package.json': JSON.stringify({ scripts: { test: 'jest' }, devDependencies: { jest: '^29' } }),
      '.farm/checks.json': JSON.stringify({ steps: [{ name: 'unit', run: 'npm run test:unit' }], maxRetries: 1 }),
    });
    expect(checkPlanFor(repo, 'make test')).toEqual({
      source: 'config',
      steps: [{ name: 'check', run: 'make test' }],
      skipped: [],
    });
    expect(checkPlanFor(repo, '')).toEqual(planChecks(repo));
    expect(checkPlanFor(repo, undefined).steps).toEqual([{ name: 'unit', run: 'npm run test:unit' }]);
  });

  it('names every problem of an invalid .farm/checks.json', () => {
    write({ '.farm/checks.json': JSON.stringify({ steps: [{ name: 'lint', timeout: 5 }], maxRetries: -1 }) });
    expect(() => planChecks(repo)).toThrow(ChecksConfigInvalid);
    expect(() => planChecks(repo)).toThrow(/steps\.0\.run: Required/);
    expect(() => planChecks(repo)).toThrow(/steps\.0: Unrecognized key.*timeout/);
    expect(() => planChecks(repo)).toThrow(/maxRetries: Number must be greater than or equal to 0/);
    write({ '.farm/checks.json': '{ "steps": [ }' });
    expect(() => planChecks(repo)).toThrow(/\.farm\/checks\.json is invalid:\n {2}not valid JSON/);
  });
});

describe('running the checks', () => {
  it("stops at the first failing step and keeps pytest's failure and summary, not the passing noise", async () => {
    write({
      'calc.py': 'def add(a, b):\n    return a - b  # the bug\n',
      'test_many.py':
        'import pytest\n\n@pytest.mark.parametrize("n", range(3000))\ndef test_passes(n):\n    assert n >= 0\n',
      'test_calc.py': 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    });
    const steps = [
      { name: 'format', run: 'true' },
      { name: 'test', run: 'python3 -m pytest -q -p no:cacheprovider' },
      { name: 'after', run: 'touch after-ran' },
    ];
    const result = await runChecks(repo, steps, { limits: { maxOutputBytes: 1500 } });
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => [s.name, s.ok])).toEqual([
      ['format', true],
      ['test', false],
    ]);
    expect(existsSync(join(repo, 'after-ran'))).toBe(false);
    const failure = result.failed!;
    expect(failure.exitCode).toBe(1);
    expect(failure.output.length).toBeLessThan(1700);
    expect(failure.output).toMatch(/={5,} FAILURES ={5,}/);
    expect(failure.output).toContain('assert -1 == 5');
    expect(failure.output).toMatch(/1 failed, 3000 passed/);
    expect(failure.output).not.toMatch(/\.{200}/); // the progress dots of the passing tests are gone
    expect(describeFailure(result)).toMatch(/^The check "test" \(`python3 -m pytest .*`\) failed with exit code 1:\n/);
    // nothing the checks wrote may show up in the agent's diff
    expect(existsSync(join(repo, '.pytest_cache'))).toBe(false);
    expect(existsSync(join(repo, '__pycache__'))).toBe(false);
  });

  it('reports a denylisted step as a refused failure and runs nothing after it', async () => {
    const result = await runChecks(repo, [
      { name: 'publish', run: 'git push -f origin main' },
      { name: 'after', run: 'touch after-ran' },
    ]);
    expect(result.ok).toBe(false);
    expect(result.failed).toMatchObject({ name: 'publish', denied: { rule: 'git-force-push' } });
    expect(describeFailure(result)).toContain('was refused');
    expect(existsSync(join(repo, 'after-ran'))).toBe(false);
  });

  it('reports a step the sandbox cannot confine as refused, naming what is missing, and runs nothing', async () => {
    const result = await runChecks(
      repo,
      [
        { name: 'test', run: 'touch ran' },
        { name: 'after', run: 'touch after-ran' },
      ],
      { sandbox: (req) => runSandboxed({ ...req, capabilities: { namespaces: NO_NAMESPACES } }) },
    );
    expect(result.ok).toBe(false);
    expect(result.steps).toHaveLength(1);
    expect(result.failed).toMatchObject({ name: 'test', denied: { rule: 'confinement' } });
    expect(result.failed!.output).toContain('refused by the sandbox: the sandbox cannot confine repository commands');
    expect(describeFailure(result)).toContain('FARM_SANDBOX_ACCEPT_RISK=network,filesystem,processes');
    expect(existsSync(join(repo, 'ran'))).toBe(false);
  });

  it("does not let a repository's checks.json widen the operator's network or timeout", async () => {
    const server = http.createServer((_req, res) => res.end('the host'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    // a check that talks to itself on loopback, as socket tests do, and one that reaches for the host
    const selfTalk =
      "node -e \"const net = require('net'); const s = net.createServer((c) => c.end('pong'))" +
      ".listen(0, '127.0.0.1', () => net.connect(s.address().port, '127.0.0.1')" +
      ".on('data', (d) => { console.log('own loopback:', String(d)); process.exit(0); }))\"";
    const reachHost =
      `node -e "require('http').get('http://127.0.0.1:${port}/', (r) => { console.log('reached', r.statusCode); process.exit(0); })` +
      `.on('error', (e) => { console.log('host unreachable:', e.code); process.exit(3); })"`;
    write({
      '.farm/checks.json': JSON.stringify({
        steps: [
          { name: 'sockets', run: selfTalk, timeoutSeconds: 100_000 },
          { name: 'escape', run: reachHost, network: 'host', timeoutSeconds: 100_000 },
        ],
      }),
    });
    try {
      const result = await runChecks(repo, planChecks(repo).steps, {
        ceilings: { timeoutSeconds: 20, hostNetwork: 'off' },
      });
      const [sockets, escape] = result.steps;
      expect(sockets.notes).toEqual(["timeoutSeconds 100000 s is above the operator's limit: 20 s applies"]);
      expect(escape.notes).toEqual([
        "timeoutSeconds 100000 s is above the operator's limit: 20 s applies",
        'network "host" is not allowed (FARM_CHECK_HOST_NETWORK=off): the step runs without network',
      ]);
      expect(escape.output).toMatch(/^\[checks: timeoutSeconds .*\]\n\[checks: network "host" is not allowed/);
      const isolation = await detectIsolation('none');
      if (isolation.network === 'namespace') {
        expect(escape).toMatchObject({ ok: false, exitCode: 3 });
        expect(escape.output).toMatch(/host unreachable: E[A-Z]+/);
        expect(describeFailure(result)).toContain('network "host" is not allowed');
      }
      if (isolation.loopback === 'own') {
        expect(sockets).toMatchObject({ ok: true });
        expect(sockets.output).toContain('own loopback: pong');
      }
    } finally {
      server.close();
    }
  });

  it("ends a step at the operator's timeout when checks.json asks for a longer one", async () => {
    write({
      '.farm/checks.json': JSON.stringify({ steps: [{ name: 'hang', run: 'sleep 600', timeoutSeconds: 100_000 }] }),
    });
    const result = await runChecks(repo, planChecks(repo).steps, { ceilings: { timeoutSeconds: 1 } });
    expect(result.failed).toMatchObject({ name: 'hang', timedOut: true, killedBy: 'timeout' });
    expect(result.failed!.notes).toEqual(["timeoutSeconds 100000 s is above the operator's limit: 1 s applies"]);
  });

  it('stops a step at its own timeout and says so', async () => {
    const result = await runChecks(repo, [{ name: 'hang', run: 'sleep 600', timeoutSeconds: 1 }]);
    expect(result.failed).toMatchObject({ name: 'hang', timedOut: true, killedBy: 'timeout' });
    expect(describeFailure(result)).toContain('was stopped (timeout)');
  });
});

describe('cutting output down to the failure', () => {
  it("keeps jest's failure blocks and summary", () => {
    const passing = Array.from({ length: 400 }, (_, i) => `PASS src/module${i}.test.ts`).join('\n');
    const output = [
      passing,
      'FAIL src/calc.test.ts',
      '  ● calculator › adds',
      '',
      '    expect(received).toBe(expected)',
      '    Expected: 5',
      '    Received: -1',
      '',
      'Test Suites: 1 failed, 400 passed, 401 total',
      'Tests:       1 failed, 1200 passed, 1201 total',
    ].join('\n');
    const explained = explainFailure(output, 2000);
    expect(explained).toMatch(/^\[\.\.\. 400 lines before the failures omitted \.\.\.\]\nFAIL src\/calc\.test\.ts/);
    expect(explained).toContain('Received: -1');
    expect(explained).toContain('Tests:       1 failed');
    expect(explained).not.toContain('PASS src/module1.test.ts');
  });
});
