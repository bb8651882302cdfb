/** Starts the local Kafka/Postgres/Kubernetes; shared by the jest global setup and the services.ts CLI. */
import { createLogger, type LogFields, type Logger } from '@farm/runtime';
import { startKafka, type LocalKafka } from './kafka';
import { startLocalKubernetes, type LocalKubernetesCluster } from './local-kubernetes';
import { startPostgres, type LocalPostgres } from './postgres';

export { startKafka, type LocalKafka } from './kafka';
export { startPostgres, type LocalPostgres } from './postgres';
export { startLocalKubernetes, type LocalKubernetesCluster } from './local-kubernetes';

export interface LocalServices {
  /** Only the variables of the services actually started. */
  env: {
    KAFKA_BROKERS?: string;
    /** The broker's listener for pods on the real node (on its gateway), when there is one. */
    FARM_TEST_KAFKA_POD_BROKERS?: string;
    DATABASE_URL?: string;
    KUBECONFIG?: string;
    FARM_TEST_AGENT_IMAGE?: string;
    FARM_TEST_HELM?: string;
  };
  stop(): Promise<void>;
}

export async function startLocalServices(
  want: { kafka: boolean; postgres: boolean; kubernetes?: boolean; kafkaPodHost?: string },
  log: Logger = createLogger('local-services'),
): Promise<LocalServices> {
  const timed = async <T>(service: string, start: () => Promise<T>, fields: (s: T) => LogFields) => {
    const started = Date.now();
    const s = await start();
    log.info(`${service} started`, { ...fields(s), ms: Date.now() - started });
    return s;
  };
  // In parallel: the JVM start dominates and Postgres fits inside it; the control plane starts in a few
  // seconds once built (a cold build is minutes, and overlaps the others).
  const [kafka, pg, k8s] = await Promise.allSettled([
    want.kafka
      ? timed(
          'kafka',
          () => startKafka({ log: log.child({ service: 'kafka' }), podHost: want.kafkaPodHost }),
          (k) => ({ brokers: k.brokers, podBrokers: k.podBrokers }),
        )
      : undefined,
    want.postgres
      ? timed(
          'postgres',
          () => startPostgres({ log: log.child({ service: 'postgres' }) }),
          (p) => ({ url: p.url }),
        )
      : undefined,
    want.kubernetes
      ? timed(
          'kubernetes',
          () => startLocalKubernetes({ log: log.child({ service: 'kubernetes' }) }),
          (k) => ({ kubeconfig: k.env.KUBECONFIG }),
        )
      : undefined,
  ]);
  const up = [kafka, pg, k8s].flatMap((r) =>
    r.status === 'fulfilled' && r.value ? [r.value as LocalKafka | LocalPostgres | LocalKubernetesCluster] : [],
  );
  const stop = async () => {
    await Promise.all(
      up.splice(0).map((s) => s.stop().catch((err) => log.error('stopping local service failed', { err }))),
    );
  };
  for (const r of [kafka, pg, k8s]) {
    if (r.status === 'rejected') {
      await stop(); // don't leak the one that did come up
      throw r.reason;
    }
  }
  const env: LocalServices['env'] = {};
  if (kafka.status === 'fulfilled' && kafka.value) {
    env.KAFKA_BROKERS = kafka.value.brokers;
    if (kafka.value.podBrokers) env.FARM_TEST_KAFKA_POD_BROKERS = kafka.value.podBrokers;
  }
  if (pg.status === 'fulfilled' && pg.value) env.DATABASE_URL = pg.value.url;
  if (k8s.status === 'fulfilled' && k8s.value) Object.assign(env, k8s.value.env);
  return { env, stop };
}
