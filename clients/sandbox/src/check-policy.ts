/**
 * The operator's limits on checks, and how a step's own settings (from `.farm/checks.json`) are held to
 * them: a repository may ask for less time, memory or processes than the operator allows, never more, and
 * for the host's network only where the operator allows it. What was narrowed is said in the step's notes,
 * so the model, the logs and the trajectory see why a step ran with less than it asked for.
 *
 * The host network is off by default, for the detected dependency installation too: with it a step reaches
 * everything the farm reaches, the listeners on the host's loopback (git server, database, model server)
 * included, and an install runs repository code (.pnpmfile.cjs, yarn plugins) even with --ignore-scripts.
 * What would be safe (outbound network without the host's listeners, as rootless containers get through
 * slirp4netns or pasta) is not available here, so the choice is the operator's:
 * - `off`: no step gets the host network; installs must find their dependencies already in the checkout.
 * - `install`: only the dependency installation the farm detected itself (never a step a repository
 *   configures) gets it, still without credentials in its environment and with writes confined.
 * - `on`: also steps of `.farm/checks.json` that ask for `"network": "host"`.
 */
import { commaSeparated, z } from '@farm/runtime';
import type { CheckStep } from './check-step';
import { sandboxRiskConfigSchema } from './confinement';
import type { Network } from './isolation';
import { MAX_WRITABLE_DIRS } from './namespace-setup';
import { DEFAULT_LIMITS } from './sandbox-request';

export type HostNetworkPolicy = 'off' | 'install' | 'on';

export interface CheckCeilings {
  timeoutSeconds: number;
  memoryBytes: number;
  maxProcesses: number;
  hostNetwork: HostNetworkPolicy;
}

export const DEFAULT_CHECK_CEILINGS: CheckCeilings = {
  timeoutSeconds: 600,
  memoryBytes: DEFAULT_LIMITS.memoryBytes,
  maxProcesses: DEFAULT_LIMITS.maxProcesses,
  hostNetwork: 'off',
};

const MB = 1024 * 1024;

/** The operator's settings for checks that the coding agent and the build share (timeouts are their own). */
export const checkSandboxConfigSchema = z.object({
  /** Comma-separated absolute directories besides the checkout that checks may write: package caches shared by runs. */
  FARM_CHECK_WRITABLE_DIRS: commaSeparated().pipe(
    z
      .array(z.string().startsWith('/', 'must be absolute paths'))
      .max(MAX_WRITABLE_DIRS - 2, `at most ${MAX_WRITABLE_DIRS - 2} directories`),
  ),
  /**
   * Where dependency installs are set up once per manifest content and shared by every checkout (environments.ts);
   * unset: each checkout installs its own. `farm up` sets its state directory's `environments`.
   */
  FARM_ENVIRONMENTS_DIR: z.string().startsWith('/', 'must be an absolute path').optional(),
  /** Which check steps may use the host's network: none, the detected dependency installation, or any that asks. */
  FARM_CHECK_HOST_NETWORK: z.enum(['off', 'install', 'on']).default('off'),
  /** Memory of one check step's process tree (and of run_command), in MiB. */
  FARM_CHECK_MEMORY_MB: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_LIMITS.memoryBytes / MB),
  /** Processes one check step (and run_command) may have at once. */
  FARM_CHECK_MAX_PROCESSES: z.coerce.number().int().positive().default(DEFAULT_LIMITS.maxProcesses),
  /** Guarantees of the sandbox the operator gives up where the machine lacks them (confinement.ts); none by default. */
  ...sandboxRiskConfigSchema.shape,
});
export type CheckSandboxConfig = z.infer<typeof checkSandboxConfigSchema>;

export function checkCeilingsFromConfig(config: CheckSandboxConfig): Omit<CheckCeilings, 'timeoutSeconds'> {
  return {
    hostNetwork: config.FARM_CHECK_HOST_NETWORK,
    memoryBytes: config.FARM_CHECK_MEMORY_MB * MB,
    maxProcesses: config.FARM_CHECK_MAX_PROCESSES,
  };
}

/** The given ceilings, the defaults for those not given (an undefined value counts as not given). */
export function ceilingsOrDefaults(given: Partial<CheckCeilings> = {}): CheckCeilings {
  const defined = Object.entries(given).filter(([, value]) => value !== undefined);
  return { ...DEFAULT_CHECK_CEILINGS, ...(Object.fromEntries(defined) as Partial<CheckCeilings>) };
}

/** What one step runs with once held to the ceilings, and what was narrowed. */
export interface SettledStep {
  timeoutSeconds: number;
  network: Network;
  memoryBytes: number;
  maxProcesses: number;
  notes: string[];
}

export function settleStep(step: CheckStep, ceilings: CheckCeilings): SettledStep {
  const notes: string[] = [];
  const atMost = (asked: number | undefined, ceiling: number, what: string, unit: (n: number) => string) => {
    if (asked === undefined) return ceiling;
    if (asked <= ceiling) return asked;
    notes.push(`${what} ${unit(asked)} is above the operator's limit: ${unit(ceiling)} applies`);
    return ceiling;
  };
  const timeoutSeconds = atMost(step.timeoutSeconds, ceilings.timeoutSeconds, 'timeoutSeconds', (n) => `${n} s`);
  const memoryBytes = atMost(
    step.memoryMb === undefined ? undefined : step.memoryMb * MB,
    ceilings.memoryBytes,
    'memoryMb',
    (n) => `${Math.floor(n / MB)} MiB`,
  );
  const maxProcesses = atMost(step.maxProcesses, ceilings.maxProcesses, 'maxProcesses', String);
  let network: Network = 'none';
  if (step.network === 'host') {
    const allowed =
      ceilings.hostNetwork === 'on' || (ceilings.hostNetwork === 'install' && step.installsDependencies === true);
    if (allowed) network = 'host';
    else
      notes.push(
        `network "host" is not allowed (FARM_CHECK_HOST_NETWORK=${ceilings.hostNetwork}` +
          `${ceilings.hostNetwork === 'install' ? ': only for the dependency installation the farm detects' : ''}):` +
          ' the step runs without network',
      );
  }
  return { timeoutSeconds, network, memoryBytes, maxProcesses, notes };
}
