/**
 * Whose failure a run's is: the agent's (its change, its budget, its reviewer), or the farm's and its
 * environment's (a model server that cannot be reached, a sandbox that is not ready, a clone, a push, an agent
 * process that died, a set-up that failed). The second kind is no verdict on the agent: `infra_error`, kept out
 * of the resolved rate and run again by the next run of the same id.
 */
import type { FarmRequestState, TaskReport } from './eval-farm';

/**
 * The steps (as the farm names them: `FailedStep` without `STEP_`, lower case) at which a task fails for its
 * environment, not its agent: cloning the repository, the sandbox refusing or not answering (its probe timed
 * out), the task's branch, claiming its leases, pushing, an error inside the agent, its process dying, its
 * launch, a budget spent while the environment failed the checks. `llm` counts only when the model could not
 * be reached (`model unavailable: ...`); a model that answered unusably or overflowed is the agent's.
 */
const ENVIRONMENT_STEPS: ReadonlySet<string> = new Set([
  'clone',
  'check',
  'branch',
  'claim',
  'push',
  'agent',
  'agent-died',
  'launch',
  'budget-environment',
]);

/** How each task of a request ended, as far as the farm reported it. */
export interface TaskEnd {
  taskId: string;
  status: string;
  notes: string;
  /** Its dispatches' reports, in order (the orchestrator's own decisions, a failed launch, have none). */
  reports: Pick<TaskReport, 'status' | 'failedStep' | 'notes'>[];
}

/**
 * Why a request the farm did not deliver failed for the farm or its environment, or undefined when it is the
 * agent's failure (or the request was delivered).
 */
export function farmInfraFailure(request: FarmRequestState['request'], tasks: TaskEnd[]): string | undefined {
  if (request.phase === 'DONE') return undefined;
  // A message the request waited for was dead-lettered: the farm gave up on it, no agent did.
  if (/^(?:planning|build) failed: .* gave up on /.test(request.reason)) return `the farm failed: ${request.reason}`;
  for (const task of tasks) {
    if (/SUCCESS/.test(task.status)) continue;
    const last = task.reports.at(-1);
    const step = last?.failedStep ?? '';
    const note = firstLine(last?.notes.join('\n') || task.notes);
    if (ENVIRONMENT_STEPS.has(step) || (step === 'llm' && /^model unavailable\b/.test(note))) {
      return `task ${task.taskId} failed at ${step} (${infraKind(step, note)}): ${note}`;
    }
    if (!last && /^launcher failed\b/.test(note)) return `task ${task.taskId} was never started: ${note}`;
  }
  return undefined;
}

/** The kind of environment failure, in words a reader of the report recognises. */
function infraKind(step: string, note: string): string {
  if (step === 'llm') return 'the model server could not be reached';
  if (step === 'check') {
    return /probe .*(?:timed out|in time)/i.test(note) ? 'the sandbox probe timed out' : 'the sandbox is not ready';
  }
  if (step === 'agent-died' || step === 'agent' || step === 'launch') return "the agent's process failed";
  if (step === 'budget-environment') return 'the environment failed the checks until the budget ran out';
  return "the farm's git or leases";
}

/** What a git command or the network says when a host cannot be reached, as opposed to a wrong address. */
const NETWORK_TROUBLE =
  /Could not resolve host|Temporary failure in name resolution|Connection (?:timed out|refused|reset)|Failed to connect|Network is unreachable|early EOF|The requested URL returned error: 5\d\d|RPC failed|Operation timed out|SSL_ERROR_SYSCALL|gnutls_handshake/i;

/** Whether a failure's message is the network's (a retry may go through), not the instance's. */
export function isNetworkTrouble(message: string): boolean {
  return NETWORK_TROUBLE.test(message);
}

const firstLine = (text: string) => text.split('\n').find((l) => l.trim()) ?? '';
