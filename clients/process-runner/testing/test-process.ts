// A task process for the runner's own tests: does what FARM_TEST_PROCESS says (`report`: spools a message on
// `results` and exits; `sleep`: waits to be stopped; `crash`: exits with code 3 without reporting).
import { SpoolDirBus } from '@farm/bus';
import { silentLogger } from '@farm/runtime';

async function main(): Promise<void> {
  const behaviour = process.env.FARM_TEST_PROCESS;
  if (behaviour === 'crash') process.exit(3);
  if (behaviour === 'sleep') setInterval(() => undefined, 1000);
  else await new SpoolDirBus(process.env.FARM_TEST_SPOOL_DIR!, silentLogger).publishRaw('results', Buffer.from('done'));
}

void main();
