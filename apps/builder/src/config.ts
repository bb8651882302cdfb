import path from 'node:path';
import type { EventBus } from '@farm/bus';
import {
  jobNamespace,
  jobPodSetting,
  kubeConfigFromEnv,
  kubernetesQuantity as quantity,
  sandboxPodConfigSchema,
  sandboxPodFromConfig,
} from '@farm/kube';
import { entryScript, loadConfig, z, type Logger } from '@farm/runtime';
import { checkSandboxConfigSchema } from '@farm/sandbox';
import { buildCheckTimeoutSchema } from './build-job-config';
import type { BuildLauncher } from './build-launcher';
import { KubernetesBuildLauncher } from './kubernetes-build-launcher';
import { ProcessBuildLauncher } from './process-build-launcher';

/** The builder's settings; the builder deployment and `farm up` both read them through this. */
export const builderConfigSchema = z.object({
  /** process: a child process per build on this machine; jobs: a Kubernetes Job per build. */
  FARM_BUILD_LAUNCHER: z.enum(['process', 'jobs']).default('process'),
  /** Process mode: builds keep their state under FARM_STATE_DIR/builds, so a restarted builder finds them. */
  FARM_STATE_DIR: z.string().default('.farm/state'),
  /** How long the repository's full checks may run in one build (a step of `.farm/checks.json` may ask for less). */
  FARM_BUILD_CHECK_TIMEOUT_S: buildCheckTimeoutSchema,
  /** FARM_CHECK_HOST_NETWORK, _MEMORY_MB, _MAX_PROCESSES, _WRITABLE_DIRS: the same as the agents'. */
  ...checkSandboxConfigSchema.shape,
});
export type BuilderConfig = z.infer<typeof builderConfigSchema>;

/** FARM_BUILD_LAUNCHER=jobs settings; the Helm chart sets them on the builder from its values. */
export const buildJobsConfigSchema = z.object({
  /** The image the build Jobs run (the farm image); required. */
  FARM_BUILD_IMAGE: z.string().min(1, 'FARM_BUILD_IMAGE must name the farm image the build Jobs run'),
  FARM_BUILD_IMAGE_PULL_POLICY: z.enum(['Always', 'IfNotPresent', 'Never']).default('IfNotPresent'),
  /** Namespace of the Jobs; default: the builder's own (from its service account), else `default`. */
  FARM_K8S_NAMESPACE: z.string().optional(),
  FARM_BUILD_SERVICE_ACCOUNT: z.string().optional(),
  /** Secret passed whole to the build as environment: the git credentials. */
  FARM_BUILD_SECRET: z.string().optional(),
  /** ConfigMap passed whole to the build as environment: KAFKA_BROKERS, FARM_TOPIC_PREFIX. */
  FARM_BUILD_CONFIGMAP: z.string().optional(),
  FARM_BUILD_CPU_REQUEST: quantity.default('500m'),
  FARM_BUILD_MEMORY_REQUEST: quantity.default('1Gi'),
  FARM_BUILD_CPU_LIMIT: quantity.default('2'),
  FARM_BUILD_MEMORY_LIMIT: quantity.default('4Gi'),
  FARM_BUILD_WORK_SIZE: quantity.default('8Gi'),
  FARM_BUILD_DEADLINE_S: z.coerce.number().int().positive().default(3600),
  FARM_BUILD_TTL_S: z.coerce.number().int().min(0).default(3600),
  /** The pods' security, node selection and runtime class as JSON (the chart renders it from its values). */
  FARM_JOB_POD: jobPodSetting.optional(),
  /** app.kubernetes.io/instance of the Jobs: the Helm release, so two farms can share a namespace. */
  FARM_RELEASE: z.string().default('agent-farm'),
});

/**
 * The one place a build launcher is built from configuration. Process mode gives the build processes
 * `buildEnv` (the git credentials they push with); jobs mode reads its FARM_BUILD_* settings from `env`.
 */
export function createBuildLauncher(
  config: BuilderConfig,
  deps: {
    bus: EventBus;
    log: Logger;
    buildEnv?: NodeJS.ProcessEnv;
    env?: NodeJS.ProcessEnv;
    onClose?: 'stop' | 'leave';
  },
): BuildLauncher {
  const env = deps.env ?? process.env;
  if (config.FARM_BUILD_LAUNCHER === 'process') {
    return new ProcessBuildLauncher({
      bus: deps.bus,
      log: deps.log,
      buildEntry: entryScript('build-job', env),
      env: {
        ...(deps.buildEnv ?? env),
        FARM_BUILD_CHECK_TIMEOUT_S: String(config.FARM_BUILD_CHECK_TIMEOUT_S),
        FARM_CHECK_HOST_NETWORK: config.FARM_CHECK_HOST_NETWORK,
        FARM_CHECK_MEMORY_MB: String(config.FARM_CHECK_MEMORY_MB),
        FARM_CHECK_MAX_PROCESSES: String(config.FARM_CHECK_MAX_PROCESSES),
        FARM_CHECK_WRITABLE_DIRS: config.FARM_CHECK_WRITABLE_DIRS.join(','),
      },
      stateDir: path.join(config.FARM_STATE_DIR, 'builds'),
      onClose: deps.onClose,
    });
  }
  const c = loadConfig(buildJobsConfigSchema, env);
  const sandbox = sandboxPodFromConfig(loadConfig(sandboxPodConfigSchema, env)); // FARM_SANDBOX_*: the sidecar
  const kubeConfig = kubeConfigFromEnv(env);
  return new KubernetesBuildLauncher({
    kubeConfig,
    bus: deps.bus,
    log: deps.log,
    job: {
      namespace: jobNamespace(c.FARM_K8S_NAMESPACE, kubeConfig),
      image: c.FARM_BUILD_IMAGE,
      imagePullPolicy: c.FARM_BUILD_IMAGE_PULL_POLICY,
      serviceAccountName: c.FARM_BUILD_SERVICE_ACCOUNT,
      secretName: c.FARM_BUILD_SECRET,
      configMapName: c.FARM_BUILD_CONFIGMAP,
      resources: {
        requests: { cpu: c.FARM_BUILD_CPU_REQUEST, memory: c.FARM_BUILD_MEMORY_REQUEST },
        limits: { cpu: c.FARM_BUILD_CPU_LIMIT, memory: c.FARM_BUILD_MEMORY_LIMIT },
      },
      activeDeadlineSeconds: c.FARM_BUILD_DEADLINE_S,
      ttlSecondsAfterFinished: c.FARM_BUILD_TTL_S,
      workVolumeSizeLimit: c.FARM_BUILD_WORK_SIZE,
      instance: c.FARM_RELEASE,
      pod: c.FARM_JOB_POD,
      sandbox,
    },
  });
}
