import { FarmError } from '@farm/runtime';

/**
 * A tool call the agent refuses or cannot carry out (unsafe path, no match for an edit, bad arguments).
 * It goes back to the model as the tool's result, so it never ends the task; retrying the same call fails
 * the same way, the call must change.
 */
export class ToolFailed extends FarmError {
  constructor(
    readonly tool: string,
    message: string,
  ) {
    super(message, { retryable: false, details: { tool } });
  }
}
