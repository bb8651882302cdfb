import type { V1ContainerStateWaiting, V1Job, V1JobCondition, V1Pod } from '@kubernetes/client-node';
import { SANDBOX_CONTAINER } from '@farm/kube';
import { BAD_INPUT_EXIT_CODE, CONTAINER_NAME, REPORTED_EXIT_CODES } from './kubernetes-job-spec';
import type { JobOutcome } from './kubernetes-metrics';

/** Container waiting reasons that will not clear by themselves: the task fails instead of waiting for the deadline. */
export const STUCK_WAITING: Record<string, JobOutcome> = {
  ImagePullBackOff: 'image_pull_failed',
  ErrImagePull: 'image_pull_failed',
  InvalidImageName: 'image_pull_failed',
  ErrImageNeverPull: 'image_pull_failed',
  CreateContainerConfigError: 'cannot_start',
  CreateContainerError: 'cannot_start',
};

export interface Diagnosis {
  outcome: JobOutcome;
  /** The agent published its own result (it exited with one of REPORTED_EXIT_CODES). */
  reported: boolean;
  why: string;
}

/** The outcome and the words for a container (the agent's, or its sandbox sidecar's) stuck for a reason in STUCK_WAITING. */
export function describeStuck(
  waiting: V1ContainerStateWaiting,
  image: string,
  container = CONTAINER_NAME,
): { outcome: JobOutcome; why: string } {
  const outcome = STUCK_WAITING[waiting.reason!];
  const what =
    outcome === 'image_pull_failed'
      ? `image ${image} could not be pulled`
      : `the ${container} container could not start`;
  return { outcome, why: `${what} (${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''})` };
}

/** Why a Job failed and whether its agent got to publish a result, from the Job's condition and its pods. */
export function diagnose(job: V1Job, failed: V1JobCondition, pods: V1Pod[]): Diagnosis {
  const statuses = pods.flatMap((p) => p.status?.containerStatuses ?? []).filter((c) => c.name === CONTAINER_NAME);
  const ended = statuses.flatMap((c) => [c.state?.terminated, c.lastState?.terminated]).filter((t) => !!t);
  const exit = ended.find((t) => REPORTED_EXIT_CODES.includes(t.exitCode));
  if (exit)
    return { outcome: 'agent_failed', reported: true, why: `the agent exited ${exit.exitCode} after reporting` };
  const sidecars = pods
    .flatMap((p) => p.status?.initContainerStatuses ?? [])
    .filter((c) => c.name === SANDBOX_CONTAINER);
  const stuck = [...statuses, ...sidecars].find(
    (c) => c.state?.waiting?.reason && STUCK_WAITING[c.state.waiting.reason],
  );
  if (stuck) return { ...describeStuck(stuck.state!.waiting!, stuck.image, stuck.name), reported: false };
  const limit = job.spec?.template.spec?.containers.find((c) => c.name === CONTAINER_NAME)?.resources?.limits?.memory;
  if (ended.some((t) => t.reason === 'OOMKilled'))
    return {
      outcome: 'oom_killed',
      reported: false,
      why: `out of memory: the agent was OOMKilled${limit ? ` at its ${limit} limit` : ''}`,
    };
  if (ended.some((t) => t.exitCode === BAD_INPUT_EXIT_CODE))
    return {
      outcome: 'bad_input',
      reported: false,
      why: 'the agent rejected its task or configuration (exit 64; its log names the setting)',
    };
  if (failed.reason === 'DeadlineExceeded')
    return {
      outcome: 'deadline_exceeded',
      reported: false,
      why: `ran longer than its deadline (activeDeadlineSeconds ${job.spec?.activeDeadlineSeconds})`,
    };
  const last = ended.at(-1);
  const how = last
    ? `the agent exited ${last.exitCode}${last.reason ? ` (${last.reason})` : ''}`
    : (failed.message ?? 'no pod status');
  return {
    outcome: 'crashed',
    reported: false,
    why: `${how}; retries exhausted (backoffLimit ${job.spec?.backoffLimit})`,
  };
}
