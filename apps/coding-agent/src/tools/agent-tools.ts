import type { farm } from '@farm/proto';
import { describeIssues, type ToolSpec } from '@farm/llm';
import { errorMessage, silentLogger, type Logger, type Redactor } from '@farm/runtime';
import { CommandDenied, ConfinementUnavailable, headAndTail } from '@farm/sandbox';
import { DEFAULT_TOOL_LIMITS, type AgentTool, type ToolContext, type ToolLimits, type ToolOutcome } from './agent-tool';
import { ToolFailed } from './tool-errors';
import { AGENT_TOOLS } from './tool-registry';
import type { TreeChange } from './tree-diff';
import { Workspace, type WorkspaceChecks, type WorkspaceOptions } from './workspace';

export { DEFAULT_TOOL_LIMITS, type ToolLimits, type ToolOutcome } from './agent-tool';

/** The workspace's options (checkout, checks and their limits, which run_command shares) and the tools' own. */
export interface ToolBoxOptions extends WorkspaceOptions {
  redact: Redactor;
  limits?: Partial<ToolLimits>;
}

/**
 * The coding agent's tools over one checkout (each tool in its own module, listed in the registry). Every
 * path goes through the tree's safety rules (inside the work tree, not in .git/, no writes through symlinks),
 * every result is bounded and has secrets redacted, and a tool that cannot do what was asked says why instead
 * of throwing, so the model can correct itself.
 */
export class AgentToolBox {
  readonly limits: ToolLimits;
  private readonly log: Logger;
  private readonly tools: Map<string, AgentTool>;
  private readonly context: ToolContext;
  private readonly workspace: Workspace;

  constructor(private readonly opts: ToolBoxOptions) {
    this.limits = { ...DEFAULT_TOOL_LIMITS, ...opts.limits };
    this.log = opts.log ?? silentLogger;
    this.tools = new Map(AGENT_TOOLS.map((t) => [t.spec.name, t]));
    this.workspace = new Workspace({ ...opts, log: this.log });
    this.context = {
      root: opts.root,
      limits: this.limits,
      checks: this.workspace,
      env: opts.env,
      writableDirs: opts.writableDirs,
      checkCeilings: opts.checkCeilings,
      log: this.log,
    };
  }

  get specs(): ToolSpec[] {
    return [...this.tools.values()].map((t) => t.spec);
  }

  /** Runs one tool call from the model; never throws for the model's mistakes. */
  async call(name: string, rawArguments: string): Promise<ToolOutcome> {
    const tool = this.tools.get(name);
    if (!tool) return this.failure(`unknown tool ${name}; the tools are ${[...this.tools.keys()].join(', ')}`);
    let parsed: unknown;
    try {
      parsed = rawArguments.trim() ? JSON.parse(rawArguments) : {};
    } catch (err) {
      return this.failure(`${name}: arguments are not valid JSON (${errorMessage(err)})`);
    }
    const args = tool.args.safeParse(parsed);
    if (!args.success) return this.failure(`${name}: invalid arguments: ${describeIssues(args.error, 'arguments')}`);
    try {
      const outcome = await tool.run(args.data, this.context);
      this.workspace.changedByAgent(outcome.changed ?? []);
      return { ...outcome, ok: outcome.ok ?? true, output: this.bound(outcome.output) };
    } catch (err) {
      if (err instanceof ToolFailed) return this.failure(`${name}: ${err.message}`);
      if (err instanceof CommandDenied || err instanceof ConfinementUnavailable)
        return this.failure(`${name}: ${err.message}`);
      this.log.warn('tool crashed', { tool: name, err });
      return this.failure(`${name} failed: ${errorMessage(err)}`);
    }
  }

  private failure(message: string): ToolOutcome {
    return { ok: false, output: this.bound(`ERROR: ${message}`) };
  }

  /** Redacted, then cut to the output limit (start and end kept: the end usually explains a failure). */
  private bound(text: string): string {
    return headAndTail(this.opts.redact(text), this.limits.maxOutputChars);
  }

  /** Runs the repository's checks in the sandbox; used by run_checks and by the finish gate. */
  runRepositoryChecks(): Promise<WorkspaceChecks> {
    return this.workspace.runRepositoryChecks();
  }

  /** The agent's net change against the base commit, without what the checks left behind (see Workspace). */
  agentChanges(): Promise<TreeChange[]> {
    return this.workspace.agentChanges();
  }

  /** The unified diff of `changes` against the base commit (what the reviewer reads). */
  unifiedDiff(changes: TreeChange[]): Promise<string> {
    return this.workspace.unifiedDiff(changes);
  }

  /** What verifies the agent's change once the checks passed on it: the checks and the differential of its tests. */
  verifyChange(kind: farm.v1.TaskKind | null | undefined, checks: WorkspaceChecks): Promise<farm.v1.IVerification> {
    return this.workspace.verify(kind, checks);
  }

  /** The check result as the model reads it. */
  describeChecks(result: WorkspaceChecks): string {
    return this.workspace.describeChecks(result);
  }
}
