import type { V1Job, V1ResourceRequirements } from '@kubernetes/client-node';
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
import { encodeBuildRequestBase64, type farm } from '@farm/proto';
import { imageEntryArgs } from '@farm/runtime';

/** How the build Jobs look; every field but namespace and image has a default fit for a small cluster. */
export interface BuildJobSettings {
  namespace: string;
  image: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  /** The build's Job-style entry point; `args`, so the image's entrypoint (tini) stays PID 1. */
  args?: string[];
  serviceAccountName?: string;
  /** Secret with the git credentials, passed whole as environment (envFrom). */
  secretName?: string;
  /** ConfigMap with KAFKA_BROKERS and FARM_TOPIC_PREFIX, passed whole as environment. */
  configMapName?: string;
  resources?: V1ResourceRequirements;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
  workVolumeSizeLimit?: string;
  /** app.kubernetes.io/instance of the Jobs (the Helm release). */
  instance?: string;
  /** The chart's pod security, node selection and runtime class (FARM_JOB_POD); the farm's defaults otherwise. */
  pod?: JobPodSettings;
  /** The sandbox sidecar that runs the repository's checks (@farm/kube sandboxPodParts); on by default. */
  sandbox?: SandboxPodSettings;
}

export const BUILD_CONTAINER = 'build';
export const BUILD_MANAGED_BY = 'farm-builder';
export const CHANGE_REQUEST_LABEL = 'farm.dev/change-request-id';
/** Set on a failed build Job once BUILD_FAILED was published for it, so a restarted builder does not repeat it. */
export const REPORTED_ANNOTATION = 'farm.dev/reported';

/** One build Job per change request: its name is a function of the id, so a redelivered request finds it. */
export const buildJobNameFor = (changeRequestId: string): string => jobName('bld', changeRequestId, changeRequestId);

export const buildJobSelector = (instance = 'agent-farm') =>
  `app.kubernetes.io/managed-by=${BUILD_MANAGED_BY},app.kubernetes.io/instance=${instance}`;

/** The Job for one BuildRequest; pure, so its shape is tested without an API server. */
export function buildJobFor(request: farm.v1.IBuildRequest, s: BuildJobSettings): V1Job {
  const workDir = '/work';
  const labels = {
    'app.kubernetes.io/name': 'builder',
    'app.kubernetes.io/component': 'build',
    'app.kubernetes.io/part-of': 'agent-farm',
    'app.kubernetes.io/instance': s.instance ?? 'agent-farm',
    'app.kubernetes.io/managed-by': BUILD_MANAGED_BY,
    [CHANGE_REQUEST_LABEL]: labelValue(request.changeRequestId!),
  };
  // The repository's checks run in the sandbox sidecar, which shares only the checkouts (not the work dir).
  const sandbox = sandboxPodParts({
    ...s.sandbox,
    image: s.image,
    imagePullPolicy: s.imagePullPolicy ?? 'IfNotPresent',
    containerSecurity: jobContainerSecurity(s.pod),
    checkoutDir: `${workDir}/checkouts`,
    checkoutSizeLimit: s.workVolumeSizeLimit ?? '8Gi',
  });
  const env = {
    FARM_BUILD_REQUEST: encodeBuildRequestBase64(request),
    FARM_WORK_DIR: workDir,
    HOME: '/tmp',
    ...sandbox.env,
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: buildJobNameFor(request.changeRequestId!),
      namespace: s.namespace,
      labels,
      annotations: { [CHANGE_REQUEST_LABEL]: request.changeRequestId! },
    },
    spec: {
      // The build reports every outcome itself and exits 0; a pod that failed did not report, and a second
      // pod would build the same thing again, so the builder reports the failure instead.
      backoffLimit: 0,
      activeDeadlineSeconds: s.activeDeadlineSeconds ?? 3600,
      ttlSecondsAfterFinished: s.ttlSecondsAfterFinished ?? 3600,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          serviceAccountName: s.serviceAccountName,
          automountServiceAccountToken: false, // the build never talks to the Kubernetes API
          enableServiceLinks: false,
          ...jobPodFields(s.pod),
          ...sandbox.pod,
          ...(sandbox.initContainers ? { initContainers: sandbox.initContainers } : {}),
          containers: [
            {
              name: BUILD_CONTAINER,
              image: s.image,
              imagePullPolicy: s.imagePullPolicy ?? 'IfNotPresent',
              args: s.args ?? imageEntryArgs('build-job'),
              env: Object.entries(env).map(([name, value]) => ({ name, value })),
              envFrom: envFromRefs(s.configMapName, s.secretName),
              resources: s.resources ?? {
                requests: { cpu: '500m', memory: '1Gi' },
                limits: { cpu: '2', memory: '4Gi' },
              },
              securityContext: jobContainerSecurity(s.pod),
              volumeMounts: [
                { name: 'work', mountPath: workDir },
                { name: 'tmp', mountPath: '/tmp' },
                ...sandbox.mounts,
              ],
            },
          ],
          volumes: [
            { name: 'work', emptyDir: { sizeLimit: s.workVolumeSizeLimit ?? '8Gi' } },
            { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
            ...sandbox.volumes,
          ],
        },
      },
    },
  };
}
