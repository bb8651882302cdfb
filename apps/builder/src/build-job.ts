// Job-style entry point of the build phase: one BuildRequest in ($FARM_BUILD_REQUEST, base64 protobuf), its
// BuildResult out. Exit 0 once the result is published (passed, failed or conflicting alike), 64 on bad input
// or configuration (nothing published; the launcher reports the build failed).
import { decodeBuildRequestBase64, farm } from '@farm/proto';
import { SpoolDirBus, Topics, busConfigSchema, connectKafka, type EventBus } from '@farm/bus';
import { configureGitCredentials, gitCredentialsConfigSchema } from '@farm/git';
import { ConfigError, createLogger, errorMessage, loadConfig } from '@farm/runtime';
import { BUILD_BAD_INPUT_EXIT_CODE, BUILD_REPORTED_EXIT_CODE } from './build-launcher';
import { buildJobConfigSchema } from './build-job-config';
import { checkCeilingsFromConfig, reportConfinement, sandboxRunnerFromEnv } from '@farm/sandbox';
import { runBuild } from './run-build';

async function main(): Promise<number> {
  const log = createLogger('build');
  let request: farm.v1.BuildRequest;
  let bus: EventBus;
  let config;
  try {
    request = readBuildRequest(process.env.FARM_BUILD_REQUEST);
    config = loadConfig(buildJobConfigSchema.merge(busConfigSchema));
    configureGitCredentials(loadConfig(gitCredentialsConfigSchema));
    if (config.FARM_BUILD_SPOOL_DIR) bus = new SpoolDirBus(config.FARM_BUILD_SPOOL_DIR, log);
    else bus = await connectKafka(config, `build-${request.changeRequestId}`, log);
  } catch (err) {
    if (err instanceof ConfigError) {
      log.error('cannot start build', { err: errorMessage(err) });
      return BUILD_BAD_INPUT_EXIT_CODE;
    }
    throw err;
  }
  log.info('build started', { changeRequestId: request.changeRequestId, branches: request.branches.length });
  // The pod's sandbox runner, said once at start; a gap refuses the checks with the reason.
  if (sandboxRunnerFromEnv())
    await reportConfinement(log).catch((err: unknown) =>
      log.error('the sandbox runner does not answer: the checks will fail', { err: errorMessage(err) }),
    );
  const result = await runBuild(request, {
    log,
    workRoot: config.FARM_CHECKOUT_DIR ?? config.FARM_WORK_DIR,
    checkTimeoutMs: config.FARM_BUILD_CHECK_TIMEOUT_S * 1000,
    checkCeilings: checkCeilingsFromConfig(config),
    checkWritableDirs: config.FARM_CHECK_WRITABLE_DIRS,
  });
  await bus.publish(Topics.buildResults, farm.v1.BuildResult.fromObject(result));
  await bus.close();
  log.info('build reported', {
    changeRequestId: request.changeRequestId,
    status: farm.v1.BuildStatus[result.status ?? 0],
  });
  return BUILD_REPORTED_EXIT_CODE;
}

/** The request from its base64 protobuf; a missing or undecodable one is a configuration error. */
function readBuildRequest(b64: string | undefined): farm.v1.BuildRequest {
  if (!b64) throw new ConfigError('FARM_BUILD_REQUEST must hold the BuildRequest (base64 protobuf)');
  let request: farm.v1.BuildRequest;
  try {
    request = decodeBuildRequestBase64(b64);
  } catch (err) {
    throw new ConfigError(`FARM_BUILD_REQUEST is not a BuildRequest: ${errorMessage(err)}`);
  }
  if (!request.changeRequestId || !request.repo?.url)
    throw new ConfigError('FARM_BUILD_REQUEST lacks changeRequestId or repo.url');
  return request;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`build crashed: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
