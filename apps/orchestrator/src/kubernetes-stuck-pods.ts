import type { V1ContainerStateWaiting, V1Pod } from '@kubernetes/client-node';
import { SANDBOX_CONTAINER } from '@farm/kube';
import { CONTAINER_NAME } from './kubernetes-job-spec';
import { STUCK_WAITING, describeStuck } from './kubernetes-job-diagnosis';
import type { JobOutcome } from './kubernetes-metrics';

/** An agent (or its sandbox sidecar's) container waiting for something that will not come (its image, a missing Secret). */
export interface StuckContainer {
  waiting: V1ContainerStateWaiting;
  image: string;
  /** `agent`, or `sandbox` (the sidecar, which the agent waits for). */
  container: string;
}

/** A Job to fail now: its agent container has been stuck for longer than the grace. */
export interface StuckJob {
  jobName: string;
  outcome: JobOutcome;
  why: string;
}

/** The Jobs among `pods` whose agent container, or the sandbox sidecar it waits for, is stuck, by Job name. */
export function stuckContainers(pods: readonly V1Pod[]): Map<string, StuckContainer> {
  const stuck = new Map<string, StuckContainer>();
  for (const pod of pods) {
    const jobName = pod.metadata?.labels?.['batch.kubernetes.io/job-name'] ?? pod.metadata?.labels?.['job-name'];
    const candidates = [
      pod.status?.containerStatuses?.find((s) => s.name === CONTAINER_NAME),
      pod.status?.initContainerStatuses?.find((s) => s.name === SANDBOX_CONTAINER),
    ];
    for (const c of candidates) {
      const waiting = c?.state?.waiting;
      if (jobName && waiting?.reason && STUCK_WAITING[waiting.reason]) {
        stuck.set(jobName, { waiting, image: c!.image, container: c!.name });
        break;
      }
    }
  }
  return stuck;
}

/**
 * One scan's decision. `stuckSince` holds, for each running Job, when it was first seen stuck; the result is
 * the new `stuckSince` (a Job that is no longer stuck starts over) and the Jobs stuck for longer than `graceMs`.
 */
export function scanStuck(
  running: Iterable<string>,
  stuckSince: ReadonlyMap<string, number>,
  stuck: ReadonlyMap<string, StuckContainer>,
  now: number,
  graceMs: number,
): { stuckSince: Map<string, number>; expired: StuckJob[] } {
  const next = new Map<string, number>();
  const expired: StuckJob[] = [];
  for (const jobName of running) {
    const s = stuck.get(jobName);
    if (!s) continue;
    const since = stuckSince.get(jobName) ?? now;
    if (now - since < graceMs) next.set(jobName, since);
    else {
      const { outcome, why } = describeStuck(s.waiting, s.image, s.container);
      expired.push({ jobName, outcome, why: `Kubernetes Job ${jobName}: ${why}` });
    }
  }
  return { stuckSince: next, expired };
}
