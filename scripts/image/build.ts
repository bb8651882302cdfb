/**
 * The farm's image, as the test command builds it (no image registry needed; see farm-image.ts):
 *   node --import tsx scripts/image/build.ts         builds localhost/agent-farm:dev from the Dockerfile (making the
 *                                                    node:24-slim stand-in first when missing); logs one JSON a line
 *   node --import tsx scripts/image/build.ts env     prints CONTAINERS_CONF=... and CONTAINERS_STORAGE_CONF=...: with
 *                                                    them, your own `podman` commands see that image
 * scripts/test.sh starts the build in the background first thing, so that a cold one overlaps lint, type check and
 * tests; the image's test waits for it.
 */
import { createLogger } from '@farm/runtime';
import { buildFarmImage } from './farm-image';
import { farmPodman } from './podman';

async function main(command: string | undefined): Promise<number> {
  if (command === undefined || command === 'build') {
    await buildFarmImage(createLogger('image'));
    return 0;
  }
  if (command === 'env') {
    const { env } = farmPodman();
    process.stdout.write(
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
    return 0;
  }
  process.stderr.write('usage: scripts/image/build.ts [build|env]\n');
  return 2;
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`image: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
