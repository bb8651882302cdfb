/**
 * What starting an agent costs the farm: the coding agent's entry (everything it loads before it reads its
 * task; without one it stops there) from its bundle, as the launchers run it, and from its TypeScript source
 * with tsx (FARM_ENTRY=source), against `node -e 0` measured in the same run: wall and CPU time (user + system)
 * per start, and what the bundles load at start by package. Build first: `pnpm build`.
 *
 *   node --import tsx bench/agent-start.ts [--runs 10]
 */
import { parseArgs } from 'node:util';
import { FARM_ENTRIES, bundlePath } from '@farm/runtime';
import { readMetafile, startLoadByPackage } from '../scripts/bundle-start-load';
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

const meta = readMetafile();
for (const entry of ['agent-job', 'build-job'] as const) {
  const byPackage = [...startLoadByPackage(meta, entry)].sort((a, b) => b[1] - a[1]);
  const kib = (bytes: number) => (bytes / 1024).toFixed(0);
  const total = byPackage.reduce((sum, [, bytes]) => sum + bytes, 0);
  const top = byPackage.slice(0, 8).map(([name, bytes]) => `${name} ${kib(bytes)}`);
  process.stdout.write(`${entry} loads ${kib(total)} KiB of bundled code at start: ${top.join(', ')}, ...\n`);
}
