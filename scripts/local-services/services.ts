/**
 * Developer CLI: `npx tsx scripts/local-services/services.ts up` runs Kafka + Postgres + Kubernetes until Ctrl-C / SIGTERM.
 * stdout gets only the `export ...` lines (paste them into another shell); logs go to stderr.
 */
import { once } from 'node:events';
import { createLogger } from '@farm/runtime';
import { startLocalServices } from './index';

async function main(argv: string[]): Promise<number> {
  if (argv[0] !== 'up') {
    process.stderr.write('usage: services.ts up\n');
    return 2;
  }
  const log = createLogger('local-services');
  const services = await startLocalServices({ kafka: true, postgres: true, kubernetes: true }, log);
  for (const [name, value] of Object.entries(services.env)) process.stdout.write(`export ${name}=${value}\n`);

  const signal = await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
  log.info('stopping local services', { signal: String(signal[0] ?? '') });
  // A second signal means "now": exiting closes the guards' pipes, which still takes the services down.
  const force = () => process.exit(130);
  process.once('SIGINT', force).once('SIGTERM', force);
  await services.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    createLogger('local-services').error('local services failed', { err });
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  },
);
