/**
 * The change request an instance becomes, and whether the farm takes it. An instance's fields are bounded as
 * the farm's API bounds them: the request is checked by the API's own validator (openapi.yaml's
 * ChangeRequestInput) before any set-up, and the commands the evaluation runs itself (`test_cmd`, `setup_cmd`)
 * by the same document's rule for a check command. What it refuses is the instance's error, said of the
 * instance's field, never the whole run's.
 */
import { patchedFiles, type TaskInstance } from './instances';
import type { SubmitInput } from '../submit';

export type InstanceRequest = SubmitInput & { id: string };

/** The request of an instance: the problem statement's first line as the title, the whole as the description. */
export function requestOf(
  instance: TaskInstance,
  o: { id: string; runId: string; repoUrl: string; baseRef: string },
): InstanceRequest {
  return {
    id: o.id,
    repoUrl: o.repoUrl,
    baseRef: o.baseRef,
    title: titleOf(instance.problem_statement),
    description: instance.problem_statement,
    checkCommand: instance.check_cmd,
    requestedBy: `farm-eval:${o.runId}`,
  };
}

/** Which of the instance's fields a field of its request comes from. */
const SOURCE_FIELD: Record<string, string> = {
  title: 'problem_statement',
  description: 'problem_statement',
  checkCommand: 'check_cmd',
  check_command: 'check_cmd',
  'repo.url': 'repo',
  'repo.baseRef': 'instance_id',
};

/**
 * Why the farm would refuse the instance's request or its commands, naming the instance's field and the
 * bound (`problem_statement: ... description is longer than 100000 characters`); undefined when all is taken.
 * `localRepos`: the farm runs on this machine and takes a repository by its path.
 */
export async function requestRefusal(
  instance: TaskInstance,
  request: InstanceRequest,
  localRepos: boolean,
): Promise<string | undefined> {
  const [{ parseChangeRequestInput }, { changeRequestJson }] = await Promise.all([
    import('@farm/orchestrator'),
    import('../repo-arg'),
  ]);
  const refusal = (body: unknown, options: { localRepos: boolean }) => {
    try {
      parseChangeRequestInput(body, { ...options, urlCredentials: true });
      return undefined;
    } catch (err) {
      const { message, field } = err as Error & { field?: string };
      if (typeof (err as { status?: unknown }).status !== 'number') throw err; // not a refusal: a fault
      return { message, field };
    }
  };
  const refused = refusal(changeRequestJson(request), { localRepos });
  if (refused) {
    const field = (refused.field && SOURCE_FIELD[refused.field]) ?? 'the request';
    return `${field}: the farm's API refuses it: ${refused.message}`;
  }
  for (const field of ['test_cmd', 'setup_cmd'] as const) {
    const command = instance[field];
    if (command === undefined) continue;
    // A command the evaluation runs is bounded as the API bounds the command that checks a change.
    const asCheck = refusal({ title: 'bound', repo: { url: '/bound' }, checkCommand: command }, { localRepos: true });
    if (asCheck) return `${field}: bounded as the farm's API bounds a check command: ${asCheck.message}`;
  }
  const unnamed = patchedFiles(instance.test_patch).find((f) => f.includes('\0'));
  if (unnamed !== undefined) return `test_patch: a file name holds a NUL character: ${JSON.stringify(unnamed)}`;
  return undefined;
}

function titleOf(problem: string): string {
  const first =
    problem
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? 'Resolve the issue';
  return first.length > 200 ? `${first.slice(0, 197)}...` : first;
}
