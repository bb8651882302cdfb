// Prints the Job the orchestrator creates for a sample task, with the settings the Helm chart gives it, so that
// scripts/check-deploy.sh validates the launcher's Job spec against batch/v1 like the chart's manifests.
import { farm } from '../../proto/src';
import { buildAgentJob } from '../../apps/orchestrator/src/kubernetes-job-spec';

const task = farm.v1.CodingTask.create({
  id: '7d1c0b2e-4f0a-4b8e-9a55-2d3c1e0f9a11-item-1',
  changeRequestId: '7d1c0b2e-4f0a-4b8e-9a55-2d3c1e0f9a11',
  goal: 'Add retry to the HTTP client',
  repo: { url: 'https://git.example.com/app.git', baseRef: 'main', baseCommit: 'a'.repeat(40) },
  dispatch: 1,
});
const job = buildAgentJob(task, {
  namespace: 'agent-farm',
  image: 'registry.example.com/agent-farm:0.1.0',
  serviceAccountName: 'agent-farm-agent',
  secretName: 'agent-farm-secrets',
  configMapName: 'agent-farm-config',
  instance: 'agent-farm',
});
process.stdout.write(JSON.stringify(job, null, 2) + '\n');
