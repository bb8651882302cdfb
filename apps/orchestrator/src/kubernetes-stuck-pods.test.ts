import type { V1Pod } from '@kubernetes/client-node';
import { scanStuck, stuckContainers } from './kubernetes-stuck-pods';

const pod = (jobName: string, container: string, waiting?: { reason: string; message?: string }): V1Pod => ({
  metadata: { labels: { 'batch.kubernetes.io/job-name': jobName } },
  status: {
    containerStatuses: [
      {
        name: container,
        image: 'registry.example.com/agent-farm:1.2.3',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: waiting ? { waiting } : { running: {} },
      },
    ],
  },
});

describe('the stuck-pod scan', () => {
  const pods = [
    pod('agt-a', 'agent', { reason: 'ImagePullBackOff', message: 'Back-off pulling image' }),
    pod('agt-b', 'agent', { reason: 'CreateContainerConfigError', message: 'secret "s" not found' }),
    pod('agt-c', 'agent', { reason: 'ContainerCreating' }), // clears by itself
    pod('agt-d', 'agent'),
    pod('agt-e', 'sidecar', { reason: 'ErrImagePull' }), // not the agent's container
  ];

  test('finds agent containers waiting for what will not come, by Job', () => {
    expect([...stuckContainers(pods).keys()]).toEqual(['agt-a', 'agt-b']);
  });

  test('a Job stuck for longer than the grace is failed, naming the image or the reason', () => {
    const stuck = stuckContainers(pods);
    const first = scanStuck(['agt-a', 'agt-b', 'agt-d'], new Map(), stuck, 1000, 500);
    expect(first.expired).toEqual([]);
    expect(first.stuckSince).toEqual(
      new Map([
        ['agt-a', 1000],
        ['agt-b', 1000],
      ]),
    );

    const later = scanStuck(['agt-a', 'agt-b', 'agt-d'], first.stuckSince, stuck, 1600, 500);
    expect(later.expired).toEqual([
      {
        jobName: 'agt-a',
        outcome: 'image_pull_failed',
        why: 'Kubernetes Job agt-a: image registry.example.com/agent-farm:1.2.3 could not be pulled (ImagePullBackOff: Back-off pulling image)',
      },
      {
        jobName: 'agt-b',
        outcome: 'cannot_start',
        why: 'Kubernetes Job agt-b: the agent container could not start (CreateContainerConfigError: secret "s" not found)',
      },
    ]);
  });

  test('a Job that stops being stuck starts its grace over; one not running is not failed', () => {
    const stuck = stuckContainers(pods);
    const since = new Map([
      ['agt-a', 0],
      ['agt-d', 0],
    ]);
    const scan = scanStuck(['agt-a', 'agt-d'], since, new Map(), 10_000, 500);
    expect(scan).toEqual({ stuckSince: new Map(), expired: [] });
    expect(scanStuck(['agt-d'], since, stuck, 10_000, 500).expired).toEqual([]);
  });

  test('a sandbox sidecar stuck before the agent started fails the Job, naming the sidecar', () => {
    const waitingSidecar: V1Pod = {
      metadata: { labels: { 'batch.kubernetes.io/job-name': 'agt-f' } },
      status: {
        initContainerStatuses: [
          {
            name: 'sandbox',
            image: 'registry.example.com/agent-farm:1.2.3',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: { waiting: { reason: 'CreateContainerError', message: 'seccomp profile not found' } },
          },
        ],
        containerStatuses: [pod('agt-f', 'agent', { reason: 'PodInitializing' }).status!.containerStatuses![0]],
      },
    };
    const expired = scanStuck(['agt-f'], new Map(), stuckContainers([waitingSidecar]), 5, 0).expired;
    expect(expired).toEqual([
      {
        jobName: 'agt-f',
        outcome: 'cannot_start',
        why: 'Kubernetes Job agt-f: the sandbox container could not start (CreateContainerError: seccomp profile not found)',
      },
    ]);
  });

  test('with no grace a stuck Job fails at the first scan', () => {
    expect(scanStuck(['agt-b'], new Map(), stuckContainers(pods), 5, 0).expired.map((e) => e.outcome)).toEqual([
      'cannot_start',
    ]);
  });
});
