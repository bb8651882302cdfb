import { farm } from '@farm/proto';
import { Topics, type EventBus } from '@farm/bus';

/**
 * How the builder starts a build: a child process on one machine, a Kubernetes Job in a cluster. `launch`
 * returns once the build is durably started (a second launch of the same request is a no-op); the build
 * publishes its own BuildResult, or the launcher publishes BUILD_FAILED on its behalf when it ended without one.
 */
export interface BuildLauncher {
  launch(request: farm.v1.IBuildRequest): Promise<void>;
  /** Stops the build of a cancelled change request; nothing is reported for it. */
  cancel(changeRequestId: string): Promise<void>;
  /** After a restart: follows the builds a previous builder started, publishes those that ended meanwhile. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Exit code of the build entry after it published its result (passed, failed or conflicting alike). */
export const BUILD_REPORTED_EXIT_CODE = 0;
/** The build entry rejected its request or configuration; nothing was published. */
export const BUILD_BAD_INPUT_EXIT_CODE = 64;

/** BUILD_FAILED for a build that ended without reporting (crashed, killed, deadline, image missing). */
export function reportForBuild(bus: EventBus, changeRequestId: string, how: string): Promise<void> {
  return bus.publish(
    Topics.buildResults,
    farm.v1.BuildResult.create({
      changeRequestId,
      status: farm.v1.BuildStatus.BUILD_FAILED,
      notes: [`build ${how} before reporting a result`],
    }),
  );
}
