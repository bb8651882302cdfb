// Test agent for the process launcher's own tests: follows the agent's process contract (FARM_TASK in,
// results spooled to FARM_AGENT_SPOOL_DIR, exit code) and does what FARM_TEST_AGENT says instead of coding.
import { decodeTaskBase64, farm } from '@farm/proto';
import { SpoolDirBus, Topics } from '@farm/bus';
import { silentLogger } from '@farm/runtime';

async function main(): Promise<void> {
  const task = decodeTaskBase64(process.env.FARM_TASK!);
  const [behaviour, arg] = (process.env.FARM_TEST_AGENT ?? 'succeed').split(':');
  if (behaviour === 'wait-for-file') {
    const { existsSync } = await import('node:fs');
    while (!existsSync(arg)) await new Promise((r) => setTimeout(r, 50));
  }
  if (behaviour === 'crash') process.exit(7);
  const bus = new SpoolDirBus(process.env.FARM_AGENT_SPOOL_DIR!, silentLogger);
  await bus.publish(
    Topics.commitResults,
    farm.v1.CommitResult.create({
      taskId: task.id,
      changeRequestId: task.changeRequestId,
      dispatch: task.dispatch,
      status: farm.v1.CommitStatus.SUCCESS,
      branchName: `agt/${task.id}`,
      notes: [`pid ${process.pid}`],
    }),
  );
}

void main();
