export { runBuild, integrationBranchFor, type BuildDeps } from './run-build';
export { startBuilder, type BuilderDeps } from './builder';
export { reportForBuild, type BuildLauncher } from './build-launcher';
export { ProcessBuildLauncher, type ProcessBuildLauncherConfig } from './process-build-launcher';
export { KubernetesBuildLauncher, type KubernetesBuildLauncherConfig } from './kubernetes-build-launcher';
export { buildJobFor, buildJobNameFor, type BuildJobSettings } from './build-job-spec';
export { buildJobConfigSchema } from './build-job-config';
export { builderConfigSchema, buildJobsConfigSchema, createBuildLauncher, type BuilderConfig } from './config';
export { builderMetrics } from './metrics';
