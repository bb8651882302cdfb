/** One check a repository runs (format, lint, tests): detected, or from its `.farm/checks.json`. */
export interface CheckStep {
  name: string;
  /** A shell command line, run in the repository's root. */
  run: string;
  /** At most the operator's limit; so are memoryMb and maxProcesses. */
  timeoutSeconds?: number;
  memoryMb?: number;
  maxProcesses?: number;
  /** 'none' unless the step must reach a registry (dependency installation); the operator may refuse it. */
  network?: 'none' | 'host';
  /** Set by detection only (never from a repository's file): the install FARM_CHECK_HOST_NETWORK=install allows. */
  installsDependencies?: true;
  /** Set by detection only: the shared environment such an install makes where a store is configured (environments.ts). */
  environment?: 'node' | 'python';
}
