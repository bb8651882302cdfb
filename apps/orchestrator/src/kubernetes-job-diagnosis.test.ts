// diagnose() on Job and pod states the process node cannot produce (it does not enforce memory limits, and a
// pod stuck pulling is failed by the launcher before any deadline); the lifecycles themselves run on the real
// control plane in kubernetes-launcher.integration.test.ts.
import type { V1Job, V1JobCondition, V1Pod } from '@kubernetes/client-node';
import { farm } from '@farm/proto';
import { buildAgentJob } from './kubernetes-job-spec';
import { diagnose } from './kubernetes-job-diagnosis';

const job: V1Job = buildAgentJob(
  farm.v1.CodingTask.create({ id: 'cr-1-item-1', changeRequestId: 'cr-1', dispatch: 1 }),
  { namespace: 'farm', image: 'registry.example.com/agent-farm:1.2.3' },
);
const failed = (reason: string): V1JobCondition => ({ type: 'Failed', status: 'True', reason });
const podWith = (state: NonNullable<V1Pod['status']>['containerStatuses']): V1Pod => ({
  status: { containerStatuses: state },
});

test('a pod OOMKilled at its limit is diagnosed as out of memory, naming the limit', () => {
  const d = diagnose(job, failed('BackoffLimitExceeded'), [
    podWith([
      {
        name: 'agent',
        image: 'i',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
      },
    ]),
  ]);
  expect(d).toEqual({
    outcome: 'oom_killed',
    reported: false,
    why: 'out of memory: the agent was OOMKilled at its 2Gi limit',
  });
});

test('a Job whose deadline passed while its pod still waited for the image is an image pull failure', () => {
  const d = diagnose(job, failed('DeadlineExceeded'), [
    podWith([
      {
        name: 'agent',
        image: 'registry.example.com/agent-farm:1.2.3',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: {
          waiting: {
            reason: 'ImagePullBackOff',
            message: 'Back-off pulling image "registry.example.com/agent-farm:1.2.3"',
          },
        },
      },
    ]),
  ]);
  expect(d.outcome).toBe('image_pull_failed');
  expect(d.why).toMatch(/image registry.example.com\/agent-farm:1.2.3 could not be pulled \(ImagePullBackOff/);
});

test('an exit code the agent uses after reporting means it reported, whatever else the pod shows', () => {
  const d = diagnose(job, failed('PodFailurePolicy'), [
    podWith([
      {
        name: 'agent',
        image: 'i',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { terminated: { reason: 'Error', exitCode: 2 } },
      },
    ]),
  ]);
  expect(d).toMatchObject({ outcome: 'agent_failed', reported: true });
});
