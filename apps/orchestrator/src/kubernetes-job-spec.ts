import {
  envFromRefs,
  jobContainerSecurity,
  jobName,
  jobPodFields,
  labelValue,
  sandboxPodParts,
  type JobPodSettings,
  type SandboxPodSettings,
} from '@farm/kube';
import type { V1Job, V1ResourceRequirements } from '@kubernetes/client-node';
import { encodeTaskBase64, type farm } from '@farm/proto';
import { imageEntryArgs } from '@farm/runtime';

/** How the coding-agent Jobs look; every field has a default fit for a small cluster. */
export interface AgentJobSettings {
  namespace: string;
  image: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  /** The agent's Job-style entry point; `args`, so the image's entrypoint (tini, which reaps the checks'
   * orphaned processes) stays PID 1. */
  args?: string[];
  serviceAccountName?: string;
  /** Secret with the model key and git credentials, passed whole as environment (envFrom). */
  secretName?: string;
  /** ConfigMap with the agent's non-secret settings (KAFKA_BROKERS, OPENAI_BASE_URL, FARM_MODEL, ...). */
  configMapName?: string;
  env?: Record<string, string>;
  resources?: V1ResourceRequirements;
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
  workDir?: string;
  workVolumeSizeLimit?: string;
  /** app.kubernetes.io/instance of the Jobs (the Helm release). */
  instance?: string;
  /** Extra labels, e.g. for network policies. */
  labels?: Record<string, string>;
  /** The chart's pod security, node selection and runtime class (FARM_JOB_POD); the farm's defaults otherwise. */
  pod?: JobPodSettings;
  /** The sandbox sidecar that runs the repository's commands (@farm/kube sandboxPodParts); on by default. */
  sandbox?: SandboxPodSettings;
}

export const CONTAINER_NAME = 'agent';
export const MANAGED_BY = 'farm-orchestrator';
export const LABELS = {
  changeRequestId: 'farm.dev/change-request-id',
  taskId: 'farm.dev/task-id',
  dispatch: 'farm.dev/dispatch',
  managedBy: 'app.kubernetes.io/managed-by',
} as const;
/** Set on a finished Job once its outcome was handled, so a restarted launcher does not report it twice. */
export const OUTCOME_ANNOTATION = 'farm.dev/outcome';

/** Exit codes of apps/coding-agent/src/job.ts after it published its CommitResult (0 SUCCESS, 2 SOFT, 3 HARD). */
export const REPORTED_EXIT_CODES = [0, 2, 3];
/** The agent rejected its task or configuration; nothing was published and a retry cannot help. */
export const BAD_INPUT_EXIT_CODE = 64;
/**
 * An env var is one exec string: Linux caps each at 128 KiB (MAX_ARG_STRLEN), so a larger task cannot start.
 * Tasks carry ids and goals, not file contents, so this is far above what the planners produce.
 */
export const MAX_TASK_ENV_BYTES = 120 * 1024;

/**
 * The Job's name: `agt-` + a readable slug of the task id + a hash of the exact id and dispatch, so two
 * dispatches of one task never share a Job.
 */
export const jobNameFor = (taskId: string, dispatch = 0): string => jobName('agt', taskId, `${taskId}#${dispatch}`);

/** The Job for one CodingTask; pure, so its shape is tested without an API server. */
export function buildAgentJob(task: farm.v1.ICodingTask, s: AgentJobSettings): V1Job {
  const taskB64 = encodeTaskBase64(task);
  const workDir = s.workDir ?? '/work';
  const labels = {
    'app.kubernetes.io/name': 'coding-agent',
    'app.kubernetes.io/component': 'coding-task',
    'app.kubernetes.io/part-of': 'agent-farm',
    'app.kubernetes.io/instance': s.instance ?? 'agent-farm',
    [LABELS.managedBy]: MANAGED_BY,
    [LABELS.changeRequestId]: labelValue(task.changeRequestId!),
    [LABELS.taskId]: labelValue(task.id!),
    [LABELS.dispatch]: String(task.dispatch ?? 0),
    ...s.labels,
  };
  // The repository's commands run in the sandbox sidecar, which shares only the checkouts (not the work dir).
  const sandbox = sandboxPodParts({
    ...s.sandbox,
    image: s.image,
    imagePullPolicy: s.imagePullPolicy ?? 'IfNotPresent',
    containerSecurity: jobContainerSecurity(s.pod),
    checkoutDir: `${workDir}/checkouts`,
    checkoutSizeLimit: s.workVolumeSizeLimit ?? '4Gi',
  });
  const env = { ...s.env, FARM_TASK: taskB64, FARM_WORK_DIR: workDir, HOME: '/tmp', ...sandbox.env };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(task.id!, task.dispatch ?? 0),
      namespace: s.namespace,
      labels,
      // Labels may be slugs; the exact ids are kept here for people reading `kubectl describe`.
      annotations: { [LABELS.taskId]: task.id!, [LABELS.changeRequestId]: task.changeRequestId! },
    },
    spec: {
      backoffLimit: s.backoffLimit ?? 1,
      activeDeadlineSeconds: s.activeDeadlineSeconds ?? 1800,
      ttlSecondsAfterFinished: s.ttlSecondsAfterFinished ?? 3600,
      podFailurePolicy: {
        rules: [
          // The agent decided (SOFT/HARD_FAIL published, or bad input): running it again cannot change that.
          {
            action: 'FailJob',
            onExitCodes: { containerName: CONTAINER_NAME, operator: 'In', values: [2, 3, BAD_INPUT_EXIT_CODE] },
          },
          // Node drain, preemption, eviction: not the task's fault, so it does not use up backoffLimit.
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        ],
      },
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never', // podFailurePolicy requires it; retries are new pods counted by backoffLimit
          serviceAccountName: s.serviceAccountName,
          automountServiceAccountToken: false, // the agent never talks to the Kubernetes API
          enableServiceLinks: false,
          ...jobPodFields(s.pod),
          ...sandbox.pod,
          ...(sandbox.initContainers ? { initContainers: sandbox.initContainers } : {}),
          containers: [
            {
              name: CONTAINER_NAME,
              image: s.image,
              imagePullPolicy: s.imagePullPolicy ?? 'IfNotPresent',
              args: s.args ?? imageEntryArgs('agent-job'),
              env: Object.entries(env).map(([name, value]) => ({ name, value })),
              envFrom: envFromRefs(s.configMapName, s.secretName),
              resources: s.resources ?? {
                requests: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1Gi' },
                limits: { cpu: '2', memory: '2Gi', 'ephemeral-storage': '5Gi' },
              },
              securityContext: jobContainerSecurity(s.pod),
              // Checkouts and the repo's checks write only here; /tmp is the process's scratch space.
              volumeMounts: [
                { name: 'work', mountPath: workDir },
                { name: 'tmp', mountPath: '/tmp' },
                ...sandbox.mounts,
              ],
            },
          ],
          volumes: [
            { name: 'work', emptyDir: { sizeLimit: s.workVolumeSizeLimit ?? '4Gi' } },
            { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
            ...sandbox.volumes,
          ],
        },
      },
    },
  };
}
