// Prints the Job the builder creates for a sample build, with the settings the Helm chart gives it, so that
// scripts/check-deploy.sh validates the build Job spec against batch/v1 like the chart's manifests.
import { farm } from '../../proto/src';
import { buildJobFor } from '../../apps/builder/src/build-job-spec';

const request = farm.v1.BuildRequest.create({
  changeRequestId: '7d1c0b2e-4f0a-4b8e-9a55-2d3c1e0f9a11',
  repo: { url: 'https://git.example.com/app.git', baseRef: 'main', baseCommit: 'a'.repeat(40) },
  branches: ['agt/7d1c0b2e-4f0a-4b8e-9a55-2d3c1e0f9a11-item-1'],
});
const job = buildJobFor(request, {
  namespace: 'agent-farm',
  image: 'registry.example.com/agent-farm:0.1.0',
  serviceAccountName: 'agent-farm-agent',
  secretName: 'agent-farm-secrets',
  configMapName: 'agent-farm-config',
  instance: 'agent-farm',
});
process.stdout.write(JSON.stringify(job, null, 2) + '\n');
