/**
 * What a sandboxed run is asked (the command, its limits, its network, the risks it may take) and what it
 * returns: shared by the sandbox that runs it here (sandbox.ts), the client that sends it to a sandbox
 * runner (runner-client.ts) and the checks that ask for it (checks.ts).
 */
import type { Logger } from '@farm/runtime';
import type { Risk } from './confinement';
import type { CgroupPlan, Isolation, LifetimeTools, LimitsTool, NamespacePlan, Network } from './isolation';

export interface SandboxLimits {
  cpuSeconds: number;
  memoryBytes: number;
  maxProcesses: number;
  maxFileBytes: number;
  /** Size of the returned output (characters; the part that explains the result). */
  maxOutputBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  cpuSeconds: 600,
  memoryBytes: 4 * 1024 ** 3,
  maxProcesses: 512,
  maxFileBytes: 1024 ** 3,
  maxOutputBytes: 12_000,
};

export interface SandboxRequest {
  /** A program and its arguments, run without a shell... */
  argv?: string[];
  /** ...or a shell command line, run with `bash -c`. */
  command?: string;
  cwd: string;
  timeoutMs: number;
  limits?: Partial<SandboxLimits>;
  /** Added to the scrubbed base environment; names and values that look like secrets are dropped. */
  env?: Record<string, string | undefined>;
  /** Directories besides `cwd` (the checkout) the command may write, e.g. a shared package cache; they must exist. */
  writableDirs?: string[];
  /**
   * Directories the command may read and never write, also where they lie under the private /tmp that covers the
   * host's (a shared environment the checkout links to); they must exist.
   */
  readableDirs?: string[];
  /** 'none' (the default) runs in a private network namespace where the machine allows it. */
  network?: Network;
  /** Reduces the captured output to `max` characters; the default keeps its start and its end. */
  explainOutput?: (output: string, max: number) => string;
  /**
   * Guarantees the run may go without where the machine cannot give them (default: FARM_SANDBOX_ACCEPT_RISK).
   * A guarantee missing and not accepted fails the run with ConfinementUnavailable before anything starts.
   */
  acceptRisks?: readonly Risk[];
  /** Use less than the machine offers (what is given replaces the probe): for tests of the fallbacks. */
  capabilities?: {
    namespaces?: NamespacePlan;
    limitsTool?: LimitsTool;
    cgroups?: CgroupPlan | null;
    lifetime?: LifetimeTools;
  };
  log?: Logger;
  /**
   * Told of the command's output as it comes (stdout and stderr, decoded), for showing progress. Not carried to a
   * sandbox runner: there the output comes with the result only.
   */
  onOutput?: (text: string) => void;
  /** Ends the run (its whole tree) when aborted: the sandbox runner's caller went away. */
  signal?: AbortSignal;
}

export type KilledBy = 'timeout' | 'memory' | 'cpu' | 'file-size' | 'processes';

export interface SandboxResult {
  exitCode: number | null;
  /** The signal that ended the command; a wrapping shell reports a child's death by signal N as exit 128+N. */
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The limit that ended (or, for processes, broke) the run, when one did. */
  killedBy?: KilledBy;
  durationMs: number;
  /** Combined stdout and stderr, cut down to `limits.maxOutputBytes`, with a note when a limit struck. */
  output: string;
  /** How many characters the command printed in all. */
  outputChars: number;
  isolation: Isolation;
  /** Names from `env` that were not passed because they look like secrets. */
  droppedEnv: string[];
}
