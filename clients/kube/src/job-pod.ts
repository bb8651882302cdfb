import type { V1Affinity, V1PodSecurityContext, V1SecurityContext, V1Toleration } from '@kubernetes/client-node';
import { z } from '@farm/runtime';
import { FARM_CONTAINER_SECURITY, FARM_POD_SECURITY } from './jobs';

/**
 * Where and how the farm's Job pods run, as the operator set it in the chart (FARM_JOB_POD, JSON): the chart's
 * own pod and container security and node selection, the same for agent and build Jobs (the runtime class and
 * user namespaces are the sandbox's settings: sandbox-pod.ts). The
 * Kubernetes objects inside are checked by the API server when a Job is created; here only their shape.
 */
export interface JobPodSettings {
  securityContext?: V1PodSecurityContext;
  containerSecurityContext?: V1SecurityContext;
  nodeSelector?: Record<string, string>;
  tolerations?: V1Toleration[];
  affinity?: V1Affinity;
  priorityClassName?: string;
}

const object = z.record(z.string(), z.unknown());
const jobPodSchema = z
  .object({
    securityContext: object.optional(),
    containerSecurityContext: object.optional(),
    nodeSelector: z.record(z.string(), z.string()).optional(),
    tolerations: z.array(object).optional(),
    affinity: object.optional(),
    priorityClassName: z.string().min(1).optional(),
  })
  .strict();

/** FARM_JOB_POD: JSON of JobPodSettings; an unknown key or bad JSON stops start-up with the reason. */
export const jobPodSetting = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `not JSON: ${(err as Error).message}` });
      return z.NEVER;
    }
  })
  .pipe(jobPodSchema)
  .transform((v) => v as JobPodSettings);

/** The pod spec fields a Job gets from the settings; the farm's defaults where the operator set nothing. */
export function jobPodFields(pod: JobPodSettings | undefined) {
  return {
    securityContext: pod?.securityContext ?? FARM_POD_SECURITY,
    ...(pod?.nodeSelector && Object.keys(pod.nodeSelector).length ? { nodeSelector: pod.nodeSelector } : {}),
    ...(pod?.tolerations?.length ? { tolerations: pod.tolerations } : {}),
    ...(pod?.affinity && Object.keys(pod.affinity).length ? { affinity: pod.affinity } : {}),
    ...(pod?.priorityClassName ? { priorityClassName: pod.priorityClassName } : {}),
  };
}

export const jobContainerSecurity = (pod: JobPodSettings | undefined): V1SecurityContext =>
  pod?.containerSecurityContext ?? FARM_CONTAINER_SECURITY;
