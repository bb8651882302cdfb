/**
 * How soon `farm` answers: `farm --help` and `farm submit --help` through the `farm` command (its bundle), and
 * from the TypeScript sources with tsx (FARM_ENTRY=source), against `node -e 0` measured in the same run.
 * Build first: `pnpm build`.
 *
 *   node --import tsx bench/cli-start.ts [--runs 10]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, printTimings, timeProcess } from './process-timing';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const runs = Number(values.runs);
const farm = path.join(ROOT, 'farm');
const source = { ...process.env, FARM_ENTRY: 'source' };

const reference = timeProcess('node -e 0', [process.execPath, '-e', '0'], runs);
printTimings(`CLI start (${runs} runs each, Node ${process.version})`, reference, [
  timeProcess('farm --help', [farm, '--help'], runs),
  timeProcess('farm submit --help', [farm, 'submit', '--help'], runs),
  timeProcess('farm submit --help, source (tsx)', [farm, 'submit', '--help'], runs, source),
]);
