/**
 * What the farm's image costs: its size and what takes it up (layers, /app's node_modules and dist, Debian
 * packages), and its build from the Dockerfile cold (a throwaway podman storage: the node:24-slim stand-in
 * made, every layer built) against warm in the same run (unchanged: from podman's layer cache, as a fresh clone
 * of the same commit meets it, and from this checkout's last build, as the test command meets it). As root,
 * with podman and debootstrap (scripts/test.sh installs them).
 *
 *   node --import tsx bench/image-build.ts           cold, then warm (a few minutes)
 *   node --import tsx bench/image-build.ts --warm    warm only, in the farm's own storage (seconds)
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, silentLogger } from '@farm/runtime';
import { buildFarmImage, type BuiltImage } from '../scripts/image/farm-image';
import { farmPodman, podmanCacheDir, removePodmanStorage, type Podman } from '../scripts/image/podman';
import { runInImage } from '../scripts/image/run-in-image';

const { values } = parseArgs({ options: { warm: { type: 'boolean', default: false } } });
const MB = 1e6;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  const log = process.env.LOG_LEVEL ? createLogger('bench-image') : silentLogger;
  // The cold build's storage is its own, beside the farm's (same filesystem), and goes at the end.
  mkdirSync(path.dirname(podmanCacheDir()), { recursive: true });
  const podman = values.warm ? farmPodman() : farmPodman(mkdtempSync(`${podmanCacheDir()}-bench-`));
  const load = loadavg()[0].toFixed(1);
  try {
    let cold: BuiltImage | undefined;
    if (!values.warm) cold = await buildFarmImage(log, { podman, reuseLast: false });
    const warm = await buildFarmImage(log, { podman, reuseLast: false });
    const again = await buildFarmImage(log, { podman });
    const lines = [`image build (load ${load}):`];
    const ratio = (b: BuiltImage) => (cold ? ` (${(b.ms / cold.ms).toFixed(3)}x cold)` : '');
    if (cold)
      lines.push(`  cold, stand-in base ${cold.baseMade ? 'made' : 'found'}, every layer built: ${secs(cold.ms)}`);
    lines.push(`  warm, unchanged, from podman's layer cache (a fresh clone):  ${secs(warm.ms)}${ratio(warm)}`);
    lines.push(`  warm, unchanged since this checkout's last build:            ${secs(again.ms)}${ratio(again)}`);
    process.stdout.write(lines.join('\n') + '\n' + (await whatIsInIt(podman, warm.id)));
  } finally {
    if (!values.warm) await removePodmanStorage(podman);
  }
}

/** The image's size, its layers by size, and what /app and the Debian packages hold. */
async function whatIsInIt(podman: Podman, id: string): Promise<string> {
  const size = Number(await podman.run(['image', 'inspect', '--format', '{{.Size}}', id]));
  const history = JSON.parse(await podman.run(['history', '--format', 'json', id])) as {
    size: number;
    CreatedBy: string;
  }[];
  const layers = history
    .filter((l) => l.size > 0)
    .sort((a, b) => b.size - a.size)
    .map(
      (l) =>
        `  ${mb(l.size).padStart(7)}  ${l.CreatedBy.replace(/^\/bin\/sh -c (#\(nop\) )?/, '').replace(/\s+/g, ' ')}`,
    );
  const inside = await runInImage(podman, id, [
    'sh',
    '-c',
    // du counts each file once: /app is what node_modules and dist leave.
    'du -sb /app/node_modules /app/dist /app; du -cb /app/dist/*.map | tail -1; ' +
      'du -sb /app/node_modules/.pnpm/* | sort -rn | head -8; echo --; ' +
      "dpkg-query -W -f '${Installed-Size}\\t${Package}\\n' | sort -rn | head -12; echo --; dpkg-query -W | wc -l",
  ]);
  const [du, apt, count] = inside.stdout.split('--\n');
  const rows = du
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const [nodeModules, dist, rest, maps] = rows.slice(0, 4).map(([bytes]) => Number(bytes));
  // .pnpm/<name>@<version>[_<peers>], a scope's slash written `+`.
  const packages = rows.slice(4).map(([bytes, dir]) => {
    const name = path
      .basename(dir)
      .match(/^(@?[^@]+)/)![1]
      .replace(/\+/g, '/');
    return `${name} ${mb(Number(bytes))}`;
  });
  const debs = apt
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map(([kb, name]) => `${name} ${(Number(kb) / 1000).toFixed(0)} MB`);
  return [
    `image ${mb(size)}, layers by size:`,
    ...layers,
    `/app ${mb(nodeModules + dist + rest)}: node_modules ${mb(nodeModules)} (the production dependencies), ` +
      `dist ${mb(dist)} (of which source maps ${mb(maps)}), sources and manifests ${mb(rest)}`,
    `  largest in node_modules: ${packages.join(', ')}`,
    `Debian packages: ${count.trim()}, largest (installed size): ${debs.join(', ')}`,
    '',
  ].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`image-build bench: ${(err as Error).message}\n`);
  process.exit(1);
});
