import { type farm, taskStateName } from '@farm/proto';
import { Topics, toJson } from '@farm/bus';

/**
 * A PhaseTransition as the HTTP API's event stream and `farm ... --json` show it: its proto3 JSON, except
 * taskState, which is the short name ("SUCCESS"; "" when unset) people saw before it became an enum.
 */
export function transitionToJson(t: farm.v1.PhaseTransition): Record<string, unknown> {
  // Overwriting the key keeps its place, so the JSON reads as it always did.
  return { ...toJson(Topics.phaseTransitions, t), taskState: taskStateName(t.taskState) };
}
