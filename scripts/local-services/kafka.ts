/**
 * Single-node Kafka (KRaft, broker+controller in one JVM) for tests and local dev, without Docker:
 * the broker jars come from Maven Central via scripts/kafka/pom.xml (the 4.x line; FARM_TEST_KAFKA=3.9 or
 * `line: '3.9'`: pom-3.9.xml, the last 3.x line) and are cached in <repo>/.cache/kafka.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { createLogger, type Logger } from '@farm/runtime';
import { freePort, ownedTempDir, run, sleep, spawnGuarded, tail } from './proc';

const REPO_ROOT = resolve(__dirname, '../..');
/** The Kafka lines the tests run: 4.x, what users install now, by default; 3.9, the last 3.x, for who still runs it. */
export type KafkaLine = '4' | '3.9';
const POMS: Record<KafkaLine, string> = {
  '4': join(REPO_ROOT, 'scripts/kafka/pom.xml'),
  '3.9': join(REPO_ROOT, 'scripts/kafka/pom-3.9.xml'),
};
const defaultLine = (): KafkaLine => (process.env.FARM_TEST_KAFKA === '3.9' ? '3.9' : '4');
const READY_TIMEOUT_MS = 90_000;

export interface LocalKafka {
  brokers: string;
  /** The listener for pods (on `podHost`, advertised there), when one was asked for. */
  podBrokers?: string;
  stop(): Promise<void>;
  /** Stops the broker (SIGTERM) and keeps its data: an outage. */
  pause(): Promise<void>;
  /** Starts the paused broker again on the same port and data; resolves once it answers. */
  resume(): Promise<void>;
}

export async function startKafka(
  opts: {
    cacheDir?: string;
    log?: Logger;
    /** An address of this host where pods reach it (the real node's gateway): a second listener for them. */
    podHost?: string;
    /** Which Kafka line (default FARM_TEST_KAFKA, else 4). */
    line?: KafkaLine;
  } = {},
): Promise<LocalKafka> {
  const log = opts.log ?? createLogger('local-services', { fields: { service: 'kafka' } });
  const line = opts.line ?? defaultLine();
  const libs = await resolveJars(opts.cacheDir ?? join(REPO_ROOT, '.cache/kafka'), POMS[line], line, log);
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin/java') : 'java';
  const classpath = join(libs, '*');

  const dir = ownedTempDir('farm-kafka-');
  const [port, controllerPort, podPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const brokers = `127.0.0.1:${port}`;
  const podBrokers = opts.podHost ? `${opts.podHost}:${podPort}` : undefined;
  const props = join(dir, 'server.properties');
  writeFileSync(props, serverProperties(port, controllerPort, join(dir, 'data'), podBrokers));
  // 3.9 logs through log4j 1 (reload4j), 4.x through log4j 2: each reads its own file and property.
  const logConfig =
    line === '3.9'
      ? writeConfig(join(dir, 'log4j.properties'), LOG4J, '-Dlog4j.configuration')
      : writeConfig(join(dir, 'log4j2.properties'), LOG4J2, '-Dlog4j2.configurationFile');
  const logFile = join(dir, 'broker.log');

  try {
    // KRaft refuses to start on unformatted storage. Kafka's cluster ids are 16 random bytes, base64url.
    const clusterId = randomBytes(16).toString('base64url');
    await run(java, [
      '-cp',
      classpath,
      logConfig,
      'kafka.tools.StorageTool',
      'format',
      // One argument: an id starting with '-' (a base64url character) would otherwise be read as an option.
      `--cluster-id=${clusterId}`,
      '-c',
      props,
    ]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const hint = (err as Error).message.includes('ENOENT') ? ' (install Java 17+ or set JAVA_HOME)' : '';
    throw new Error(`kafka storage format failed${hint}: ${(err as Error).message}`);
  }

  const spawnBroker = () =>
    spawnGuarded(
      java,
      [
        '-Xmx512m',
        '-Xms128m',
        '-XX:+UseG1GC',
        '-Djava.awt.headless=true',
        logConfig,
        '-cp',
        classpath,
        'kafka.Kafka',
        props,
      ],
      { logFile },
    );
  let proc = spawnBroker();
  const stop = async () => {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const pause = () => proc.stop();
  const resume = async () => {
    proc = spawnBroker();
    await waitReady(brokers, proc.exited);
  };
  log.debug('kafka starting', { brokers, pid: proc.child.pid, logFile });

  try {
    await waitReady(brokers, proc.exited);
  } catch (err) {
    const logTail = tail(logFile);
    await stop();
    throw new Error(`${(err as Error).message}\n--- tail of ${logFile} ---\n${logTail}`);
  }
  return { brokers, podBrokers, stop, pause, resume };
}

function writeConfig(file: string, text: string, property: string): string {
  writeFileSync(file, text);
  return `${property}=file:${file}`;
}

/** Copies the broker's runtime jars once per pom content; a temp dir + rename keeps concurrent starters from seeing half a copy. */
async function resolveJars(cacheDir: string, pom: string, line: KafkaLine, log: Logger): Promise<string> {
  const libs = join(cacheDir, line === '4' ? 'libs' : `libs-${line}`);
  const stamp = join(libs, '.pom-sha256');
  const want = createHash('sha256').update(readFileSync(pom)).digest('hex');
  const current = () => existsSync(stamp) && readFileSync(stamp, 'utf8') === want;
  if (current()) return libs;

  mkdirSync(cacheDir, { recursive: true });
  const staging = mkdtempSync(join(cacheDir, 'staging-'));
  const started = Date.now();
  log.info('resolving kafka jars with maven (~50 MB, downloaded into ~/.m2 unless already there)', { pom });
  try {
    await run('mvn', [
      '-q',
      '-B',
      '-f',
      pom,
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${staging}`,
    ]);
    writeFileSync(join(staging, '.pom-sha256'), want);
    if (current()) {
      rmSync(staging, { recursive: true, force: true }); // another starter won the race; its copy may be in use
    } else {
      rmSync(libs, { recursive: true, force: true });
      renameSync(staging, libs);
    }
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    if (current()) return libs; // lost a rename race to a concurrent starter: its copy is just as good
    const hint = (err as Error).message.includes('ENOENT') ? ' (install Maven, e.g. apt-get install -y maven)' : '';
    throw new Error(`resolving kafka jars failed${hint}: ${(err as Error).message}`);
  }
  log.info('kafka jars cached', { libs, ms: Date.now() - started });
  return libs;
}

async function waitReady(brokers: string, exited: Promise<number | null>): Promise<void> {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastErr: unknown;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`kafka broker exited with code ${exitCode} before becoming ready`);
    // Fresh client per attempt with no retries: kafkajs' own backoff would overshoot our deadline and spam logs.
    const admin = new Kafka({
      brokers: [brokers],
      logLevel: logLevel.NOTHING,
      connectionTimeout: 1000,
      retry: { retries: 0 },
    }).admin();
    try {
      await admin.connect();
      await admin.listTopics();
      // Looking up a group coordinator makes the broker create __consumer_offsets now; otherwise the first
      // consumer in a test hits "group coordinator is not available" (logged by kafkajs as an error) and retries.
      await admin.describeGroups(['farm-readiness-probe']);
      return;
    } catch (err) {
      lastErr = err;
    } finally {
      await admin.disconnect().catch(() => {});
    }
    await sleep(250);
  }
  throw new Error(
    `kafka broker at ${brokers} not ready after ${READY_TIMEOUT_MS / 1000}s: ${(lastErr as Error)?.message}`,
  );
}

function serverProperties(port: number, controllerPort: number, dataDir: string, podBrokers?: string): string {
  // Pods get a listener of their own: a client is told the addresses of the listener it connected to.
  const pods = podBrokers ? `,PODS://${podBrokers}` : '';
  return `
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${controllerPort}
listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}${pods}
advertised.listeners=PLAINTEXT://127.0.0.1:${port}${pods}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,PODS:PLAINTEXT
log.dirs=${dataDir}
auto.create.topics.enable=true
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
# Internal topics default to 50 partitions; creating them delays the first consumer group by seconds on one node.
offsets.topic.num.partitions=1
transaction.state.log.num.partitions=1
# Consumers in tests join immediately instead of waiting 3 s for more members.
group.initial.rebalance.delay.ms=0
`;
}

// Warnings and errors only; the one INFO line from KafkaRaftServer marks a successful start in broker.log.
const LOG4J = `
log4j.rootLogger=WARN, out
log4j.appender.out=org.apache.log4j.ConsoleAppender
log4j.appender.out.layout=org.apache.log4j.PatternLayout
log4j.appender.out.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
`;

// The same for log4j 2 (Kafka 4.x).
const LOG4J2 = `
rootLogger.level=WARN
rootLogger.appenderRef.out.ref=out
appender.out.type=Console
appender.out.name=out
appender.out.layout.type=PatternLayout
appender.out.layout.pattern=[%d] %p %m (%c)%n
logger.raft.name=kafka.server.KafkaRaftServer
logger.raft.level=INFO
`;
