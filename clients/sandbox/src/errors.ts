import { FarmError, type FarmErrorOptions } from '@farm/runtime';

/** The denylist refused a command before it ran. Running it again cannot help: the command must change. */
export class CommandDenied extends FarmError {
  readonly rule: string;
  readonly reason: string;
  constructor(command: string, rule: string, reason: string) {
    super(`command refused (${rule}): ${reason}: ${command}`, {
      retryable: false,
      details: { command, rule, reason },
    });
    this.rule = rule;
    this.reason = reason;
  }
}

/** The sandbox could not start the command at all (missing working directory, unusable tools). */
export class SandboxError extends FarmError {
  constructor(message: string, options: Omit<FarmErrorOptions, 'retryable'> = {}) {
    super(message, { ...options, retryable: false }); // a command that cannot be run as asked
  }
}

/** A repository's `.farm/checks.json` is not valid; the message names each problem and where it is. */
export class ChecksConfigInvalid extends FarmError {
  constructor(file: string, problems: string[]) {
    super(`${file} is invalid:\n  ${problems.join('\n  ')}`, { retryable: false, details: { file, problems } });
  }
}

/**
 * The sandbox runner (FARM_SANDBOX_RUNNER: a pod's sidecar container) did not answer: its socket is not there or
 * refuses connections, or it went away before answering. Nothing of the request's command is left running.
 */
export class SandboxRunnerUnavailable extends FarmError {
  constructor(socketPath: string, why: string, options: Omit<FarmErrorOptions, 'retryable'> = {}) {
    super(`the sandbox runner at ${socketPath} ${why}`, {
      ...options,
      retryable: true, // a restarted runner answers again
      details: { ...options.details, socketPath },
    });
  }
}

/**
 * A probe of what this machine can confine did not answer in time, on every attempt: the machine is busy, which
 * says nothing of what it can do. Retryable: the probe is asked again (its answer is never kept), and the task
 * waits for it rather than being refused.
 */
export class ProbeTimedOut extends FarmError {
  readonly command: string;
  constructor(command: string, timeoutsMs: readonly number[]) {
    const seconds = timeoutsMs.map((t) => `${t / 1000} s`).join(', ');
    super(`the sandbox probe did not answer in time (attempts of ${seconds}): ${command}; the machine is busy`, {
      retryable: true,
      details: { command, timeoutsMs: [...timeoutsMs] },
    });
    this.command = command;
  }
}
