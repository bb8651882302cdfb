import { randomUUID } from 'node:crypto';
import { Topics } from '@farm/bus';
import { recordAudit } from '@farm/access';
import { HttpError } from '@farm/http-edge';
import { defaultBranchOf, redactUrl } from '@farm/git';
import { FarmError, errorMessage, type Logger } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';
import { ApiError, badRequest } from './api-error';
import {
  DEFAULT_BASE_REF,
  parseChangeRequestInput,
  submissionDigest,
  type ChangeRequestInput,
} from './change-request-input';
import type { Orchestrator } from './orchestrator';
import { recordApiSubmission } from './request-store';

export interface SubmitterDeps {
  /** Its outbox carries the submission to the bus, after the transaction that recorded it. */
  orchestrator: Pick<Orchestrator, 'writeThroughOutbox'>;
  /** `farm up`: the URL the agents use for a repository of the farm's machine (see ChangeRequestApiDeps). */
  resolveLocalRepo?: (changeRequestId: string, path: string) => Promise<string>;
}

/**
 * How a validated change request enters the farm, whoever submits it (the HTTP API, the forge bridge): the
 * submission, its audit entry and its ChangeRequest event in one transaction, idempotent by id. `alsoInTx`
 * records what belongs with it (the forge link) in the same transaction.
 */
export function changeRequestSubmitter(deps: SubmitterDeps) {
  /** A validated submission (credentials already taken off the URL) resolved and recorded. */
  async function accept(
    input: ChangeRequestInput & { changeRequestId: string },
    alsoInTx?: (tx: SqlExecutor) => Promise<void>,
  ): Promise<{ created: boolean }> {
    const id = input.changeRequestId;
    let url = input.repo.url;
    if (deps.resolveLocalRepo && !/^https?:/.test(url)) {
      try {
        url = await deps.resolveLocalRepo(id, url);
      } catch (err) {
        if (err instanceof FarmError && !err.retryable) throw badRequest(err.message, 'repo.url');
        throw err;
      }
    }
    return { created: await recordSubmission(input, url, alsoInTx) };
  }

  /** Records the submission and its ChangeRequest event in one transaction; false when it was already there. */
  async function recordSubmission(
    input: ChangeRequestInput & { changeRequestId: string },
    agentUrl = input.repo.url,
    alsoInTx?: (tx: SqlExecutor) => Promise<void>,
  ): Promise<boolean> {
    const id = input.changeRequestId;
    const digest = submissionDigest(input);
    return deps.orchestrator.writeThroughOutbox(async (tx, outbox) => {
      const recorded = await recordApiSubmission(tx, {
        id,
        digest,
        title: input.title,
        repoUrl: input.repo.url,
        baseRef: input.repo.baseRef,
      });
      if (recorded === 'same') return false;
      if (recorded === 'different') {
        throw new ApiError(409, `change request ${id} was already submitted with different content`, 'changeRequestId');
      }
      // Submitted straight to the bus before: the API cannot tell whether it is the same request.
      if (recorded === 'on-bus') {
        throw new ApiError(409, `change request ${id} already exists (submitted through the bus)`, 'changeRequestId');
      }
      await recordAudit(tx, { subject: input.requestedBy, action: 'submit', changeRequestId: id });
      await outbox(Topics.changeRequests, id, {
        changeRequestId: id,
        title: input.title,
        description: input.description,
        requestedBy: input.requestedBy,
        checkCommand: input.checkCommand,
        repo: { ...input.repo, url: agentUrl },
        createdAtMs: input.createdAtMs ?? Date.now(),
        integrationBranch: input.integrationBranch ?? '',
        requireApproval: !!input.requireApproval,
      });
      await alsoInTx?.(tx);
      return true;
    });
  }

  return { accept };
}

export interface ApiSubmitterDeps extends SubmitterDeps {
  /** Its intake splits credentials off repository URLs (or refuses them) before anything is recorded. */
  orchestrator: Pick<Orchestrator, 'writeThroughOutbox' | 'intakeUrl'>;
  /** Why the farm cannot take new work now (a full disk): the submission is then a 503 with Retry-After. */
  refuseNewWork?: () => string | undefined;
  /** A repository's default branch, for a submission that names no base (default: asked of the repository). */
  defaultBranch?: (repo: string) => Promise<string | undefined>;
  log: Logger;
}

/**
 * A submission as the HTTP API takes it (the proto3 JSON of a ChangeRequest), whoever makes it: validated
 * against openapi.yaml (a refusal is a 400 ApiError naming the field and the bound, and nothing is recorded or
 * published), its URL's credentials split off, its local repository resolved, then recorded with its event.
 * POST /v1/change-requests and `farm up`'s own submissions (the demo, `farm eval`) both come in here.
 * `submittedBy` says who submits, whatever the body claims (the API: who authenticated).
 */
export function apiSubmitter(deps: ApiSubmitterDeps) {
  const { accept } = changeRequestSubmitter(deps);
  const defaultBranch = deps.defaultBranch ?? ((repo: string) => defaultBranchOf(repo, { waitForServerMs: 0 }));
  const defaultBaseOf = async (repo: string): Promise<string> => {
    // A repository that does not answer holds no submission up for long.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5_000);
    });
    const found = await Promise.race([defaultBranch(repo), late])
      .finally(() => clearTimeout(timer))
      .catch((err: unknown) => {
        deps.log.warn('the repository’s default branch could not be read: its base is taken as main', {
          repo: redactUrl(repo),
          err: errorMessage(err),
        });
        return undefined;
      });
    return found ?? DEFAULT_BASE_REF;
  };
  return async function submit(
    body: unknown,
    submittedBy?: (claimed: string) => string,
  ): Promise<{ changeRequestId: string; created: boolean }> {
    const unable = deps.refuseNewWork?.();
    if (unable) {
      deps.log.warn('submission refused: the farm cannot take new work now', { reason: unable });
      throw new HttpError(503, `the farm cannot take new work now: ${unable}`, { headers: { 'retry-after': '30' } });
    }
    const namesBase = !!(givenBase(body) ?? '');
    const input = parseChangeRequestInput(body, {
      localRepos: !!deps.resolveLocalRepo,
      urlCredentials: true, // taken off or refused by the intake below, with its own reason
    });
    if (submittedBy) input.requestedBy = submittedBy(input.requestedBy);
    // Credentials in the URL are split off (or refused) before anything is recorded or published.
    const intake = deps.orchestrator.intakeUrl(input.repo.url);
    if (intake.refusal) throw badRequest(intake.refusal, 'repo.url');
    input.repo.url = intake.url;
    // No base named (the console's empty Base field, a plain client): the repository's own default branch, as the
    // CLI takes the checked-out one, so a `master` or `trunk` repository is planned on it rather than refused.
    if (!namesBase) input.repo.baseRef = await defaultBaseOf(input.repo.url);
    const changeRequestId = input.changeRequestId ?? randomUUID();
    const { created } = await accept({ ...input, changeRequestId });
    return { changeRequestId, created };
  };
}

/** The base a submission's body names (`repo.baseRef` or `repo.base_ref`), if any. */
function givenBase(body: unknown): unknown {
  const repo = (body as { repo?: Record<string, unknown> } | undefined)?.repo;
  return repo && typeof repo === 'object' ? (repo.baseRef ?? repo.base_ref ?? undefined) : undefined;
}
