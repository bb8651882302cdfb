/**
 * The sandbox runner (`sandbox-runner` entry): the process of an agent or build Job pod's `sandbox` container,
 * which runs the repository's commands for the main container (remote-runner.ts). It holds no credential, serves
 * no TCP port (it shares the pod's network), and stops on SIGTERM (the pod's end) once its run is cancelled.
 */
import { createLogger, errorMessage, loadConfigOrExit } from '@farm/runtime';
import { describeGaps } from './confinement';
import { sandboxRunnerConfigSchema, startSandboxRunner } from './remote-runner';
import { confinementHere } from './sandbox';

const log = createLogger('sandbox-runner');
const config = loadConfigOrExit(sandboxRunnerConfigSchema);

startSandboxRunner({ socketPath: config.FARM_SANDBOX_RUNNER, checkoutRoot: config.FARM_CHECKOUT_DIR, log }).then(
  async (runner) => {
    // What the runs get here, said once at start (the main container asks for the same over the socket).
    const { isolation, gaps } = await confinementHere('none');
    if (gaps.length)
      log.error('repository commands cannot be confined in this container', {
        reason: describeGaps(gaps, { runner: true }),
        isolation,
      });
    else log.info('repository commands run confined', { isolation });
    const stop = (signal: string) => {
      log.info('sandbox runner stopping', { signal });
      void runner.close().then(() => process.exit(0));
      setTimeout(() => process.exit(0), 5000).unref();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  },
  (err: unknown) => {
    log.error('sandbox runner cannot start', { err: errorMessage(err) });
    process.exit(1);
  },
);
