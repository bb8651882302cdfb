/**
 * The farm's image, built with podman from the project's own Dockerfile on the stand-in base (node-base.ts),
 * into the farm's podman storage outside the clone: its layer cache makes an unchanged rebuild take seconds,
 * from this clone or the next. One build at a time (a lock beside the storage): the test command starts one in
 * the background, and the image's test waits for it, then builds again (all from the cache) to be sure the image
 * is its checkout's.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FARM_ROOT, type Logger } from '@farm/runtime';
import { buildLock } from '../local-services/kube-control-plane';
import { buildContextFingerprint } from './build-context';
import { ensureNodeBase } from './node-base';
import { farmPodman, type Podman } from './podman';

/** As docker-compose.yml names it (`agent-farm:dev`); podman stores short names under localhost/. */
export const FARM_IMAGE = 'localhost/agent-farm:dev';

export interface BuiltImage {
  /** The image id: run this, not the tag, which another clone's build may move once the lock is released. */
  id: string;
  ms: number;
  /** Whether the stand-in base had to be made (a cold build). */
  baseMade: boolean;
  podman: Podman;
}

export interface BuildOptions {
  /** The checkout (this one). */
  root?: string;
  /** The farm's podman (its storage under ~/.cache/agent-farm/podman) unless given. */
  podman?: Podman;
  /**
   * false: ask podman even when nothing changed since the last build of this checkout (a benchmark measures
   * podman's own cache, as a fresh clone meets it).
   */
  reuseLast?: boolean;
}

/** Builds the image (from its cache when unchanged). */
export async function buildFarmImage(log: Logger, opts: BuildOptions = {}): Promise<BuiltImage> {
  const held = await holdFarmImage(log, opts);
  held.release();
  return held;
}

/**
 * Builds the image and keeps the build lock until `release`: no other clone's build removes the image
 * meanwhile (each build removes what the builds before it left, see removeImagesOfOtherBuilds).
 */
export async function holdFarmImage(log: Logger, opts: BuildOptions = {}): Promise<BuiltImage & { release(): void }> {
  const podman = opts.podman ?? farmPodman();
  const release = await buildLock(join(podman.dir, 'build.lock'), log, 'the image (or a test using it)');
  try {
    return { ...(await build(podman, log, opts.root ?? FARM_ROOT, opts.reuseLast ?? true)), release };
  } catch (err) {
    release();
    throw err;
  }
}

/** What the last build of a checkout was built from, and its image (in the clone's .cache). */
interface BuildStamp {
  context: string;
  baseId: string;
  id: string;
}

async function build(podman: Podman, log: Logger, root: string, reuseLast: boolean): Promise<BuiltImage> {
  const started = Date.now();
  await removeLeftoverBuildContainers(podman, log);
  const base = await ensureNodeBase(podman, log);
  const logDir = join(root, '.cache');
  mkdirSync(logDir, { recursive: true });
  // Before the build reads them: a file changed meanwhile makes the next build look again.
  const stamp: Omit<BuildStamp, 'id'> = { context: buildContextFingerprint(root), baseId: base.id };
  const stampFile = join(logDir, 'image-build.json');
  const last = readStamp(stampFile);
  if (
    reuseLast &&
    last?.context === stamp.context &&
    last.baseId === stamp.baseId &&
    (await imageExists(podman, last.id))
  ) {
    const ms = Date.now() - started;
    log.info('image unchanged since the last build of this checkout', {
      image: FARM_IMAGE,
      id: last.id.slice(0, 12),
      ms,
    });
    return { id: last.id, ms, baseMade: false, podman };
  }
  rmSync(stampFile, { force: true });
  const logFile = join(logDir, 'image-build.podman.log');
  rmSync(logFile, { force: true });
  const iidFile = join(podman.dir, `iid-${process.pid}`);
  log.info('building the image from the Dockerfile', { image: FARM_IMAGE, log: logFile });
  try {
    await podman.run(
      [
        'build',
        // RUN steps reach the registries (npm, Debian) only through the host's network here.
        '--network=host',
        // The base is the local stand-in: nothing is pulled.
        '--pull=never',
        '--layers',
        '--force-rm',
        '--iidfile',
        iidFile,
        '-t',
        FARM_IMAGE,
        '-f',
        join(root, 'Dockerfile'),
        root,
      ],
      { logFile },
    );
    const id = readFileSync(iidFile, 'utf8')
      .trim()
      .replace(/^sha256:/, '');
    const ms = Date.now() - started;
    log.info('image built', { image: FARM_IMAGE, id: id.slice(0, 12), ms, baseMade: base.made });
    await removeImagesOfOtherBuilds(podman, [id, base.id, ...stepImages(readFileSync(logFile, 'utf8'))], log);
    writeFileSync(stampFile, JSON.stringify({ ...stamp, id } satisfies BuildStamp));
    return { id, ms, baseMade: base.made, podman };
  } finally {
    rmSync(iidFile, { force: true });
  }
}

function readStamp(file: string): BuildStamp | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BuildStamp;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

async function imageExists(podman: Podman, id: string): Promise<boolean> {
  return podman.run(['image', 'exists', id]).then(
    () => true,
    () => false, // exit 1: not there
  );
}

/**
 * The working containers of a build that was killed stay in the storage (the lock is ours: none is running).
 * They are the storage's own containers, not podman's (podman 4.3 lists them with state `storage`; newer ones
 * also say IsBuilder); podman's containers (a test's, running meanwhile) are not touched.
 */
async function removeLeftoverBuildContainers(podman: Podman, log: Logger): Promise<void> {
  const listed = JSON.parse((await podman.run(['ps', '--all', '--external', '--format', 'json'])) || '[]') as {
    Id: string;
    State?: string;
    IsBuilder?: boolean;
  }[];
  const ids = listed.filter((c) => c.IsBuilder === true || c.State === 'storage').map((c) => c.Id);
  if (!ids.length) return;
  log.warn('removing the containers a killed image build left', { containers: ids });
  await podman.run(['rm', '--force', ...ids]);
}

/** The image of every step of a build, made or taken from the cache, as its output names them (`--> <id>`). */
export function stepImages(buildOutput: string): string[] {
  return [...buildOutput.matchAll(/^--> (?:Using cache )?([0-9a-f]{11,64})\s*$/gm)].map((m) => m[1]);
}

/**
 * Keeps the storage from growing build after build (a changed source makes ~400 MB of new layers): every image
 * neither tagged nor a step of this build goes, newest first (a child before its parent). The layer cache left
 * is this build's: an unchanged rebuild takes seconds, and a changed one still finds its dependency layers.
 */
async function removeImagesOfOtherBuilds(podman: Podman, keep: string[], log: Logger): Promise<void> {
  const images = JSON.parse(await podman.run(['images', '--all', '--format', 'json'])) as {
    Id: string;
    Names?: string[];
    Created: number;
  }[];
  const kept = (id: string) => keep.some((k) => id.startsWith(k));
  const unused = images
    .filter((i) => !i.Names?.length && !kept(i.Id))
    .sort((a, b) => b.Created - a.Created)
    .map((i) => i.Id);
  if (!unused.length) return;
  const out = await podman.run(['rmi', ...unused]).catch((err: Error) => {
    log.warn('could not remove some images of earlier builds', { err: err.message });
    return '';
  });
  log.info('removed the images of earlier builds', {
    count: out.split('\n').filter((l) => l.startsWith('Deleted')).length,
  });
}
