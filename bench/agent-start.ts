/**
 * What starting an agent costs the farm: the coding agent's entry (everything it loads before it reads its
 * task; without one it stops there) from its bundle, as the launchers run it, and from its TypeScript source
 * with tsx (FARM_ENTRY=source), against `node -e 0` measured in the same run. Build first: `pnpm build`.
 *
 *   node --import tsx bench/agent-start.ts [--runs 10]
 */
import { parseArgs } from 'node:util';
import { FARM_ENTRIES, bundlePath } from '@farm/runtime';
import { printTimings, timeProcess, tsxArgs } from './process-timing';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const runs = Number(values.runs);
const env = { ...process.env, FARM_TASK: '', LOG_LEVEL: 'error' };
const node = process.execPath;

const reference = timeProcess('node -e 0', [node, '-e', '0'], runs, env);
printTimings(`agent start (${runs} runs each, Node ${process.version})`, reference, [
  timeProcess('agent, built (dist)', [node, bundlePath('agent-job')], runs, env),
  timeProcess('agent, source (tsx)', [node, ...tsxArgs(FARM_ENTRIES['agent-job'])], runs, env),
  timeProcess('build job, built (dist)', [node, bundlePath('build-job')], runs, env),
]);
