// A stand-in for the agent pool worker (apps/coding-agent/src/pool-worker.ts) in the pool's tests: it speaks the
// same IPC protocol and does what the task's goal says: `answer` (SUCCESS, its pid in the notes), `crash`
// (exits with code 3 mid-task) or `hang` (never answers, until stopped).
import { appendFileSync } from 'node:fs';
import { decodeTaskBase64, farm } from '@farm/proto';
import { poolMessageSchema } from '@farm/coding-agent';

const send = (m: unknown) => process.send!(m);
process.on('message', (raw: unknown) => {
  const { task: b64, logFile } = poolMessageSchema.parse(raw);
  const task = decodeTaskBase64(b64);
  appendFileSync(logFile, `task ${task.id} in worker ${process.pid}\n`);
  if (task.goal === 'crash') process.exit(3);
  if (task.goal === 'hang') return;
  const result = farm.v1.CommitResult.create({
    taskId: task.id,
    changeRequestId: task.changeRequestId,
    dispatch: task.dispatch,
    status: farm.v1.CommitStatus.SUCCESS,
    notes: [`pid ${process.pid}`],
  });
  send({
    kind: 'result',
    taskId: task.id,
    result: Buffer.from(farm.v1.CommitResult.encode(result).finish()).toString('base64'),
  });
});
process.on('disconnect', () => process.exit(0));
send({ kind: 'ready', pid: process.pid });
