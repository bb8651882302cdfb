import {
  jobNamespace,
  jobPodSetting,
  kubeConfigFromEnv,
  kubernetesQuantity as quantity,
  sandboxPodConfigSchema,
  sandboxPodFromConfig,
} from '@farm/kube';
import type { EventBus } from '@farm/bus';
import { loadConfig, z, type Logger } from '@farm/runtime';
import { DEFAULT_CAP_CONFIGMAP, KubernetesJobLauncher } from './kubernetes-launcher';
import { watchEgressPolicy, type EgressPolicyWatch } from './egress-policy-watch';

/** FARM_LAUNCHER=jobs settings; the Helm chart sets them on the orchestrator from its values. */
export const jobsLauncherConfigSchema = z.object({
  /** The image the agent Jobs run (the farm image); required. */
  FARM_AGENT_IMAGE: z.string().min(1, 'FARM_AGENT_IMAGE must name the farm image the agent Jobs run'),
  FARM_AGENT_IMAGE_PULL_POLICY: z.enum(['Always', 'IfNotPresent', 'Never']).default('IfNotPresent'),
  /** Namespace of the Jobs; default: the orchestrator's own (from its service account), else `default`. */
  FARM_K8S_NAMESPACE: z.string().optional(),
  FARM_AGENT_SERVICE_ACCOUNT: z.string().optional(),
  /** Secret passed whole to the agent as environment: OPENAI_API_KEY, git credentials. */
  FARM_AGENT_SECRET: z.string().optional(),
  /** ConfigMap passed whole to the agent as environment: KAFKA_BROKERS, OPENAI_BASE_URL, FARM_MODEL, ... */
  FARM_AGENT_CONFIGMAP: z.string().optional(),
  FARM_JOB_CPU_REQUEST: quantity.default('500m'),
  FARM_JOB_MEMORY_REQUEST: quantity.default('1Gi'),
  FARM_JOB_CPU_LIMIT: quantity.default('2'),
  FARM_JOB_MEMORY_LIMIT: quantity.default('2Gi'),
  FARM_JOB_WORK_SIZE: quantity.default('4Gi'),
  FARM_JOB_DEADLINE_S: z.coerce.number().int().positive().default(1800),
  FARM_JOB_BACKOFF_LIMIT: z.coerce.number().int().min(0).default(1),
  FARM_JOB_TTL_S: z.coerce.number().int().min(0).default(3600),
  /** The pods' security, node selection and runtime class as JSON (the chart renders it from its values). */
  FARM_JOB_POD: jobPodSetting.optional(),
  /** Jobs at once unless the launcher ConfigMap's maxRunningJobs says otherwise. */
  FARM_MAX_RUNNING_JOBS: z.coerce.number().int().min(0).default(4),
  FARM_LAUNCHER_CONFIGMAP: z.string().default(DEFAULT_CAP_CONFIGMAP),
  /** app.kubernetes.io/instance of the Jobs: the Helm release, so two farms can share a namespace. */
  FARM_RELEASE: z.string().default('agent-farm'),
  /**
   * The NetworkPolicy that limits the Jobs' egress (the chart's `<release>-code-egress`): checked at start and
   * every 5 minutes, /readyz fails while it is missing or another policy reopens egress. Unset: not checked.
   */
  FARM_EGRESS_POLICY: z.string().min(1).optional(),
});

/** The egress policy check of jobs mode, or undefined (with a warning) when the operator turned it off. */
export function egressPolicyWatchFromEnv(
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): EgressPolicyWatch | undefined {
  const c = loadConfig(jobsLauncherConfigSchema, env);
  if (!c.FARM_EGRESS_POLICY) {
    log.warn(
      'the egress of the agent pods is not checked (FARM_EGRESS_POLICY unset: networkPolicy.codeEgress.enabled=false); they reach what the cluster lets them',
    );
    return undefined;
  }
  const kubeConfig = kubeConfigFromEnv(env);
  return watchEgressPolicy({
    kubeConfig,
    namespace: jobNamespace(c.FARM_K8S_NAMESPACE, kubeConfig),
    release: c.FARM_RELEASE,
    policy: c.FARM_EGRESS_POLICY,
    log,
  });
}

/** The Job launcher configured from the environment, talking to the cluster it runs in (or ~/.kube/config). */
export function kubernetesJobLauncherFromEnv(
  bus: EventBus,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): KubernetesJobLauncher {
  const c = loadConfig(jobsLauncherConfigSchema, env);
  const sandbox = sandboxPodFromConfig(loadConfig(sandboxPodConfigSchema, env)); // FARM_SANDBOX_*: the sidecar
  const kubeConfig = kubeConfigFromEnv(env);
  const namespace = jobNamespace(c.FARM_K8S_NAMESPACE, kubeConfig);
  const launcher = new KubernetesJobLauncher({
    kubeConfig,
    bus,
    log,
    maxRunningJobs: c.FARM_MAX_RUNNING_JOBS,
    capConfigMap: c.FARM_LAUNCHER_CONFIGMAP,
    job: {
      namespace,
      image: c.FARM_AGENT_IMAGE,
      imagePullPolicy: c.FARM_AGENT_IMAGE_PULL_POLICY,
      serviceAccountName: c.FARM_AGENT_SERVICE_ACCOUNT,
      secretName: c.FARM_AGENT_SECRET,
      configMapName: c.FARM_AGENT_CONFIGMAP,
      resources: {
        requests: { cpu: c.FARM_JOB_CPU_REQUEST, memory: c.FARM_JOB_MEMORY_REQUEST },
        limits: { cpu: c.FARM_JOB_CPU_LIMIT, memory: c.FARM_JOB_MEMORY_LIMIT },
      },
      activeDeadlineSeconds: c.FARM_JOB_DEADLINE_S,
      backoffLimit: c.FARM_JOB_BACKOFF_LIMIT,
      ttlSecondsAfterFinished: c.FARM_JOB_TTL_S,
      workVolumeSizeLimit: c.FARM_JOB_WORK_SIZE,
      instance: c.FARM_RELEASE,
      pod: c.FARM_JOB_POD,
      sandbox,
    },
  });
  void launcher.start(); // adopt Jobs left by a previous orchestrator before the first launch
  return launcher;
}
