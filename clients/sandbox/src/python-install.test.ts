// A Python repository's shared environment: what its install step installs (declared dependencies, never the
// checkout itself), and, through the real sandbox, a virtualenv set up once from a local wheel index and linked
// as `.venv` into each checkout, whose tests then import the dependency and the checkout's own code.
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { planChecks, runChecks } from './checks';
import { EnvironmentStore } from './environments';
import { declaredDependencies, pythonInstallStep } from './python-install';

describe('what a Python repository declares', () => {
  test('pyproject: dependencies, test extras and dependency groups; setup.cfg: install_requires and test extras', () => {
    const pyproject = [
      '[project]',
      'name = "app"',
      'dependencies = [',
      '  "requests>=2",',
      "  'attrs',",
      ']',
      '[project.optional-dependencies]',
      'test = ["pytest>=7", "hypothesis"]',
      'docs = ["sphinx"]',
      '[dependency-groups]',
      'dev = ["freezegun", {include-group = "test"}]',
    ].join('\n');
    const setupCfg = [
      '[options]',
      'install_requires =',
      '    six',
      '    pytz # time zones',
      '[options.extras_require]',
      'testing =',
      '    mock',
    ].join('\n');
    expect(declaredDependencies(pyproject, setupCfg)).toEqual([
      'requests>=2',
      'attrs',
      'pytest>=7',
      'hypothesis',
      'freezegun',
      'six',
      'pytz',
      'mock',
    ]);
  });

  test('the install step: requirements files and declared dependencies, pytest added when none names it', () => {
    const setup = pythonInstallStep({
      requirementsFiles: [{ name: 'requirements-dev.txt', text: 'black\n' }],
      pyproject: '[project]\ndependencies = ["attrs>=21"]\n',
      setupCfg: '',
    });
    expect(setup).toEqual({
      install: {
        name: 'install',
        run: "python3 -m venv --system-site-packages .venv && .venv/bin/python -m pip install --disable-pip-version-check --no-input -q -r requirements-dev.txt 'attrs>=21' pytest",
        network: 'host',
        installsDependencies: true,
        environment: 'python',
      },
      testPrefix: '',
    });
  });

  test('a project with a build system: its build requirements shared, itself built from the checkout for its tests', () => {
    const pyproject = [
      '[build-system]',
      'requires = ["hatchling", "hatch-vcs"]',
      '[project]',
      'name = "humanize"',
      'optional-dependencies.tests = [',
      '  "freezegun",',
      '  "pytest>=9",',
      ']',
    ].join('\n');
    const setup = pythonInstallStep({ requirementsFiles: [], pyproject, setupCfg: '' });
    if ('unshared' in setup) throw new Error(setup.unshared);
    expect(setup.install.run).toMatch(/ -q freezegun 'pytest>=9' hatchling hatch-vcs$/);
    expect(setup.project?.run).toBe(
      'rm -rf .farm-site && ./.venv/bin/python -m pip install --disable-pip-version-check --no-input -q --no-deps --no-build-isolation --target .farm-site .',
    );
    expect(setup.testPrefix).toBe('PYTHONPATH=.farm-site ');
  });

  test.each([
    ['-e .[test]', 'requirements.txt installs the checkout itself'],
    ['./vendor/lib', 'requirements.txt installs the checkout itself'],
    ['file:../other', 'requirements.txt installs the checkout itself'],
  ])('a requirement of the checkout itself (%s) is not shared', (line, why) => {
    const step = pythonInstallStep({
      requirementsFiles: [{ name: 'requirements.txt', text: `${line}\n` }],
      pyproject: '',
      setupCfg: '',
    });
    expect(step).toEqual({ unshared: expect.stringContaining(why) });
  });

  test('nothing declared: nothing to share', () => {
    expect(pythonInstallStep({ requirementsFiles: [], pyproject: '[project]\nname = "x"\n', setupCfg: '' })).toEqual({
      unshared: 'no dependencies are declared',
    });
  });
});

describe('a shared virtualenv through the sandbox', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'farm-venv-'));
  });
  afterEach(async () => rm(tmp, { recursive: true, force: true }));

  /** A wheel of `tinylib` (VALUE = 42) in a local index directory: the install needs no network. */
  function wheelIndex(): string {
    const index = path.join(tmp, 'wheels');
    execFileSync('python3', [
      '-c',
      [
        'import sys, zipfile, os',
        'os.makedirs(sys.argv[1], exist_ok=True)',
        "z = zipfile.ZipFile(os.path.join(sys.argv[1], 'tinylib-1.0-py3-none-any.whl'), 'w')",
        "z.writestr('tinylib/__init__.py', 'VALUE = 42\\n')",
        "z.writestr('tinylib-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: tinylib\\nVersion: 1.0\\n')",
        "z.writestr('tinylib-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')",
        "z.writestr('tinylib-1.0.dist-info/RECORD', '')",
        'z.close()',
      ].join('\n'),
      index,
    ]);
    return index;
  }

  async function checkout(name: string, index: string): Promise<string> {
    const dir = path.join(tmp, name);
    await mkdir(dir);
    // pytest comes from the machine (the environment sees its packages); the index holds tinylib only.
    await writeFile(path.join(dir, 'requirements.txt'), `--no-index\n--find-links ${index}\ntinylib==1.0\npytest\n`);
    await writeFile(path.join(dir, 'app.py'), 'def answer():\n    return 42\n');
    await writeFile(
      path.join(dir, 'test_app.py'),
      'import tinylib\nfrom app import answer\n\ndef test_answer():\n    assert answer() == tinylib.VALUE\n',
    );
    return dir;
  }

  test('set up once, linked as .venv into each checkout; the tests import the dependency and the checkout', async () => {
    const index = wheelIndex();
    const store = new EnvironmentStore({ root: path.join(tmp, 'store') });
    const run = async (dir: string) => {
      const plan = planChecks(dir, { sharedPythonInstall: true });
      return runChecks(dir, plan.steps, {
        environments: store,
        ceilings: { hostNetwork: 'install' },
        writableDirs: [index], // the index lies under the /tmp the sandbox covers: bound in like a package cache
      });
    };
    const first = await checkout('a', index);
    expect(planChecks(first, { sharedPythonInstall: true }).steps.map((s) => s.run)).toEqual([
      expect.stringMatching(/^python3 -m venv --system-site-packages \.venv && .*-r requirements\.txt$/),
      './.venv/bin/python -m pytest -q -p no:cacheprovider',
    ]);
    const a = await run(first);
    expect(a.failed?.output).toBeUndefined();
    expect([a.ok, a.steps.map((s) => s.environment?.how ?? s.name)]).toEqual([true, ['built', 'test']]);
    expect((await lstat(path.join(first, '.venv'))).isSymbolicLink()).toBe(true);
    const b = await run(await checkout('b', index));
    expect([b.ok, b.steps[0].environment?.how]).toEqual([true, 'reused']);
    // Planned again over a linked .venv: the install stays in the plan (the manifests may have changed).
    expect(planChecks(first, { sharedPythonInstall: true }).steps.map((s) => s.name)).toEqual(['install', 'test']);
    // Without a store or the install network, the tests run on what the machine has, as before.
    expect(planChecks(await checkout('c', index), { sharedPythonInstall: false }).steps.map((s) => s.run)).toEqual([
      'pytest -q -p no:cacheprovider',
    ]);
  }, 120_000);
});
