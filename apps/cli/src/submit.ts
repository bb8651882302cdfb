import { randomUUID } from 'node:crypto';
import { farm, FINAL_PHASES } from '@farm/proto';
import { Topics, type EventBus } from '@farm/bus';

export interface SubmitInput {
  /** The request's id; a new one when absent. */
  id?: string;
  repoUrl: string;
  baseRef?: string;
  title: string;
  description?: string;
  checkCommand?: string;
  requestedBy?: string;
  /** A person approves the plan before any task starts. */
  requireApproval?: boolean;
}

/** Publishes a change request and returns its id. */
export async function submitChangeRequest(bus: EventBus, input: SubmitInput): Promise<string> {
  const id = input.id || randomUUID();
  await bus.publish(
    Topics.changeRequests,
    farm.v1.ChangeRequest.create({
      changeRequestId: id,
      repo: { url: input.repoUrl, baseRef: input.baseRef || 'main' },
      title: input.title,
      description: input.description ?? '',
      checkCommand: input.checkCommand ?? '',
      requestedBy: input.requestedBy ?? process.env.USER ?? '',
      createdAtMs: Date.now(),
      requireApproval: !!input.requireApproval,
    }),
  );
  return id;
}

/**
 * Streams a request's phase transitions in sequence order (from its first one, whenever the watch starts)
 * until a final phase, or `until` when given. Resolves with the last transition.
 */
export async function watchChangeRequest(
  bus: EventBus,
  id: string,
  onTransition: (t: farm.v1.PhaseTransition) => void,
  options: { until?: Set<farm.v1.Phase>; timeoutMs?: number } = {},
): Promise<farm.v1.PhaseTransition> {
  const stopAt = options.until ?? FINAL_PHASES;
  const seen = new Set<number>();
  let resolveDone!: (t: farm.v1.PhaseTransition) => void;
  let rejectDone!: (e: Error) => void;
  const done = new Promise<farm.v1.PhaseTransition>((res, rej) => ((resolveDone = res), (rejectDone = rej)));
  const sub = await bus.subscribe(Topics.phaseTransitions, `farm-watch-${randomUUID()}`, async (t) => {
    if (t.changeRequestId !== id || seen.has(Number(t.sequence))) return; // at-least-once: skip repeats
    seen.add(Number(t.sequence));
    onTransition(t);
    if (!t.taskId && stopAt.has(t.toPhase)) resolveDone(t);
  });
  const timer = options.timeoutMs
    ? setTimeout(
        () => rejectDone(new Error(`no final phase for ${id} within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      )
    : undefined;
  try {
    return await done;
  } finally {
    if (timer) clearTimeout(timer);
    await sub.stop();
  }
}

/** Asks the orchestrator to cancel a change request (it answers with a CANCELLED transition). */
export async function cancelChangeRequest(bus: EventBus, id: string, reason = ''): Promise<void> {
  await bus.publish(
    Topics.control,
    farm.v1.ControlCommand.create({
      changeRequestId: id,
      action: farm.v1.ControlAction.CANCEL,
      reason,
      requestedBy: process.env.USER ?? '',
    }),
  );
}
