import {
  PatchUtils,
  type BatchV1Api,
  type V1EnvFromSource,
  type V1Job,
  type V1JobCondition,
  type V1PodSecurityContext,
  type V1SecurityContext,
} from '@kubernetes/client-node';

/** Complete or Failed with status True; FailureTarget/SuccessCriteriaMet come first while pods still terminate. */
export function terminalCondition(job: V1Job): V1JobCondition | undefined {
  return job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** The status code and message of a failed API call (client-node's HttpError or a network error). */
export function apiError(err: unknown): { code?: number; message: string } {
  const e = err as { statusCode?: number; body?: { message?: string; code?: number }; message?: string };
  const code = e?.statusCode ?? e?.body?.code;
  return { code, message: e?.body?.message ?? e?.message ?? String(err) };
}

/** The pod security every farm Job runs with: the image's unprivileged user (uid/gid 1000), RuntimeDefault seccomp. */
export const FARM_POD_SECURITY: V1PodSecurityContext = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  seccompProfile: { type: 'RuntimeDefault' },
};

/** The container security every farm Job runs with: read-only root, no privilege escalation, no capabilities. */
export const FARM_CONTAINER_SECURITY: V1SecurityContext = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
};

/** A container's environment from a ConfigMap and a Secret, each passed whole when named. */
export function envFromRefs(configMapName?: string, secretName?: string): V1EnvFromSource[] {
  return [
    ...(configMapName ? [{ configMapRef: { name: configMapName } }] : []),
    ...(secretName ? [{ secretRef: { name: secretName } }] : []),
  ];
}

/**
 * Sets annotations on a Job (a JSON merge patch), e.g. that its outcome was handled. A Job that is gone already
 * (TTL, cancel) is fine; any other failure is the caller's to log: the mark is an optimisation, not a guarantee.
 */
export async function annotateJob(
  batch: BatchV1Api,
  namespace: string,
  name: string,
  annotations: Record<string, string>,
): Promise<void> {
  try {
    await batch.patchNamespacedJob(
      name,
      namespace,
      { metadata: { annotations } },
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      { headers: { 'Content-Type': PatchUtils.PATCH_FORMAT_JSON_MERGE_PATCH } },
    );
  } catch (err) {
    if (apiError(err).code !== 404) throw err;
  }
}
