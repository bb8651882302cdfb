import { kubernetesAuthConfigSchema } from '@farm/access';
import { busConfigSchema } from '@farm/bus';
import { buildJobConfigSchema, buildJobsConfigSchema, builderConfigSchema } from '@farm/builder';
import { gitCredentialsConfigSchema } from '@farm/git';
import { agentConfigSchema, agentWorkerConfigSchema } from '@farm/coding-agent';
import { sandboxRunnerConfigSchema } from '@farm/sandbox';
import { codePlannerConfigSchema } from '@farm/code-planner';
import {
  forgeSetupConfigSchema,
  jobsLauncherConfigSchema,
  orchestratorConfigSchema,
  sandboxPodConfigSchema,
} from '@farm/orchestrator';
import { ragConfigFields } from '@farm/rag-service';
import { requestPlannerConfigSchema } from '@farm/request-planner';
import { runtimeConfigSchema, type z } from '@farm/runtime';
import { srmConfigSchema } from '@farm/srm';
import { cliConfigSchema } from './config';
import { farmUpConfigSchema } from './farm-up';

/** Every configuration schema of the farm, by the component that reads it (docs/configuration.md documents them all). */
export const CONFIG_SCHEMAS: Record<string, z.AnyZodObject> = {
  runtime: runtimeConfigSchema,
  bus: busConfigSchema,
  'git credentials': gitCredentialsConfigSchema,
  orchestrator: orchestratorConfigSchema,
  'orchestrator (jobs launcher)': jobsLauncherConfigSchema,
  'orchestrator (Kubernetes identities)': kubernetesAuthConfigSchema,
  'orchestrator (forge)': forgeSetupConfigSchema,
  builder: builderConfigSchema,
  'builder (jobs launcher)': buildJobsConfigSchema,
  'orchestrator and builder (jobs: the sandbox sidecar)': sandboxPodConfigSchema,
  'sandbox runner': sandboxRunnerConfigSchema,
  'build process': buildJobConfigSchema,
  'request-planner': requestPlannerConfigSchema,
  'code-planner': codePlannerConfigSchema,
  'coding-agent': agentConfigSchema,
  'coding-agent worker': agentWorkerConfigSchema,
  srm: srmConfigSchema,
  'rag-service': ragConfigFields,
  cli: cliConfigSchema,
  'farm up': farmUpConfigSchema,
};

export function configVariables(): Set<string> {
  return new Set(Object.values(CONFIG_SCHEMAS).flatMap((s) => Object.keys(s.shape)));
}
