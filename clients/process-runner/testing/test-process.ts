// A task process for the runner's own tests: does what FARM_TEST_PROCESS says (`report`: spools a message on
// `results` and exits; `sleep`: waits to be stopped; `crash`: exits with code 3 without reporting; `live`: spools
// a step in its live spool, waits until the runner published it, spools a last one and reports).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LIVE_SPOOL, SpoolDirBus } from '@farm/bus';
import { silentLogger } from '@farm/runtime';

async function main(): Promise<void> {
  const behaviour = process.env.FARM_TEST_PROCESS;
  if (behaviour === 'crash') process.exit(3);
  if (behaviour === 'sleep') setInterval(() => undefined, 1000);
  else if (behaviour === 'live') {
    const dir = join(process.env.FARM_TEST_SPOOL_DIR!, LIVE_SPOOL);
    const live = new SpoolDirBus(dir, silentLogger);
    await live.publishRaw('steps', Buffer.from('step 1'));
    while (!readdirSync(dir).some((n) => n.endsWith('.published'))) await sleep(20);
    await live.publishRaw('steps', Buffer.from('step 2'));
    await new SpoolDirBus(process.env.FARM_TEST_SPOOL_DIR!, silentLogger).publishRaw('results', Buffer.from('done'));
  } else
    await new SpoolDirBus(process.env.FARM_TEST_SPOOL_DIR!, silentLogger).publishRaw('results', Buffer.from('done'));
}

void main();
