/** @farm-image (waits for the background build of the image; run late) */
// The image built from the project's own Dockerfile (scripts/image/build.ts; scripts/test.sh starts the build in
// the background), each entry it runs started as the chart starts it: read-only root, uid 1000, no capabilities,
// and here without network. Without their settings the farm's services stop at once naming what is missing; given
// a writable place under /work, the ones that can run alone (srm, rag-service, git server) serve.
import { type FARM_ENTRIES, bundlePath, createLogger } from '@farm/runtime';
import { holdFarmImage, type BuiltImage } from './farm-image';
import { logLines, removeContainersOfDeadRuns, runInImage, type InImage } from './run-in-image';

const log = createLogger('image-test');
let image: BuiltImage & { release(): void };
const run = (argv: string[], env?: Record<string, string>) => runInImage(image.podman, image.id, argv, { env });
const entry = (name: keyof typeof FARM_ENTRIES, args: string[] = [], env?: Record<string, string>) =>
  run(['node', bundlePath(name), ...args], env);

/**
 * What `sh -c` runs to start a service, ask it over the container's loopback, then stop it with SIGTERM. It asks
 * for as long as the service runs (up to 90 s, within podman's 120 s: an embedded database starts slowly on a
 * loaded machine), and says why it got no answer, so a failure names more than the SIGTERM's exit code.
 */
const SERVE_AND_ASK = `
node "$1" & pid=$!
node -e '
  const [url, pid] = process.argv.slice(1);
  const stateOf = () => require("fs").readFileSync("/proc/" + pid + "/stat", "utf8").split(") ")[1][0];
  const alive = () => { try { return stateOf() !== "Z"; } catch { return false; } }; // a zombie has exited
  const deadline = Date.now() + 90000;
  (async () => {
    for (;;) {
      try {
        const res = await fetch(url);
        console.log("answer", res.status, (await res.text()).slice(0, 200));
        return;
      } catch (err) {
        if (!alive() || Date.now() > deadline) {
          console.log("no answer", alive() ? "in 90 s" : "(the service exited)", String(err.cause ?? err));
          return;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  })();
' "$2" "$pid"
kill -TERM $pid 2>/dev/null; wait $pid; echo "exit $?"
[ -z "$3" ] || ls "$3"
`;
const serveAndAsk = (name: keyof typeof FARM_ENTRIES, url: string, env: Record<string, string>, after = '') =>
  run(['sh', '-c', SERVE_AND_ASK, 'serve', bundlePath(name), url, after], env);

/** The error an entry logged (a JSON line with level error), or its plain stderr. */
const errorOf = (r: InImage) => {
  const line = logLines(r.stderr).find((l) => l.level === 'error');
  return line ? `${line.msg}: ${line.err}` : r.stderr.trim();
};

/** Every container of this file, started together once the image is there (a few at a time: 2 cores). */
const RUNS = {
  identity: () =>
    run([
      'sh',
      '-c',
      'id -u; id -g; grep CapEff /proc/self/status; awk \'$2 == "/" { print $4 }\' /proc/mounts; ' +
        'touch /app/x 2>&1; touch /work/x /tmp/x && echo writable',
    ]),
  orchestrator: () => entry('orchestrator'),
  builder: () => entry('builder'),
  'request-planner': () => entry('request-planner'),
  'code-planner': () => entry('code-planner'),
  'agent-worker': () => entry('agent-worker'),
  'agent-job': () => entry('agent-job'),
  'build-job': () => entry('build-job'),
  srm: () => entry('srm'),
  'srm serving': () => serveAndAsk('srm', 'http://127.0.0.1:9470/healthz', { FARM_SRM_STATE_DIR: '/work/srm' }),
  'rag-service': () => entry('rag-service'),
  'rag-service serving': () =>
    serveAndAsk(
      'rag-service',
      'http://127.0.0.1:8470/healthz',
      { RAG_INDEX_FILE: '/work/rag/index.json' },
      '/work/rag/index.json',
    ),
  'git-server': () =>
    run([
      'sh',
      '-c',
      `node ${bundlePath('git-server')} --root /work/git --create demo --port 8080 --host 127.0.0.1 & pid=$!
       for i in $(seq 50); do git ls-remote http://127.0.0.1:8080/demo >/dev/null 2>&1 && break; sleep 0.2; done
       git clone -q http://127.0.0.1:8080/demo /work/demo && echo cloned; kill $pid`,
    ]),
  cli: () => entry('cli', ['--help']),
};
const results = {} as Record<keyof typeof RUNS, Promise<InImage>>;

function startAll(concurrency: number): void {
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = () =>
    running < concurrency ? (running++, Promise.resolve()) : new Promise<void>((r) => waiting.push(r));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  for (const name of Object.keys(RUNS) as (keyof typeof RUNS)[]) {
    results[name] = acquire().then(() => RUNS[name]().finally(release));
    // Its test awaits it and reports the failure; until then a rejection is not "unhandled".
    results[name].catch(() => undefined);
  }
}

beforeAll(async () => {
  image = await holdFarmImage(log);
  const removed = await removeContainersOfDeadRuns(image.podman);
  if (removed.length) log.warn('removed the containers of an earlier run that was killed', { removed });
  startAll(3);
}, 30 * 60_000);
// Every run ends within its test's time, or podman's own --timeout: none is left when the lock goes.
afterAll(async () => {
  await Promise.allSettled(Object.values(results));
  image?.release();
}, 5 * 60_000);

describe('the image, run as the chart runs it and without network', () => {
  it('runs as uid 1000, its own user too, on a read-only root filesystem without capabilities', async () => {
    const r = await results.identity;
    const [uid, gid, caps, rootMount, rootWrite, writable] = r.stdout.trim().split('\n');
    expect([uid, gid]).toEqual(['1000', '1000']);
    expect(caps).toMatch(/^CapEff:\s+0+$/);
    expect(rootMount.split(',')).toContain('ro');
    expect(rootWrite).toMatch(/Read-only file system/);
    expect(writable).toBe('writable'); // the chart's emptyDirs: the agent's checkouts, temp files
    const config = await image.podman.run(['image', 'inspect', '--format', '{{.Config.User}}', image.id]);
    expect(config.trim()).toBe('1000:1000');
  });

  it.each(['orchestrator', 'builder', 'request-planner', 'code-planner'] as const)(
    '%s stops at start naming the bus setting it needs (exit 78, EX_CONFIG)',
    async (name) => {
      const r = await results[name];
      expect(r.stderr.trim()).toBe('KAFKA_BROKERS is required: comma-separated host:port of the Kafka brokers');
      expect(r.code).toBe(78);
    },
  );

  it('the pool worker stops naming the model endpoint it needs', async () => {
    const r = await results['agent-worker'];
    expect(r.stderr).toMatch(/^invalid configuration:\n\s+OPENAI_BASE_URL: required/);
    expect(r.code).toBe(78);
  });

  it('an agent job without a task says how to give it one (exit 64, EX_USAGE)', async () => {
    const r = await results['agent-job'];
    expect(errorOf(r)).toBe(
      'cannot start task: no task given: pass --task-file <path>, --task <base64|json> or set FARM_TASK',
    );
    expect(r.code).toBe(64);
  });

  it('a build job without its request names the variable that holds it (exit 64)', async () => {
    const r = await results['build-job'];
    expect(errorOf(r)).toBe('cannot start build: FARM_BUILD_REQUEST must hold the BuildRequest (base64 protobuf)');
    expect(r.code).toBe(64);
  });

  it('the srm without a database stops naming where its embedded one cannot go and the settings that help', async () => {
    const r = await results['srm'];
    expect(r.stderr.trim()).toBe(
      'FARM_SRM_STATE_DIR: cannot write /app/.farm/srm-state (EACCES): set DATABASE_URL (PostgreSQL), or ' +
        'FARM_SRM_STATE_DIR to a writable directory for the embedded database',
    );
    expect(r.code).toBe(78);
  });

  it('the srm on an embedded database under /work answers /healthz and stops cleanly on SIGTERM', async () => {
    const r = await results['srm serving'];
    expect(r.stdout).toMatch(/^answer 200 /m);
    expect(r.stdout).toMatch(/^exit 0$/m);
    expect(logLines(r.stderr).map((l) => l.msg)).toEqual(expect.arrayContaining(['srm listening', 'shutting down']));
  });

  it('the rag-service without Qdrant stops naming where its embedded index cannot go and the settings that help', async () => {
    const r = await results['rag-service'];
    expect(r.stderr.trim()).toBe(
      'RAG_INDEX_FILE: cannot write /app/.farm/rag (EACCES): set QDRANT_URL (the cluster backend), or ' +
        'RAG_INDEX_FILE to a file in a writable directory',
    );
    expect(r.code).toBe(78);
  });

  it('the rag-service with its index under /work answers /healthz and writes the index when stopped', async () => {
    const r = await results['rag-service serving'];
    expect(r.stdout).toMatch(/^answer 200 /m);
    expect(r.stdout).toMatch(/^exit 0$/m);
    expect(logLines(r.stderr).filter((l) => l.level === 'error')).toEqual([]);
    expect(r.stdout).toMatch(/^\/work\/rag\/index\.json$/m);
  });

  it('the git server (the compose file runs it) serves a repository that git in the image clones', async () => {
    const r = await results['git-server'];
    expect(r.stdout).toMatch(/^cloned$/m);
    expect(logLines(r.stderr).map((l) => l.msg)).toContain('git http server listening');
  });

  it('the cli prints its commands', async () => {
    const r = await results.cli;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: farm \[options\] \[command\]/);
    for (const command of ['submit', 'watch', 'up', 'demo', 'status', 'cancel'])
      expect(r.stdout).toMatch(new RegExp(`^\\s+${command} `, 'm'));
  });
});
