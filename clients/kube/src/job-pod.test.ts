import { FARM_CONTAINER_SECURITY, FARM_POD_SECURITY } from './jobs';
import { jobContainerSecurity, jobPodFields, jobPodSetting } from './job-pod';

test('the chart’s settings replace the farm’s defaults; empty ones leave the pod spec without the field', () => {
  const pod = jobPodSetting.parse(
    JSON.stringify({
      securityContext: { runAsUser: 1000, seccompProfile: { type: 'Localhost', localhostProfile: 'farm.json' } },
      containerSecurityContext: { readOnlyRootFilesystem: true },
      nodeSelector: { pool: 'repo-code' },
      tolerations: [{ key: 'repo-code', operator: 'Exists', effect: 'NoSchedule' }],
      affinity: {},
    }),
  );
  expect(jobPodFields(pod)).toEqual({
    securityContext: { runAsUser: 1000, seccompProfile: { type: 'Localhost', localhostProfile: 'farm.json' } },
    nodeSelector: { pool: 'repo-code' },
    tolerations: [{ key: 'repo-code', operator: 'Exists', effect: 'NoSchedule' }],
  });
  expect(jobContainerSecurity(pod)).toEqual({ readOnlyRootFilesystem: true });
  expect(jobPodFields(undefined)).toEqual({ securityContext: FARM_POD_SECURITY });
  expect(jobContainerSecurity(undefined)).toEqual(FARM_CONTAINER_SECURITY);
});
