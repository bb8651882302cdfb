/**
 * The install step of a Python repository's shared environment (environments.ts): a virtualenv that sees the
 * machine's packages, with the dependencies the repository declares (requirements*.txt, pyproject.toml's
 * `[project]` dependencies and test extras or dependency groups, setup.cfg's install_requires and test extras)
 * and pytest. The project itself is never installed there (its code is the checkout's, as the change makes it).
 */
import type { CheckStep } from './check-step';
import { shellQuote } from './shell-quote';

/** Extras and dependency groups read as the tests' dependencies. */
const TEST_GROUPS = ['test', 'tests', 'testing', 'dev'];

/** A requirements line that installs the checkout itself or a path of it: cannot be made apart from the checkout. */
const LOCAL_REQUIREMENT = /^\s*(-e\b|--editable\b|\.|file:|-c\s+\.|\S*\/)/;

/** The strings of TOML array `key = [...]` in `section` text, or [] (single- and multi-line arrays). */
function tomlArray(section: string, key: string): string[] {
  const m = new RegExp(`^\\s*"?${key.replace(/[.-]/g, '\\$&')}"?\\s*=\\s*\\[`, 'm').exec(section);
  if (!m) return [];
  const rest = section.slice(m.index + m[0].length);
  const end = rest.search(/\]\s*(#.*)?$/m);
  // inline tables (`{include-group = "test"}`) are not dependencies
  const body = (end < 0 ? rest : rest.slice(0, end)).replace(/\{[^}]*\}/g, '');
  return [...body.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((q) => q[1] ?? q[2]);
}

/** The text of TOML/INI section `[name]` up to the next section. */
function sectionOf(text: string, name: string): string {
  const start = text.search(new RegExp(`^\\[${name.replace(/\./g, '\\.')}\\]\\s*$`, 'm'));
  if (start < 0) return '';
  const rest = text.slice(text.indexOf('\n', start) + 1);
  const end = rest.search(/^\[/m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** `prefix.<key> = ...` lines of a TOML section as `<key> = ...`, for the dotted-key form of a table. */
function dottedKeys(section: string, prefix: string): string {
  return section
    .split('\n')
    .map((l) => (l.trimStart().startsWith(`${prefix}.`) ? l.trimStart().slice(prefix.length + 1) : l))
    .join('\n');
}

/** An INI value with its indented continuation lines, one entry per line (setup.cfg's lists). */
function iniList(section: string, key: string): string[] {
  const m = new RegExp(`^${key}\\s*=([^\\n]*)((?:\\n[ \\t]+[^\\n]*)*)`, 'm').exec(section);
  if (!m) return [];
  return `${m[1]}\n${m[2]}`
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
}

/** The dependencies pyproject.toml and setup.cfg declare for the code and its tests. */
export function declaredDependencies(pyproject: string, setupCfg: string): string[] {
  const project = sectionOf(pyproject, 'project');
  // `[project.optional-dependencies]` tables, or dotted keys inside `[project]` (`optional-dependencies.tests = [`)
  const extras =
    sectionOf(pyproject, 'project.optional-dependencies') + '\n' + dottedKeys(project, 'optional-dependencies');
  const groups = sectionOf(pyproject, 'dependency-groups');
  const options = sectionOf(setupCfg, 'options');
  const cfgExtras = sectionOf(setupCfg, 'options.extras_require');
  const found = [
    ...tomlArray(project, 'dependencies'),
    ...TEST_GROUPS.flatMap((g) => [...tomlArray(extras, g), ...tomlArray(groups, g)]),
    ...iniList(options, 'install_requires'),
    ...TEST_GROUPS.flatMap((g) => iniList(cfgExtras, g)),
  ];
  // dependency groups may include other groups (`{include-group = "..."}`): those are not strings, already left out
  return [...new Set(found.map((d) => d.trim()).filter(Boolean))];
}

/** Requirements files read as the tests' (requirements.txt, and -dev/-test ones): not those for docs, lint or types. */
export const TEST_REQUIREMENTS = /^requirements(?:[-_.](?:dev|test|tests|testing)[\w.-]*)?\.txt$/;

/** Where the checkout's own project is built for its tests (its version file and entry points included). */
export const PROJECT_SITE = '.farm-site';

export interface PythonSetup {
  /** The shared environment's install. */
  install: CheckStep;
  /** Builds the checkout's project into PROJECT_SITE, in the checkout, without network, on each run (it changes). */
  project?: CheckStep;
  /** The environment the tests run with (PYTHONPATH to the built project). */
  testPrefix: string;
}

/**
 * The steps for a shared environment, or why there is none: nothing declared, or a requirements file that
 * installs the checkout itself (an editable or local path), which a shared environment cannot hold. A project
 * with a build system (pyproject's [build-system], setup.py) gets its build requirements in the environment and
 * is built from the checkout into PROJECT_SITE before its tests, so what they import is the change's code.
 */
export function pythonInstallStep(input: {
  requirementsFiles: { name: string; text: string }[];
  pyproject: string;
  setupCfg: string;
  hasSetupPy?: boolean;
}): PythonSetup | { unshared: string } {
  const local = input.requirementsFiles.find((f) => f.text.split('\n').some((l) => LOCAL_REQUIREMENT.test(l)));
  if (local) return { unshared: `${local.name} installs the checkout itself or a path of it` };
  const declared = declaredDependencies(input.pyproject, input.setupCfg);
  if (!declared.length && !input.requirementsFiles.length) return { unshared: 'no dependencies are declared' };
  const buildSystem = sectionOf(input.pyproject, 'build-system');
  const isProject = Boolean(buildSystem.trim()) || Boolean(input.hasSetupPy);
  const buildRequires = buildSystem.trim()
    ? tomlArray(buildSystem, 'requires')
    : isProject
      ? ['setuptools', 'wheel']
      : [];
  const wantsPytest = ![...declared, ...input.requirementsFiles.map((f) => f.text)].some((d) =>
    /^\s*pytest\b/im.test(d),
  );
  const args = [
    ...input.requirementsFiles.flatMap((f) => ['-r', f.name]),
    ...declared,
    ...buildRequires,
    ...(wantsPytest ? ['pytest'] : []),
  ].map(shellQuote);
  const pip = '.venv/bin/python -m pip install --disable-pip-version-check --no-input -q';
  return {
    install: {
      name: 'install',
      run: `python3 -m venv --system-site-packages .venv && ${pip} ${args.join(' ')}`,
      network: 'host',
      installsDependencies: true,
      environment: 'python',
    },
    ...(isProject
      ? {
          project: {
            name: 'build',
            run: `rm -rf ${PROJECT_SITE} && ./${pip} --no-deps --no-build-isolation --target ${PROJECT_SITE} .`,
          },
        }
      : {}),
    testPrefix: isProject ? `PYTHONPATH=${PROJECT_SITE} ` : '',
  };
}
