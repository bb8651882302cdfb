import { farm, parseTaskState, taskStateName } from '@farm/proto';
import { Topics, toJson } from '@farm/bus';

/**
 * A PhaseTransition as the HTTP API's event stream and `farm ... --json` show it: its proto3 JSON, except
 * taskState, which is the short name ("SUCCESS"; "" when unset) people saw before it became an enum.
 */
export function transitionToJson(t: farm.v1.PhaseTransition): Record<string, unknown> {
  // Overwriting the key keeps its place, so the JSON reads as it always did.
  return { ...toJson(Topics.phaseTransitions, t), taskState: taskStateName(t.taskState) };
}

/** The inverse of transitionToJson: what the client makes of an event's data. */
export function transitionFromJson(json: Record<string, unknown>): farm.v1.PhaseTransition {
  const taskState = parseTaskState(typeof json.taskState === 'string' ? json.taskState : '');
  return farm.v1.PhaseTransition.fromObject({ ...json, taskState });
}
