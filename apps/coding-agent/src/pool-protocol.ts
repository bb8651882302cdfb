import { z } from '@farm/runtime';

/**
 * What `farm up` and a worker of its local agent pool say over the worker's IPC channel. The farm sends one task
 * at a time (the CodingTask as base64 protobuf, and the file its log goes to); the worker says when it is ready
 * and answers each task with its CommitResult (base64 protobuf), and each step of it as it happens with a TaskStep
 * (base64 protobuf), which the farm publishes.
 */
export const poolMessageSchema = z.object({
  kind: z.literal('task'),
  task: z.string().min(1),
  logFile: z.string().min(1),
});
export type PoolMessage = z.infer<typeof poolMessageSchema>;

export const poolReplySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready'), pid: z.number().int() }),
  z.object({ kind: z.literal('result'), taskId: z.string(), result: z.string().min(1) }),
  z.object({ kind: z.literal('step'), taskId: z.string(), step: z.string().min(1) }),
]);
export type PoolReply = z.infer<typeof poolReplySchema>;
