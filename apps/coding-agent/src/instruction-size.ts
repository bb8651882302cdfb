import { TOOL_SYSTEM_PROMPT } from './tool-loop';
import { AGENT_TOOLS } from './tools/tool-registry';

/**
 * About how many tokens every call of the tool loop carries before the task and its context: the instructions
 * and the tools' schemas (~4 characters a token). A server's context must hold this, the task, and an answer.
 */
export function instructionTokens(): number {
  const tools = JSON.stringify(AGENT_TOOLS.map((t) => ({ type: 'function', function: t.spec })));
  return Math.ceil((TOOL_SYSTEM_PROMPT.length + tools.length) / 4);
}
