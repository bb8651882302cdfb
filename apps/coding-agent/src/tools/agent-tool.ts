import { toolSpec, type ToolSpec } from '@farm/llm';
import type { Logger, z } from '@farm/runtime';
import type { CheckCeilings, ChecksResult } from '@farm/sandbox';

export interface ToolLimits {
  /** Characters of one tool result the model sees (the rest is cut, saying how to get it). */
  maxOutputChars: number;
  /** Files larger than this are not read or searched. */
  maxReadBytes: number;
  /** Largest file an edit or create may leave. */
  maxWriteBytes: number;
  maxListEntries: number;
  maxSearchResults: number;
  /** Default and upper bound of run_command's timeout. */
  commandTimeoutSeconds: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  maxOutputChars: 8_000,
  maxReadBytes: 1024 * 1024,
  maxWriteBytes: 256 * 1024,
  maxListEntries: 400,
  maxSearchResults: 60,
  commandTimeoutSeconds: 120,
};

/** What one tool call gave: the text for the model, and what the loop needs to know about it. */
export interface ToolOutcome {
  output: string;
  ok: boolean;
  /** Set by the finish tool: the loop verifies and reviews before accepting. */
  finish?: { summary: string };
  /** Set by run_checks. */
  checks?: ChecksResult;
  /** Paths the call changed (edit, create, delete). */
  changed?: string[];
  /** Set by edit_file: how old_text was found (exact, or which lenient tier), for the trajectory. */
  match?: string;
}

/** What a tool returns; `ok` defaults to true (a refusal is thrown as ToolFailed instead). */
export type ToolResult = Omit<ToolOutcome, 'ok'> & { ok?: boolean };

/** The repository's checks as the run_checks tool and the finish gate run and describe them. */
export interface RepositoryChecks {
  /** `reused`: the checks already passed on this tree and were not run again. */
  runRepositoryChecks(): Promise<ChecksResult & { reused?: true }>;
  describeChecks(result: ChecksResult & { reused?: true }): string;
}

/** What a tool works on: the checkout, the operator's limits, and the sandbox settings for commands. */
export interface ToolContext {
  root: string;
  limits: ToolLimits;
  checks: RepositoryChecks;
  /** Extra environment for commands; the sandbox still drops secrets. */
  env?: Record<string, string>;
  /** Directories besides the checkout that commands may write. */
  writableDirs?: string[];
  checkCeilings?: Partial<Omit<CheckCeilings, 'timeoutSeconds'>>;
  log: Logger;
}

/** One tool: its arguments declared once (they validate the call and give the model its JSON schema). */
export interface AgentTool<S extends z.ZodTypeAny = z.ZodTypeAny> {
  spec: ToolSpec;
  args: S;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodTypeAny>(
  name: string,
  description: string,
  args: S,
  run: (args: z.infer<S>, ctx: ToolContext) => Promise<ToolResult>,
): AgentTool<S> {
  return { spec: toolSpec(name, description, args), args, run };
}
