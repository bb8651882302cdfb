import type { KubeConfig } from '@kubernetes/client-node';
import { type Command, InvalidArgumentError, Option } from 'commander';

// The Kubernetes client is loaded when the command runs: `farm --help` does not parse it.
const kubernetes = () => import('@kubernetes/client-node');
const MERGE_PATCH = { headers: { 'Content-Type': 'application/merge-patch+json' } };
/** The ConfigMap and key the orchestrator's Job launcher reads before each launch (helm value jobs.capConfigMap). */
export const LAUNCHER_CONFIGMAP = 'farm-launcher';
export const CAP_KEY = 'maxRunningJobs';

export interface ScaleTarget {
  namespace: string;
  replicas: number;
}

/** Pool mode: sets the coding-agent Deployment's replicas through its scale subresource. */
export async function scaleWorkerPool(
  kc: KubeConfig,
  t: ScaleTarget & { deployment: string },
): Promise<{ before: number; after: number }> {
  const apps = kc.makeApiClient((await kubernetes()).AppsV1Api);
  try {
    const cur = await apps.readNamespacedDeploymentScale(t.deployment, t.namespace);
    const res = await apps.patchNamespacedDeploymentScale(
      t.deployment,
      t.namespace,
      { spec: { replicas: t.replicas } },
      undefined,
      undefined,
      'farm-cli',
      undefined,
      undefined,
      MERGE_PATCH,
    );
    return { before: cur.body.spec?.replicas ?? 0, after: res.body.spec?.replicas ?? t.replicas };
  } catch (err) {
    throw explain(
      err,
      `deployment ${t.namespace}/${t.deployment}`,
      'is the chart installed here with launcher.mode=pool?',
    );
  }
}

/**
 * Jobs mode: sets how many coding-agent Jobs may run at once. The orchestrator re-reads it before each
 * launch, so it applies without a restart; 0 pauses launching (queued tasks wait).
 */
export async function setJobCap(
  kc: KubeConfig,
  t: ScaleTarget & { configMap: string },
): Promise<{ before?: number; after: number }> {
  const core = kc.makeApiClient((await kubernetes()).CoreV1Api);
  const data = { [CAP_KEY]: String(t.replicas) };
  try {
    const cur = await core.readNamespacedConfigMap(t.configMap, t.namespace);
    await core.patchNamespacedConfigMap(
      t.configMap,
      t.namespace,
      { data },
      undefined,
      undefined,
      'farm-cli',
      undefined,
      undefined,
      MERGE_PATCH,
    );
    const before = cur.body.data?.[CAP_KEY];
    return { before: before === undefined ? undefined : Number(before), after: t.replicas };
  } catch (err) {
    if (statusOf(err) !== 404) throw explain(err, `configmap ${t.namespace}/${t.configMap}`);
  }
  try {
    await core.createNamespacedConfigMap(
      t.namespace,
      { metadata: { name: t.configMap }, data },
      undefined,
      undefined,
      'farm-cli',
    );
  } catch (err) {
    throw explain(err, `configmap ${t.namespace}/${t.configMap}`);
  }
  return { after: t.replicas };
}

/** `farm scale coding-agent --replicas N [--namespace ns] [--mode pool|jobs]` */
export function registerScaleCommand(
  program: Command,
  kubeConfig: () => KubeConfig | Promise<KubeConfig> = defaultKubeConfig,
): Command {
  return program
    .command('scale')
    .description('set the number of coding-agent replicas (pool mode) or of Jobs running at once (jobs mode)')
    .argument('<app>', 'what to scale: coding-agent')
    .requiredOption('--replicas <n>', 'worker replicas, or Jobs at once in jobs mode (0 pauses)', replicaCount)
    .option('-n, --namespace <ns>', "the farm's namespace (default: the kube context's, else default)")
    .addOption(new Option('--mode <mode>', 'how the farm runs agents').choices(['pool', 'jobs']).default('pool'))
    .option('--deployment <name>', 'the worker Deployment (pool mode)', 'agent-farm-coding-agent')
    .option('--configmap <name>', 'the launcher ConfigMap (jobs mode)', LAUNCHER_CONFIGMAP)
    .action(async (app: string, o) => {
      if (app !== 'coding-agent') {
        process.stderr.write(
          `farm scale: only coding-agent scales this way (got ${app}); the other apps run one replica\n`,
        );
        process.exitCode = 2;
        return;
      }
      const kc = await kubeConfig();
      const namespace: string = o.namespace ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
      try {
        if (o.mode === 'pool') {
          const r = await scaleWorkerPool(kc, { namespace, deployment: o.deployment, replicas: o.replicas });
          process.stdout.write(
            `coding-agent: ${r.before} -> ${r.after} replicas (deployment ${namespace}/${o.deployment})\n`,
          );
        } else {
          const r = await setJobCap(kc, { namespace, configMap: o.configmap, replicas: o.replicas });
          const from = r.before === undefined ? 'the orchestrator default' : String(r.before);
          process.stdout.write(
            `coding-agent Jobs: at most ${r.after} at once (was ${from}; configmap ${namespace}/${o.configmap}, applied before the next launch)\n`,
          );
        }
      } catch (err) {
        process.stderr.write(`farm scale: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      }
    });
}

async function defaultKubeConfig(): Promise<KubeConfig> {
  const kc = new (await kubernetes()).KubeConfig();
  kc.loadFromDefault(); // $KUBECONFIG, ~/.kube/config, or the in-cluster service account
  return kc;
}

function replicaCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number >= 0');
  return n;
}

function statusOf(err: unknown): number | undefined {
  return (err as { statusCode?: number })?.statusCode;
}

/** An API error in words an operator can act on. */
function explain(err: unknown, what: string, hint = ''): Error {
  const code = statusOf(err);
  const detail = (err as { body?: { message?: string } })?.body?.message ?? (err as Error)?.message ?? String(err);
  if (code === 404) return new Error(`${what} not found${hint ? `: ${hint}` : ''}`);
  if (code === 401 || code === 403) return new Error(`not allowed to change ${what} (${code}): ${detail}`);
  return new Error(`could not change ${what}${code ? ` (${code})` : ''}: ${detail}`);
}
