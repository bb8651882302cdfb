/**
 * The self-check pipeline: which checks a repository implies (format, lint, fast tests), or what its own
 * `.farm/checks.json` says, run in order in the sandbox, stopping at the first failure, whose output is
 * cut down to the part that explains it (for the model to fix).
 *
 * Detection decides, in this order:
 * - `.farm/checks.json` in the repository replaces everything below. Its timeouts, memory, process counts
 *   and network can only narrow what the operator allows (check-policy.ts).
 * - Node (package.json), with the repo's package manager (pnpm/yarn lockfile, else npm):
 *   install (`npm ci --ignore-scripts`, asking for the host network, which the operator may refuse) when
 *   there are dependencies but no node_modules (or one linked to a shared environment, environments.ts), then the
 *   package's `prepare` script offline (npm would run it after the install; not one that installs git hooks);
 *   format: a `format:check` script, a `format` script that only checks, else `prettier --check .` when
 *   prettier is a dependency (a `format` script that rewrites files would hide problems, not report them);
 *   lint: a `lint` script, else `eslint .` when eslint is a dependency;
 *   tests: a `test:fast`/`test:unit` script, else a real `test` script (not npm's placeholder), else
 *   jest/vitest/mocha directly with their stop-at-first-failure flag.
 * - Python: black, ruff and pytest each only when the repository uses it (configured in pyproject.toml /
 *   setup.cfg / pytest.ini / tox.ini / ruff.toml, listed as a dependency, or for pytest: test files where
 *   pytest collects them, inside packages too, or a conftest.py) AND it is installed (the repo's .venv, else
 *   PATH). A formatter the repo does not use would fail on style nobody asked for; a configured tool that is
 *   not installed is reported as skipped.
 *   pytest runs `-m fast` when a `fast` marker is declared.
 * - Go (`go test ./...`), Rust (`cargo test --offline`), Maven (`mvn -o test`), Gradle (`./gradlew test
 *   --offline`): when the manifest is at the top and the tool is installed; one test step per plan.
 */
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { z, type Logger } from '@farm/runtime';
import { ceilingsOrDefaults, settleStep, type CheckCeilings } from './check-policy';
import type { CheckStep } from './check-step';
import { ChecksConfigInvalid, CommandDenied } from './errors';
import { ConfinementUnavailable } from './confinement';
import { explainFailure } from './output';
import { EnvironmentStore, LINK_MARKER, environmentOf } from './environments';
import { TEST_REQUIREMENTS, pythonInstallStep } from './python-install';
import { repoFiles, type RepoFiles } from './repo-files';
import type { Isolation } from './isolation';
import { whyNotRunnable } from './runnable';
import { detectIsolation, runSandboxed } from './sandbox';
import type { SandboxLimits, SandboxRequest, SandboxResult } from './sandbox-request';

export interface CheckPlan {
  steps: CheckStep[];
  /** From `.farm/checks.json`: how many times the agent may retry after failed checks. */
  maxRetries?: number;
  source: 'config' | 'detected';
  /** Checks the repository implies but that cannot run here, and why. */
  skipped: { name: string; reason: string }[];
}

export const CHECKS_CONFIG = '.farm/checks.json';

const ChecksConfigSchema = z
  .object({
    steps: z
      .array(
        z
          .object({
            name: z.string().min(1),
            run: z.string().min(1),
            timeoutSeconds: z.number().int().positive().optional(),
            memoryMb: z.number().int().positive().optional(),
            maxProcesses: z.number().int().positive().optional(),
            network: z.enum(['none', 'host']).optional(),
          })
          .strict(),
      )
      .min(1),
    maxRetries: z.number().int().min(0).max(20).optional(),
  })
  .strict();

/** The repository's own check configuration, validated; undefined when it has none. */
export function loadChecksConfig(repo: string | RepoFiles): { steps: CheckStep[]; maxRetries?: number } | undefined {
  const text = repoFiles(repo).read(CHECKS_CONFIG);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ChecksConfigInvalid(CHECKS_CONFIG, [`not valid JSON: ${(err as Error).message}`]);
  }
  const parsed = ChecksConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new ChecksConfigInvalid(
      CHECKS_CONFIG,
      parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`),
    );
  }
  return parsed.data;
}

export interface DetectOptions {
  /** Where an installed tool is, or undefined; default: a search of PATH. */
  findTool?: (name: string) => string | undefined;
  /**
   * Whether a Python repository's declared dependencies are installed into a shared environment (python-install.ts)
   * before its tests. Default: when FARM_ENVIRONMENTS_DIR names a store and FARM_CHECK_HOST_NETWORK lets installs
   * reach the index; otherwise its tests run on what the machine has, as before.
   */
  sharedPythonInstall?: boolean;
}

function sharedPythonInstallFromEnv(): boolean {
  const network = process.env.FARM_CHECK_HOST_NETWORK;
  return Boolean(process.env.FARM_ENVIRONMENTS_DIR) && (network === 'install' || network === 'on');
}

/** The checks to run for a repository (see the module comment for how they are chosen). */
export function detectChecks(repo: string | RepoFiles, opts: DetectOptions = {}): CheckStep[] {
  return planChecks(repo, opts).steps;
}

/**
 * The checks a change must pass: the command a task or a build request names, when it names one (it wins over
 * the repository's own file), else planChecks.
 */
export function checkPlanFor(repo: string | RepoFiles, command?: string | null, opts: DetectOptions = {}): CheckPlan {
  if (command) return { steps: [{ name: 'check', run: command }], source: 'config', skipped: [] };
  return planChecks(repo, opts);
}

/** The plan for a checkout (its directory) or for the files of a tree that is not checked out (RepoFiles). */
export function planChecks(repo: string | RepoFiles, opts: DetectOptions = {}): CheckPlan {
  const files = repoFiles(repo);
  const config = loadChecksConfig(files);
  if (config) return { ...config, source: 'config', skipped: [] };
  const plan: CheckPlan = { steps: [], source: 'detected', skipped: [] };
  const findTool = opts.findTool ?? findOnPath;
  nodeChecks(files, plan);
  pythonChecks(files, plan, findTool, opts.sharedPythonInstall ?? sharedPythonInstallFromEnv());
  compiledChecks(files, plan, findTool);
  return plan;
}

/**
 * Go, Rust and the JVM: each stack's own test command, as its authors run it, when its manifest is at the top
 * and its tool is installed (else skipped, saying so). Their dependencies come from the environment: the
 * checks have no network.
 */
function compiledChecks(files: RepoFiles, plan: CheckPlan, findTool: (name: string) => string | undefined): void {
  const has = (f: string) => files.exists(f);
  const gradlew = has('gradlew');
  const stacks: { name: string; manifest: boolean; program: string; run: string }[] = [
    { name: 'Go', manifest: has('go.mod'), program: 'go', run: 'go test ./...' },
    { name: 'Rust', manifest: has('Cargo.toml'), program: 'cargo', run: 'cargo test --offline' },
    { name: 'Maven', manifest: has('pom.xml'), program: 'mvn', run: 'mvn -B -q -o test' },
    {
      name: 'Gradle',
      manifest: has('build.gradle') || has('build.gradle.kts'),
      program: gradlew ? 'sh' : 'gradle',
      run: gradlew ? 'sh ./gradlew test --offline' : 'gradle test --offline',
    },
  ];
  // One test step per plan: a repository mixing stacks keeps the first (Node, then Python) and says so.
  for (const { name, manifest, program, run } of stacks) {
    if (!manifest) continue;
    const test = plan.steps.find((s) => s.name === 'test');
    if (test) plan.skipped.push({ name: 'test', reason: `the ${name} tests too (one test step runs: ${test.run})` });
    else if (findTool(program)) plan.steps.push({ name: 'test', run });
    else
      plan.skipped.push({
        name: 'test',
        reason: `the repository is a ${name} project but ${program} is not installed here`,
      });
  }
}

/** The tools whose copy in the repository's own virtualenv is preferred to the one on PATH. */
const VENV_TOOLS = ['black', 'ruff', 'pytest'];
const VENVS = ['.venv', 'venv'];
const REQUIREMENTS = /^requirements.*\.txt$/;
/** pytest's default test file names (python_files). */
const PYTEST_FILE = /^test_.*\.py$|^.+_test\.py$/;

/**
 * Every path planChecks may look at, given the repository's top-level names: what a tree that is not
 * checked out must provide (a RepoFiles snapshot refuses any other, so a rule reading a new file is caught).
 */
export function planInputs(topLevel: readonly string[]): string[] {
  return [
    CHECKS_CONFIG,
    'package.json',
    'pnpm-lock.yaml',
    'yarn.lock',
    'package-lock.json',
    'node_modules',
    `node_modules/${LINK_MARKER}`,
    'pyproject.toml',
    'setup.cfg',
    'pytest.ini',
    'tox.ini',
    'conftest.py',
    'tests/conftest.py',
    'go.mod',
    'Cargo.toml',
    'pom.xml',
    'build.gradle',
    'build.gradle.kts',
    'gradlew',
    ...topLevel.filter((f) => REQUIREMENTS.test(f)),
    ...VENVS.flatMap((venv) => [...VENV_TOOLS, 'python'].map((tool) => `${venv}/bin/${tool}`)),
    `.venv/${LINK_MARKER}`,
  ];
}

interface PackageJson {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const NPM_PLACEHOLDER_TEST = /no test specified/;
/** Tools a `prepare` script runs to install git hooks. */
const GIT_HOOK_INSTALLERS = /\b(husky|lefthook|simple-git-hooks|pre-commit install|git config)\b/;

function nodeChecks(files: RepoFiles, plan: CheckPlan): void {
  const text = files.read('package.json');
  if (text === undefined) return;
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(text) as PackageJson;
  } catch (err) {
    plan.skipped.push({ name: 'node', reason: `package.json is not valid JSON: ${(err as Error).message}` });
    return;
  }
  const scripts = pkg.scripts ?? {};
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const pm = files.exists('pnpm-lock.yaml') ? 'pnpm' : files.exists('yarn.lock') ? 'yarn' : 'npm';
  const script = (name: string) => `${pm} run --silent ${name}`;
  const bin = (name: string, args: string) =>
    `${pm === 'npm' ? 'npx --no-install' : pm === 'pnpm' ? 'pnpm exec' : 'yarn run --silent'} ${name} ${args}`;

  // A node_modules the farm linked to a shared environment is checked again: the manifests may have changed.
  if (Object.keys(deps).length && (!files.exists('node_modules') || files.exists(`node_modules/${LINK_MARKER}`))) {
    // the only step that asks for network; install scripts stay off, they would be untrusted code with network
    const install = {
      npm: files.exists('package-lock.json') ? 'npm ci' : 'npm install',
      pnpm: 'pnpm install --frozen-lockfile',
      yarn: 'yarn install --frozen-lockfile',
    }[pm];
    plan.steps.push({
      name: 'install',
      run: `${install} --ignore-scripts`,
      network: 'host',
      installsDependencies: true,
      environment: 'node',
    });
  }

  // npm runs `prepare` after an install (the repository's build, often: its tests may import what it makes); the
  // install's --ignore-scripts skips it, so it runs here, in the sandbox, without network, each time (the change may
  // touch what it builds). One that installs git hooks is left out: the checkout's .git is not the checks' to write.
  if (scripts.prepare && Object.keys(deps).length) {
    if (GIT_HOOK_INSTALLERS.test(scripts.prepare))
      plan.skipped.push({ name: 'prepare', reason: `the prepare script installs git hooks (${scripts.prepare})` });
    else plan.steps.push({ name: 'prepare', run: script('prepare') });
  }

  if (scripts['format:check']) plan.steps.push({ name: 'format', run: script('format:check') });
  else if (/--check|--list-different|\s-l\b/.test(scripts.format ?? ''))
    plan.steps.push({ name: 'format', run: script('format') });
  else if (deps.prettier) plan.steps.push({ name: 'format', run: bin('prettier', '--check .') });
  else if (scripts.format)
    plan.skipped.push({ name: 'format', reason: 'the format script rewrites files instead of checking them' });

  if (scripts.lint) plan.steps.push({ name: 'lint', run: script('lint') });
  else if (deps.eslint) plan.steps.push({ name: 'lint', run: bin('eslint', '.') });

  const fastScript = ['test:fast', 'test:unit'].find((s) => scripts[s]);
  if (fastScript) plan.steps.push({ name: 'test', run: script(fastScript) });
  else if (scripts.test && !NPM_PLACEHOLDER_TEST.test(scripts.test))
    plan.steps.push({ name: 'test', run: script('test') });
  else if (deps.jest) plan.steps.push({ name: 'test', run: bin('jest', '--ci --bail') });
  else if (deps.vitest) plan.steps.push({ name: 'test', run: bin('vitest', 'run --bail=1') });
  else if (deps.mocha) plan.steps.push({ name: 'test', run: bin('mocha', '--bail') });
}

function pythonChecks(
  files: RepoFiles,
  plan: CheckPlan,
  findTool: (name: string) => string | undefined,
  sharedInstall: boolean,
): void {
  const top = files.names();
  const readIf = (file: string) => files.read(file) ?? '';
  const pyproject = readIf('pyproject.toml');
  const setupCfg = readIf('setup.cfg');
  const pytestIni = readIf('pytest.ini');
  const toxIni = readIf('tox.ini');
  const conftest = readIf('conftest.py') + readIf('tests/conftest.py');
  const requirements = top
    .filter((f) => REQUIREMENTS.test(f))
    .map(readIf)
    .join('\n');
  const isPython =
    pyproject ||
    setupCfg ||
    pytestIni ||
    top.includes('setup.py') ||
    requirements ||
    top.some((f) => f.endsWith('.py'));
  if (!isPython) return;
  const firstStep = plan.steps.length; // where a shared environment's install goes: before the Python steps

  // "listed as a dependency": the name as a whole word in requirements, pyproject or setup.cfg
  const dependsOn = (name: string) =>
    new RegExp(`(^|[\\s"',\\[])${name}([\\s"',<>=~!;\\[\\]]|$)`, 'm').test(
      `${requirements}\n${pyproject}\n${setupCfg}`,
    );
  const tool = (name: string) => {
    for (const venv of VENVS) {
      if (files.exists(`${venv}/bin/${name}`)) return `./${venv}/bin/${name}`;
    }
    return findTool(name) ? name : undefined;
  };
  const add = (name: string, program: string, args: string) => {
    const path = tool(program);
    if (path) plan.steps.push({ name, run: `${path} ${args}` });
    else plan.skipped.push({ name, reason: `the repository uses ${program} but it is not installed here` });
  };

  if (/^\[tool\.black\]/m.test(pyproject) || dependsOn('black')) add('format', 'black', '--check .');
  if (
    /^\[tool\.ruff/m.test(pyproject) ||
    ['ruff.toml', '.ruff.toml'].some((f) => top.includes(f)) ||
    dependsOn('ruff')
  ) {
    add('lint', 'ruff', 'check --no-cache .');
  }
  const pytestConfig = [
    pytestIni,
    section(pyproject, 'tool.pytest.ini_options'),
    section(setupCfg, 'tool:pytest'),
    section(toxIni, 'pytest'),
  ].join('\n');
  // Where pytest's own collection finds them: test_*.py or *_test.py anywhere (inside the package too).
  const hasTests =
    top.includes('tests') ||
    top.includes('test') ||
    top.some((f) => PYTEST_FILE.test(f)) ||
    conftest !== '' ||
    files.find((rel) => PYTEST_FILE.test(rel.slice(rel.lastIndexOf('/') + 1)), 1).length > 0;
  if (pytestConfig.trim() || hasTests || dependsOn('pytest')) {
    const fast =
      declaresFastMarker(pytestConfig) || /addinivalue_line\(\s*["']markers["']\s*,\s*["']fast\b/.test(conftest);
    // no .pytest_cache in the checkout: it would show up in the agent's diff
    const args = `-q -p no:cacheprovider${fast ? ' -m fast' : ''}`;
    // A virtualenv of the repository's own is used as it is; one the farm linked is made again when manifests change.
    const ownVenv = VENVS.some((v) => files.exists(`${v}/bin/python`)) && !files.exists(`.venv/${LINK_MARKER}`);
    const setup =
      sharedInstall && !ownVenv
        ? pythonInstallStep({
            requirementsFiles: top
              .filter((f) => TEST_REQUIREMENTS.test(f))
              .map((name) => ({ name, text: readIf(name) })),
            pyproject,
            setupCfg,
            hasSetupPy: top.includes('setup.py'),
          })
        : undefined;
    if (setup && !('unshared' in setup)) {
      plan.steps.splice(firstStep, 0, setup.install, ...(setup.project ? [setup.project] : []));
      plan.steps.push({ name: 'test', run: `${setup.testPrefix}./.venv/bin/python -m pytest ${args}` });
    } else add('test', 'pytest', args);
  }
}

/** The text of an INI/TOML section (`[name]`), up to the next section. */
function section(text: string, name: string): string {
  const start = text.search(new RegExp(`^\\[${name.replace(/\./g, '\\.')}\\]\\s*$`, 'm'));
  if (start < 0) return '';
  const rest = text.slice(start + 1);
  const end = rest.search(/^\[/m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** A `fast` entry in a `markers` setting (INI continuation lines or a TOML array). */
export function declaresFastMarker(config: string): boolean {
  const at = config.search(/^\s*markers\s*=/m);
  if (at < 0) return false;
  const [first, ...more] = config.slice(at).split('\n');
  const block = [first.replace(/^\s*markers\s*=/, '')];
  for (const line of more) {
    if (!/^\s+\S|^\s*["'\]]/.test(line)) break; // continuation lines are indented; TOML arrays end with ]
    block.push(line);
  }
  return /(^|[\s"'[,])fast\s*(:|["',\]]|$)/m.test(block.join('\n'));
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      continue; // not in this directory
    }
  }
  return undefined;
}

export interface CheckStepResult {
  name: string;
  run: string;
  ok: boolean;
  exitCode: number | null;
  timedOut: boolean;
  killedBy?: SandboxResult['killedBy'];
  durationMs: number;
  /** What explains the result: for a failed test run, the failure sections and the summary. */
  output: string;
  /** Set when the denylist refused the step's command. */
  denied?: { rule: string; reason: string };
  /** What the step asked for beyond the operator's limits, and what it got instead (also atop `output`). */
  notes: string[];
  /** An install step's shared environment (environments.ts): which, and whether it was reused or set up here. */
  environment?: { name: string; how: 'reused' | 'built' | 'waited' | 'failed' };
}

export interface ChecksResult {
  ok: boolean;
  /** The steps that ran, in order; the last one is the failure when there is one. */
  steps: CheckStepResult[];
  failed?: CheckStepResult;
  /** How the steps were isolated (from the last step that ran). */
  isolation?: Isolation;
  durationMs: number;
}

export interface RunChecksOptions {
  /** Runs one command; default runSandboxed. */
  sandbox?: (req: SandboxRequest) => Promise<SandboxResult>;
  /** The operator's limits: the values for steps that set none, and the most a step may ask for. */
  ceilings?: Partial<CheckCeilings>;
  /** Further sandbox limits (output size, CPU time); memory and processes come from `ceilings`. */
  limits?: Partial<SandboxLimits>;
  /** Extra environment for every step (secrets are dropped by the sandbox). */
  env?: Record<string, string>;
  /** Directories besides the checkout the steps may write (a package cache shared between runs). */
  writableDirs?: string[];
  /** Called as each step starts (not for one refused before it runs), for progress reports. */
  onStepStart?: (step: CheckStep) => void;
  /** Called with a running step's output as it comes (not from a sandbox runner, see SandboxRequest.onOutput). */
  onStepOutput?: (step: CheckStep, text: string) => void;
  /** Called after each step, for progress reports. */
  onStep?: (result: CheckStepResult) => void;
  /**
   * Judges the checkout after each step ran: a reason ends the run there with that step refused by it (a step
   * that destroyed the checkout it was given leaves nothing the next step or the agent can trust).
   */
  afterStep?: (result: CheckStepResult) => Promise<{ rule: string; reason: string } | undefined>;
  /**
   * Where installs are set up once and shared (environments.ts); default: FARM_ENVIRONMENTS_DIR's store when it
   * is set, else none (each checkout installs its own). `null`: none.
   */
  environments?: EnvironmentStore | null;
  log?: Logger;
}

let storeFromEnv: EnvironmentStore | undefined;
/** The store FARM_ENVIRONMENTS_DIR names (one per process), or undefined. */
export function environmentStoreFromEnv(log?: Logger): EnvironmentStore | undefined {
  const root = process.env.FARM_ENVIRONMENTS_DIR;
  if (!root) return undefined;
  if (storeFromEnv?.root !== root) storeFromEnv = new EnvironmentStore({ root, log });
  return storeFromEnv;
}

/** Runs the steps in order in the sandbox and stops at the first that fails. */
export async function runChecks(
  repoDir: string,
  steps: CheckStep[],
  opts: RunChecksOptions = {},
): Promise<ChecksResult> {
  const sandbox = opts.sandbox ?? runSandboxed;
  const ceilings = ceilingsOrDefaults(opts.ceilings);
  const started = performance.now();
  const results: CheckStepResult[] = [];
  let isolation: Isolation | undefined;
  const store = opts.environments === undefined ? environmentStoreFromEnv(opts.log) : (opts.environments ?? undefined);
  /** Shared environments the checkout links to: readable by the steps after the install. */
  const readable: string[] = [];
  for (const step of steps) {
    let result: CheckStepResult;
    const settled = settleStep(step, ceilings);
    const { notes } = settled;
    if (notes.length) opts.log?.warn("check step held to the operator's limits", { step: step.name, notes });
    const noted = (output: string) => [...notes.map((n) => `[checks: ${n}]`), output].join('\n');
    const refused = (output: string, denied: { rule: string; reason: string }): CheckStepResult => ({
      name: step.name,
      run: step.run,
      ok: false,
      exitCode: null,
      timedOut: false,
      durationMs: 0,
      output: noted(output),
      denied,
      notes,
    });
    const privateTmp = (await detectIsolation(settled.network)).filesystem === 'checkout-only';
    const unrunnable = await whyNotRunnable(step.run, opts.env?.PATH ?? process.env.PATH ?? '', privateTmp);
    if (unrunnable) {
      // Fails the same whatever the change: refused like a denylisted command, so the task ends with the reason.
      result = refused(`refused by the sandbox: ${unrunnable}`, { rule: 'not-runnable', reason: unrunnable });
      opts.log?.warn('check step cannot run in the sandbox', { step: step.name, reason: unrunnable });
    } else {
      opts.onStepStart?.(step);
      const runIn = (cwd: string) =>
        sandbox({
          command: step.run,
          cwd,
          timeoutMs: settled.timeoutSeconds * 1000,
          limits: { ...opts.limits, memoryBytes: settled.memoryBytes, maxProcesses: settled.maxProcesses },
          // no bytecode files in the checkout: they would show up in the agent's diff
          env: { PYTHONDONTWRITEBYTECODE: '1', ...opts.env },
          writableDirs: opts.writableDirs,
          ...(readable.length ? { readableDirs: readable } : {}),
          network: settled.network,
          explainOutput: explainFailure,
          log: opts.log,
          ...(opts.onStepOutput ? { onOutput: (text: string) => opts.onStepOutput!(step, text) } : {}),
        });
      try {
        const shared = step.installsDependencies && store ? await environmentOf(repoDir, step) : undefined;
        if (shared && 'unshared' in shared)
          opts.log?.info('dependencies installed in the checkout, not shared', {
            step: step.name,
            why: shared.unshared,
          });
        if (store && shared && !('unshared' in shared)) {
          let installedIn: Isolation | undefined;
          const provided = await store.provide(shared, repoDir, async (staging) => {
            const run = await runIn(staging);
            installedIn = run.isolation;
            const ok = run.exitCode === 0 && !run.timedOut;
            return { ok, output: run.output, durationMs: run.durationMs };
          });
          isolation = installedIn ?? isolation;
          readable.push(provided.dir);
          result = {
            name: step.name,
            run: step.run,
            ok: provided.ok,
            exitCode: provided.ok ? 0 : 1,
            timedOut: false,
            durationMs: provided.durationMs,
            output: noted(provided.output),
            notes,
            environment: { name: shared.name, how: provided.how },
          };
        } else {
          const run = await runIn(repoDir);
          isolation = run.isolation;
          result = {
            name: step.name,
            run: step.run,
            ok: run.exitCode === 0 && !run.timedOut,
            exitCode: run.exitCode,
            timedOut: run.timedOut,
            killedBy: run.killedBy,
            durationMs: run.durationMs,
            output: noted(run.output),
            notes,
          };
        }
      } catch (err) {
        // Neither can change by running again or by another patch: the command, or the machine, must change.
        if (err instanceof CommandDenied)
          result = refused(`refused by the command denylist (${err.rule}): ${err.reason}`, {
            rule: err.rule,
            reason: err.reason,
          });
        else if (err instanceof ConfinementUnavailable)
          result = refused(`refused by the sandbox: ${err.message}`, { rule: 'confinement', reason: err.message });
        else throw err;
      }
      const damage = await opts.afterStep?.(result);
      if (damage) {
        result = { ...result, ok: false, output: noted(damage.reason), denied: damage };
        opts.log?.warn('check step damaged its checkout', { step: step.name, reason: damage.reason });
      }
    }
    results.push(result);
    opts.onStep?.(result);
    opts.log?.info('check step finished', { step: step.name, ok: result.ok, durationMs: result.durationMs });
    if (!result.ok) break;
  }
  const failed = results.find((r) => !r.ok);
  return { ok: !failed, steps: results, failed, isolation, durationMs: Math.round(performance.now() - started) };
}

/** The rule of a step that destroyed the checkout it ran in (see RunChecksOptions.afterStep). */
export const CHECKOUT_DESTROYED = 'destroyed-checkout';

/**
 * Why a run whose failing step was refused (`failed.denied`) ends the task: nothing the model changes can make
 * that step pass. Undefined when the run did not end so.
 */
export function refusedCheckNote(result: ChecksResult): string | undefined {
  if (!result.failed?.denied) return undefined;
  const text = describeFailure(result)!;
  return result.failed.denied.rule === CHECKOUT_DESTROYED ? text : `sandbox refused a check: ${text}`;
}

/** The failure as the model should read it: which check, how it ended, and the output that explains it. */
export function describeFailure(result: ChecksResult): string | undefined {
  const f = result.failed;
  if (!f) return undefined;
  const how = f.denied
    ? f.denied.rule === CHECKOUT_DESTROYED
      ? 'destroyed the checkout'
      : 'was refused'
    : f.killedBy
      ? `was stopped (${f.killedBy})`
      : `failed with exit code ${f.exitCode}`;
  return `The check "${f.name}" (\`${f.run}\`) ${how}:\n${f.output}`;
}
