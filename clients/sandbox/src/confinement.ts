/**
 * What a repository's command must be confined by, and the operator's explicit acceptance of what is missing.
 *
 * The sandbox fails closed: where this machine (a container, a pod whose seccomp profile refuses `unshare`, a
 * kernel without unprivileged user namespaces) cannot give a run one of the guarantees below, the command is
 * not run, unless the operator named that risk in FARM_SANDBOX_ACCEPT_RISK. Each risk is one guarantee:
 * - `network`: a private network namespace (no route to the bus, the database, the model server, the
 *   internet; the run's own loopback only). Runs asking for the host network do not need it.
 * - `filesystem`: a mount namespace in which only the checkout, the run's home and a private /tmp are
 *   writable, and the command holds no capability.
 * - `processes`: a PID namespace whose end ends every process of the run (nothing outlives its step or the
 *   agent) and which hides the other processes' /proc entries (their environments hold the farm's secrets).
 *   In the sandbox runner's container (runner mode, remote-runner.ts) the run's /proc may be the container's:
 *   the container's own masked /proc cannot be mounted afresh, and no process there holds a secret.
 *
 * Runner mode also needs the mount namespace for the network: without it the runner's control socket could
 * not be hidden, and a command could ask the runner for the host's network through it.
 */
import { commaSeparated, FarmError, loadConfig, z } from '@farm/runtime';
import type { Isolation } from './isolation';

export const RISKS = ['network', 'filesystem', 'processes'] as const;
export type Risk = (typeof RISKS)[number];

export interface ConfinementGap {
  risk: Risk;
  /** What a repository's command could do without it. */
  consequence: string;
}

/** Where the commands run: in this process's machine or container, or in the sandbox runner's container. */
export interface ConfinementContext {
  /** Set by the sandbox runner's entry only (never detected): see the module's comment. */
  runner?: boolean;
}

/** The guarantees a run with this isolation lacks (pure: the isolation comes from the probe). */
export function confinementGaps(isolation: Isolation, context: ConfinementContext = {}): ConfinementGap[] {
  const gaps: ConfinementGap[] = [];
  if (isolation.network === 'unavailable')
    gaps.push({
      risk: 'network',
      consequence:
        'no private network namespace: the command would reach whatever this process reaches (the bus, the database, the model server, the internet)',
    });
  else if (context.runner && isolation.network === 'namespace' && isolation.filesystem === 'unrestricted')
    gaps.push({
      risk: 'network',
      consequence:
        "no mount namespace to hide the sandbox runner's control socket: the command could ask the runner for the host network",
    });
  if (isolation.filesystem === 'unrestricted')
    gaps.push({
      risk: 'filesystem',
      consequence:
        'no read-only mount namespace: the command could write anywhere its user can, outside the checkout and into .git',
    });
  const procHidden = isolation.proc === 'own' || (context.runner === true && isolation.proc === 'container');
  if (isolation.processTree !== 'pid-namespace' || !isolation.endsWithParent || !procHidden)
    gaps.push({
      risk: 'processes',
      consequence:
        isolation.processTree !== 'pid-namespace'
          ? "no PID namespace: the command could outlive its step and read other processes' environments in /proc"
          : !isolation.endsWithParent
            ? 'no parent-death signal (setpriv): the command could outlive the agent'
            : "no /proc of the command's own: it could read other processes' environments there",
    });
  return gaps;
}

/** The gaps the operator did not accept. */
export function unacceptedGaps(gaps: ConfinementGap[], accepted: readonly Risk[]): ConfinementGap[] {
  return gaps.filter((gap) => !accepted.includes(gap.risk));
}

/** What the operator says, word for word, to accept these gaps. */
export function acceptanceSetting(gaps: ConfinementGap[]): string {
  return `FARM_SANDBOX_ACCEPT_RISK=${gaps.map((g) => g.risk).join(',')}`;
}

/** One sentence for a task's notes, a log line or /healthz: what is missing and how to accept it. */
export function describeGaps(gaps: ConfinementGap[], context: ConfinementContext = {}): string {
  if (context.runner)
    return (
      `the sandbox runner container cannot confine repository commands: ${gaps.map((g) => g.consequence).join('; ')}. ` +
      'Give its container a seccomp profile that allows user namespaces (Helm value sandbox.seccompProfile: ' +
      'Unconfined, the default, or a Localhost profile; FARM_SANDBOX_SECCOMP), or a runtime that gives them ' +
      `(sandbox.runtimeClassName), or set ${acceptanceSetting(gaps)} (Helm value sandbox.acceptRisk) ` +
      'to run them anyway at your own risk'
    );
  return (
    `the sandbox cannot confine repository commands here: ${gaps.map((g) => g.consequence).join('; ')}. ` +
    `Give the farm what it needs (see docs: the sandbox in a container or a pod), or set ${acceptanceSetting(gaps)} ` +
    'to run them anyway at your own risk'
  );
}

/** Refused before running: the run would lack a guarantee the operator did not give up. Not retryable here. */
export class ConfinementUnavailable extends FarmError {
  readonly gaps: ConfinementGap[];
  constructor(gaps: ConfinementGap[], context: ConfinementContext = {}) {
    super(describeGaps(gaps, context), {
      retryable: false,
      details: { risks: gaps.map((g) => g.risk), ...(context.runner ? { runner: true } : {}) },
    });
    this.gaps = gaps;
  }
}

/**
 * FARM_SANDBOX_ACCEPT_RISK: comma-separated risks (network, filesystem, processes) or `all`; empty by default.
 * FARM_SANDBOX_RUNNER: the unix socket of the sandbox runner (a pod's sidecar container): commands run there
 * instead of in this process's container; unset (one machine), they run here.
 */
export const sandboxRiskConfigSchema = z.object({
  FARM_SANDBOX_ACCEPT_RISK: commaSeparated()
    .pipe(z.array(z.enum([...RISKS, 'all'], { message: `each must be one of ${[...RISKS, 'all'].join(', ')}` })))
    .transform((risks): Risk[] => (risks.includes('all') ? [...RISKS] : [...new Set(risks as Risk[])])),
  FARM_SANDBOX_RUNNER: z.string().startsWith('/', "must be the absolute path of the runner's unix socket").optional(),
  /** Where the sandbox's verdict is shared by the user's processes (shared-verdict.ts, which reads it), or `off`. */
  FARM_SANDBOX_VERDICT_DIR: z
    .string()
    .refine((v) => v === 'off' || v.startsWith('/'), 'must be an absolute path, or off')
    .optional(),
});

/** The process's sandbox settings (read once: they are the operator's, not a task's). */
let fromEnv: z.infer<typeof sandboxRiskConfigSchema> | undefined;
const sandboxSettings = () => (fromEnv ??= loadConfig(sandboxRiskConfigSchema));

/** The risks the process's environment accepts. */
export function acceptedRisksFromEnv(): Risk[] {
  return sandboxSettings().FARM_SANDBOX_ACCEPT_RISK;
}

/** The sandbox runner's socket this process sends its commands to (FARM_SANDBOX_RUNNER), if any. */
export function sandboxRunnerFromEnv(): string | undefined {
  return sandboxSettings().FARM_SANDBOX_RUNNER;
}
