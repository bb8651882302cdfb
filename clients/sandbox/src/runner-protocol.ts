/**
 * The sandbox runner's protocol, over a unix socket: one JSON request per connection, written whole and then
 * the write side closed; one JSON answer, after which the runner closes the connection. A request runs a
 * command (the serializable part of a SandboxRequest) or asks for the runner's confinement status. A caller
 * that closes its connection before the answer cancels its run (the run's whole tree is killed).
 */
import { z } from '@farm/runtime';
import { RISKS, type ConfinementGap } from './confinement';
import type { Isolation } from './isolation';
import type { SandboxResult } from './sandbox-request';

/** A request is small (a command line, an environment): anything larger is refused unread. */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** The most output (characters) a run may return: the result stays far below MAX_RESPONSE_BYTES. */
export const MAX_OUTPUT_CHARS = 1_000_000;
/** An answer larger than this is not from a runner that keeps to the protocol: the caller stops reading. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** How a run's output is cut down (the functions of output.ts, named: functions cannot travel). */
export const EXPLAIN = ['head-and-tail', 'failure'] as const;

const absolute = z.string().startsWith('/', 'must be an absolute path');

const runRequestSchema = z
  .object({
    argv: z.array(z.string()).min(1).optional(),
    command: z.string().min(1).optional(),
    cwd: absolute,
    timeoutMs: z
      .number()
      .int()
      .positive()
      .max(24 * 3600 * 1000),
    limits: z
      .object({
        cpuSeconds: z.number().positive(),
        memoryBytes: z.number().int().positive(),
        maxProcesses: z.number().int().positive(),
        maxFileBytes: z.number().int().positive(),
        maxOutputBytes: z.number().int().positive().max(MAX_OUTPUT_CHARS),
      })
      .partial()
      .strict()
      .optional(),
    env: z.record(z.string()).optional(),
    writableDirs: z.array(absolute).optional(),
    network: z.enum(['none', 'host']).optional(),
    acceptRisks: z.array(z.enum(RISKS)).optional(),
    explain: z.enum(EXPLAIN).optional(),
  })
  .strict()
  .refine((r) => (r.argv === undefined) !== (r.command === undefined), 'needs either argv or command');

export const runnerRequestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('run'), request: runRequestSchema }).strict(),
  z.object({ op: z.literal('status'), network: z.enum(['none', 'host']).optional() }).strict(),
]);

export type RunnerRequest = z.infer<typeof runnerRequestSchema>;
export type WireSandboxRequest = z.infer<typeof runRequestSchema>;

/** What a failed request says: the kind names the error the caller throws again. */
export type RunnerErrorAnswer =
  | { kind: 'denied'; message: string; command: string; rule: string; reason: string }
  | { kind: 'unconfined'; message: string; gaps: ConfinementGap[] }
  | { kind: 'sandbox'; message: string }
  | { kind: 'bad-request'; message: string }
  | { kind: 'internal'; message: string };

export type RunnerAnswer =
  | { ok: true; result: SandboxResult }
  | { ok: true; status: { isolation: Isolation; gaps: ConfinementGap[] } }
  | { ok: false; error: RunnerErrorAnswer };
