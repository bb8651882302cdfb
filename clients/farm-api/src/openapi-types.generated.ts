// Generated from apps/orchestrator/openapi.yaml by scripts/generate-types.mjs: do not edit.

export interface paths {
  '/v1/change-requests': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Change requests, newest first, a page at a time, filtered
     * @description Pages through the whole history: a page's `older` (given as `before`) is the next older page, its `newer` (given as `after`) the next newer one; both name a request of the list (an unknown one lists nothing). Every given filter must match. `sources` says, for each listed request, where it came from, who submitted it and, when it is linked to the forge, its issue and pull request (as the status has them).
     */
    get: operations['listChangeRequests'];
    put?: never;
    /**
     * Submit a change request
     * @description The body is the proto3 JSON mapping of farm.v1.ChangeRequest. Without `changeRequestId` the server chooses a UUID. Submitting the same id with the same content again answers 200 with `created: false` and changes nothing; the same id with other content is a 409 (`createdAtMs` is not compared). The submission and its ChangeRequest event are written in one transaction and published after commit.
     */
    post: operations['submitChangeRequest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    /** One change request with its tasks */
    get: operations['getChangeRequest'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/events': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    /**
     * Server-Sent Events of the request's phase transitions and task results
     * @description Every PhaseTransition of the request (request-level ones, and task-level ones that carry taskId) in sequence order from the first, then live ones as they are committed. Each event is `id: <sequence>`, `event: transition`, `data: <JSON of a PhaseTransition>` (itemSchema). The stream ends after the final request-level transition (DONE, FAILED or CANCELLED) and the task events of the same transaction. `: keep-alive` comments come every 15 s. Resume with the `Last-Event-ID` header (or `?after=`): the stream continues after that sequence number, so nothing is missed or repeated. Both are checked when both are given; a number past the last event streams only what comes later. A stream may also end earlier (a dropped connection, a server's limit on its length): resume it.
     */
    get: operations['streamChangeRequestEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/diff': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    /**
     * The diff of the request's integration branch against its base
     * @description The request's change as its latest build merged it into the integration branch (`farm/<id>`, or a follow-up's pull-request branch): a unified diff against where the build started (the base commit, or that branch's tip), read before any of the repository's commands ran, credentials redacted, at most 64,000 characters (`truncated` says when cut). Empty, with `buildStatus` empty, before any build merged.
     */
    get: operations['getChangeRequestDiff'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a change request
     * @description Writes a farm.v1.ControlCommand CANCEL through the orchestrator's outbox. Running agents are stopped, leases released, and the request ends CANCELLED (watch the event stream). The body is optional. Taken once: 409 when the request already ended, or a cancel or reject of it was already taken (the message says who took it and when), or an approval of its plan is still being applied (cancel once it runs).
     */
    post: operations['cancelChangeRequest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/approve': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Approve the plan of a request waiting for approval, as it is or edited
     * @description Needs the `approve` scope. Writes a farm.v1.ControlCommand APPROVE through the orchestrator's outbox (the decision is recorded in the audit and applied once): the request moves to CODING and its tasks start. 409 unless the request is in AWAITING_APPROVAL and no other decision (approve, reject, cancel) was taken on it: only one applies, and the 409 says which one did, who took it and when; 400 for an edit that does not fit the plan.
     */
    post: operations['approvePlan'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/reject': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reject the plan of a request waiting for approval, with a reason
     * @description Needs the `approve` scope. Writes a farm.v1.ControlCommand REJECT: the request ends CANCELLED with the reason, its leases released. 409 unless the request is in AWAITING_APPROVAL and no other decision (approve, reject, cancel) was taken on it (the message says which, who took it and when).
     */
    post: operations['rejectPlan'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/tasks/{taskId}/trajectory': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    /**
     * What the task's agents did, per dispatch
     * @description From the report each dispatch's CommitResult carried (kept by the orchestrator): the agent's trajectory lines (tool calls with their arguments and a cut result, model steps with tokens and cost, check runs, rewards, review verdicts; prompts left out), bounded (about 96,000 characters a dispatch, 2,000 a string, head and tail kept; the first lines and the latest kept, those between counted in `eventsOmitted`) and with the farm's secrets redacted; and what the dispatch used (attempts, steps, tokens, cost). Empty while no result arrived.
     */
    get: operations['getTaskTrajectory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/tasks/{taskId}/checks': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    /** The repository's checks the task's agents ran, with their output */
    get: operations['getTaskChecks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/tasks/{taskId}/diff': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    /**
     * The diff of the task's branch against the base commit
     * @description The unified diff the agent committed on `agt/<task id>` (secrets redacted, at most 64,000 characters: `truncated` says when cut); empty, with dispatch 0, while nothing was committed.
     */
    get: operations['getTaskDiff'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/tasks/{taskId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    /**
     * Server-Sent Events of the task's steps as its agents take them
     * @description Follow a running task: each line of its agents' trajectories (model turns, tool calls with their results, check runs with each step's output, review rounds, the result) as the agent records it, from its own record, on one machine and in a cluster alike. Each event is `id: <cursor>`, `event: step`, `data: <JSON of a TaskStep>`: the dispatch it belongs to, the agent run (a restarted agent is another run) and the step's number in that run. Stored steps come first, then new ones as they arrive; once the task ended (its final result, or the request's end) an `event: end` with the task's status ends the stream. Bounded: strings in a step cut at 2,000 characters, a step at 16,000, the latest 1,000 steps of a dispatch kept; secrets are redacted by the agent and again by the orchestrator, before it keeps a step and when it serves one. The whole trajectory of an ended task is in `.../trajectory`. Resume with `Last-Event-ID` (or `?after=`) as for the request's events.
     */
    get: operations['streamTaskSteps'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/change-requests/{id}/tasks/{taskId}/resubmit': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resubmit a failed task as a new change request
     * @description For a task that ended SOFT_FAIL or HARD_FAIL: a new change request whose title is the task's goal (its first line), on the same repository, base and check command, its description naming the task and why it failed. The original request stays as it ended. A task is resubmitted once: asking again answers 200 with the same new request. Takes no body.
     */
    post: operations['resubmitTask'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/forge/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A webhook delivery of the forge (GitHub, GitLab, Gitea)
     * @description Where the forge sends issue, comment and review events (FARM_FORGE_WEBHOOK_SECRET must be set). No bearer token: the delivery must carry the forge's own signature made with the webhook secret (`X-Hub-Signature-256` for GitHub and Gitea, `X-Gitlab-Token` for GitLab). A delivery is taken once by its id; the farm acts on it after answering (an issue with FARM_FORGE_LABEL or a comment with FARM_FORGE_MENTION becomes a change request; a review on a farm pull request, follow-ups).
     */
    post: operations['receiveForgeWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/lessons': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What the agents learned from tasks that succeeded, newest first
     * @description A lesson is stored when a task succeeds (its goal, the files it touched, what failed first and what fixed it); later tasks on the same repository get the most similar ones in their first prompt.
     */
    get: operations['listLessons'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The tokens, without their secrets (admin) */
    get: operations['listTokens'];
    put?: never;
    /**
     * Create a bearer token (admin)
     * @description A new random token with a name and scopes, created by the caller (recorded in the audit). The token itself is in this answer only; the farm keeps its hash. A name is unique among live tokens.
     */
    post: operations['createToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tokens/{id}/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The token's id or its name. */
        id: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke a token (admin)
     * @description The next request with the token is a 401; an event stream it opened ends at its next poll.
     */
    post: operations['revokeToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who submitted, cancelled, created or revoked what, and when (admin)
     * @description Newest first; every given filter must match. Page with `before` (the last id of a page).
     */
    get: operations['queryAudit'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/whoami': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller and the scopes it holds
     * @description Who the bearer token is and what it may do, for any valid token whatever its scopes (the console hides what the caller may not do).
     */
    get: operations['whoAmI'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/forge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The forge this farm works with
     * @description Its kind and web address (FARM_FORGE_KIND, FARM_FORGE_URL), from which a client links branches, commits, issues and pull requests; an empty object when no forge is configured.
     */
    get: operations['getForge'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @enum {string} */
    Scope: 'read' | 'submit' | 'cancel' | 'approve' | 'admin';
    TokenInput: {
      name: string;
      scopes: components['schemas']['Scope'][];
      /** @description How long the token lives; at most FARM_TOKEN_MAX_TTL_S. Without it: FARM_TOKEN_TTL_S, else the maximum, else until revoked. */
      expiresInSeconds?: number;
    };
    Token: {
      id: string;
      name: string;
      scopes: components['schemas']['Scope'][];
      /** @description The subject that created it. */
      createdBy: string;
      /** Format: date-time */
      createdAt: string;
      /**
       * Format: date-time
       * @description Refused from then on; absent until revoked.
       */
      expiresAt?: string;
      /**
       * Format: date-time
       * @description Noted at most once a minute.
       */
      lastUsedAt?: string;
      /** Format: date-time */
      revokedAt?: string;
      revokedBy?: string;
    };
    NewToken: {
      id: string;
      name: string;
      scopes: components['schemas']['Scope'][];
      createdBy: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      expiresAt?: string;
      /** @description The secret, `farm_` and 43 characters; shown only here. */
      token: string;
    };
    AuditEvent: {
      id: string;
      /** Format: date-time */
      at: string;
      subject: string;
      /** @enum {string} */
      action: 'submit' | 'cancel' | 'approve' | 'reject' | 'token.create' | 'token.revoke';
      changeRequestId?: string;
      /** @description e.g. the token id and name, a cancel reason; never a secret. */
      detail: Record<string, never>;
    };
    Error: {
      error: {
        message: string;
        /** @description The input to fix, as a dotted path (`repo.url`), a query parameter or a header. */
        field?: string;
      };
    };
    /** @description proto3 JSON of farm.v1.RepoRef; the .proto field names are accepted too, not both names of one field. */
    RepoRefInput: {
      /** @description http(s) clone URL of the git remote (smart HTTP): a DNS name or IPv4 address, port, path, query; no spaces or control characters, and no user info: the farm's git credentials are its own configuration. `farm up` also accepts the absolute path of a repository on its machine (`/...` or `file:///...`), served to the agents through a mirror, and a URL with user info, whose credentials it splits off and keeps in its state directory (never passed on with the request). */
      url: string;
      /** @description Branch, tag or commit to start from, as `git check-ref-format` allows it on a command line (no space, control character, `~^:?*[\`, `..`, `@{`, `//`; not starting with `-`, `/` or `.`; not ending with `/`, `.` or `.lock`). Absent, empty or null: the repository's default branch (the one its HEAD names), or main when that cannot be read. */
      baseRef?: string | null;
      base_ref?: components['schemas']['RepoRefInput']['baseRef'];
      /** @description Commit to start from; empty or null lets the code-planner resolve baseRef. */
      baseCommit?: string | null;
      base_commit?: components['schemas']['RepoRefInput']['baseCommit'];
    };
    /** @description proto3 JSON of farm.v1.ChangeRequest. The .proto field names (`change_request_id`) are accepted too, but not both names of one field; any other field is refused by name. Null, like an empty string, is the field's default. */
    ChangeRequestInput: {
      /** @description Chosen by the client for idempotent retries: letters, digits, `-`, `_` and single dots, starting with a letter or digit, not ending in `.lock`. A UUID is generated when absent, null or empty. */
      changeRequestId?: string | null;
      change_request_id?: components['schemas']['ChangeRequestInput']['changeRequestId'];
      /** @description Not only spaces, tabs and line breaks (which are trimmed); no NUL. */
      title: string;
      description?: string | null;
      requestedBy?: string | null;
      requested_by?: components['schemas']['ChangeRequestInput']['requestedBy'];
      /** @description Unix epoch milliseconds (an int64, as a number or, as proto3 JSON writes it, a string) */
      createdAtMs?: number | string | null;
      created_at_ms?: components['schemas']['ChangeRequestInput']['createdAtMs'];
      /** @description Command that checks a patch; empty lets the agent detect it */
      checkCommand?: string | null;
      check_command?: components['schemas']['ChangeRequestInput']['checkCommand'];
      /** @description An existing branch of the farm's own (`farm/...`, e.g. a pull request's branch) the build merges the result into and pushes, never forced, instead of `farm/<changeRequestId>`: how a follow-up lands on the same pull request. Empty or null is `farm/<changeRequestId>`. */
      integrationBranch?: string | null;
      integration_branch?: components['schemas']['ChangeRequestInput']['integrationBranch'];
      /** @description Ask a person to approve the plan before any task starts (AWAITING_APPROVAL), whatever the farm's approval policy (FARM_APPROVAL) says. */
      requireApproval?: boolean | null;
      require_approval?: components['schemas']['ChangeRequestInput']['requireApproval'];
      repo: components['schemas']['RepoRefInput'];
    };
    SubmitResult: {
      changeRequestId: string;
      created: boolean;
    };
    /** @description The .proto field name `requested_by` is accepted too, not both names; null is empty. */
    CancelInput: {
      reason?: string | null;
      requestedBy?: string | null;
      requested_by?: components['schemas']['CancelInput']['requestedBy'];
    };
    /** @description Optional: the plan as approved may leave tasks out (the others' dependencies on them are dropped), reword goals and lower how many of the request's tasks run at once. */
    ApproveInput: {
      reason?: string | null;
      removeTasks?: string[];
      /** @description A task's new goal, by task id. */
      goals?: {
        [key: string]: string;
      };
      parallelism?: number;
    };
    RejectInput: {
      reason: string;
    };
    DecisionResult: {
      changeRequestId: string;
      /** @enum {string} */
      decision: 'approve' | 'reject';
    };
    CancelResult: {
      changeRequestId: string;
      /** @constant */
      cancelRequested: true;
    };
    /** @enum {string} */
    Phase:
      | 'PHASE_UNSPECIFIED'
      | 'RECEIVED'
      | 'PLANNING'
      | 'CODING'
      | 'BUILD'
      | 'DONE'
      | 'FAILED'
      | 'CANCELLED'
      | 'AWAITING_APPROVAL';
    /** @description Model tokens, summed over every dispatch (of a task, or of all tasks of a request). */
    TokenTotals: {
      prompt: number;
      completion: number;
      total: number;
    };
    RequestSummary: {
      id: string;
      /** @description A Phase, or SUBMITTED while the orchestrator has not consumed the request yet. */
      phase: components['schemas']['Phase'] | 'SUBMITTED';
      title: string;
      /** @description The URL the agents clone: for a repository on the machine of `farm up`, the mirror it serves */
      repoUrl: string;
      /** @description `farm up`: the repository on its machine the request was submitted for (its branches are fetched back there) */
      repoPath?: string;
      baseRef: string;
      /** @description Resolved by the code-planner; empty before */
      baseCommit: string;
      /** @description Why the request is in its phase */
      reason: string;
      /** @description farm/<id> once the build phase ran */
      integrationBranch: string;
      tasksDone: number;
      tasksTotal: number;
      /** @description Agent attempts over all tasks and dispatches */
      attempts: number;
      /** @description Its planning's and all its tasks' model tokens */
      tokens: components['schemas']['TokenTotals'];
      /** @description US dollars of its planning's and all its tasks' model calls, from the price table (FARM_MODEL_PRICES) */
      costUsd: number;
      /** @description Of the totals, what planning took: the planner model's calls, also those whose answers could not be used */
      planning: {
        calls: number;
        totalTokens: number;
        costUsd: number;
      };
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    TaskSummary: {
      id: string;
      goal: string;
      /** @enum {string} */
      status: 'PENDING' | 'DISPATCHED' | 'SUCCESS' | 'SOFT_FAIL' | 'HARD_FAIL' | 'CANCELLED';
      /** @description Dispatches so far (1 = first run) */
      dispatch: number;
      attempts: number;
      /** @description agt/<task id> once pushed */
      branch: string;
      commitSha: string;
      /** @description The agent's notes of its last result */
      notes: string;
      dependsOn: string[];
      tokens: components['schemas']['TokenTotals'];
      /** @description US dollars over every dispatch */
      costUsd: number;
      /**
       * @description As planned
       * @enum {string}
       */
      kind?: 'FEATURE' | 'FIX' | 'REFACTOR' | 'TEST' | 'DOCS';
      /** @description The main file, as planned */
      path?: string;
      /** @description The symbols leased for it, as planned */
      symbols?: string[];
      /** @description The planner's estimate of the lines it adds and removes (absent: none made) */
      estimatedChangedLines?: number;
      verification?: components['schemas']['Verification'];
    };
    /** @description What verified the task's change (its last result): the checks of the plan that ran, were skipped or found nothing, and for a change that adds or changes tests the differential: those tests run on the base commit with only the change's test files (failure expected) and on the branch (pass expected). A FEATURE/FIX goal whose change is tests-only, or whose tests pass on the base, has unverifiedReason set: it ends as SOFT_FAIL at the verify step unless the reviewer explicitly accepted it (acceptedByReviewer). */
    Verification: {
      checks?: {
        name?: string;
        /** @description The command line; absent for a skipped check */
        run?: string;
        ok?: boolean;
        skipped?: boolean;
        /** @description The check ran but found no tests */
        foundNothing?: boolean;
        reason?: string;
      }[];
      differential?: {
        testFiles?: string[];
        /** @description The test command, narrowed to testFiles where the runner allows */
        command?: string;
        narrowed?: boolean;
        base?: components['schemas']['TestRunOutcome'];
        branch?: components['schemas']['TestRunOutcome'];
        /** @description Why it did not run, or a note on an outcome */
        reason?: string;
      };
      /** @description Every changed file is a test file */
      testsOnly?: boolean;
      unverifiedReason?: string;
      acceptedByReviewer?: boolean;
      /** @description The git tree of the task's commit: the source the checks ran on. A one-task request's build of the same tree with the same check commands does not run them again. */
      treeSha?: string;
    };
    /** @enum {string} */
    TestRunOutcome: 'TEST_RUN_PASSED' | 'TEST_RUN_FAILED' | 'TEST_RUN_NOT_RUN';
    Lesson: {
      taskId: string;
      repoUrl: string;
      /** @description The path on the farm's machine of the local repository this lesson's task worked on, when it was one (`farm up` serves such a repository to its agents at `repoUrl`). */
      repoPath?: string;
      goal: string;
      files: string[];
      /** @description What failed first (empty when nothing did) */
      firstFailure: string;
      /** @description What fixed it */
      fix: string;
      /** Format: date-time */
      createdAt: string;
    };
    TaskTrajectory: {
      changeRequestId: string;
      taskId: string;
      dispatches: components['schemas']['DispatchTrajectory'][];
    };
    DispatchTrajectory: {
      dispatch: number;
      /** @enum {string} */
      status: 'COMMIT_STATUS_UNSPECIFIED' | 'SUCCESS' | 'SOFT_FAIL' | 'HARD_FAIL';
      /** @description The step that failed (e.g. budget, check); empty on SUCCESS */
      failedStep: string;
      /** Format: date-time */
      receivedAt: string;
      attempts: number;
      /** @description Model calls */
      steps: number;
      model: string;
      tokens: components['schemas']['TokenTotals'];
      costUsd: number;
      reviews: {
        round: number;
        approved: boolean;
        objections: string[];
      }[];
      notes: string[];
      /** @description The trajectory's lines in order, each a JSON object with at least `ts` and `event` (`context`, `checks`, `step`, `tool`, `check`, `reward`, `review`, `answer`, `rejected`, `fallback`); `tool` lines carry `tool`, `arguments`, `ok`, `result`, `outputChars`, `durationMs` (and `match`, how an edit's old text was found); `step` lines (model calls) `model`, `tokens`, `costUsd`, `durationMs`, `toolCalls` and `text`, what the model wrote besides its calls. `ts` is when the step ended. */
      events: {
        event: string;
      }[];
      /** @description Lines left out between the first and the latest (size bound) */
      eventsOmitted: number;
    };
    TaskChecks: {
      changeRequestId: string;
      taskId: string;
      checks: {
        dispatch: number;
        attempt: number;
        ok: boolean;
        steps: {
          name: string;
          /** @description The command */
          run: string;
          ok: boolean;
          exitCode: number | null;
          timedOut: boolean;
          durationMs: number;
          /** @description What explains the result, cut to 2,000 characters */
          output: string;
        }[];
      }[];
    };
    RequestDiff: {
      changeRequestId: string;
      /** @description The integration branch */
      branch: string;
      baseCommit: string;
      /** @description The build's merge commit; empty when none was pushed */
      commitSha: string;
      /**
       * @description The latest build's status; empty before any build
       * @enum {string}
       */
      buildStatus: '' | 'BUILD_STATUS_UNSPECIFIED' | 'BUILD_PASSED' | 'BUILD_FAILED' | 'MERGE_CONFLICT';
      diff: string;
      truncated: boolean;
    };
    TaskDiff: {
      changeRequestId: string;
      taskId: string;
      branch: string;
      commitSha: string;
      /** @description The dispatch that committed; 0 when none did */
      dispatch: number;
      diff: string;
      truncated: boolean;
    };
    ResubmitResult: {
      /** @description The new request */
      changeRequestId: string;
      created: boolean;
      resubmittedFrom: {
        changeRequestId: string;
        taskId: string;
      };
    };
    ChangeRequestDetail: {
      request: components['schemas']['RequestSummary'];
      tasks: components['schemas']['TaskSummary'][];
      forge?: components['schemas']['ForgeLink'];
    };
    /** @description Where the request is on the forge (FARM_FORGE_KIND), when it is: the issue it came from, the pull request it opened (or, for a follow-up, the one it answers). `lastError` says why the farm could not update the forge yet (it keeps trying). */
    ForgeLink: {
      /** @description owner/name (GitLab: the project path) */
      repo: string;
      /** @enum {string} */
      origin: 'issue' | 'follow-up' | 'request';
      issue?: number;
      pullRequest?: {
        number: number;
        url: string;
      };
      lastError?: string;
    };
    /** @description One Server-Sent Event of the stream, as an SSE parser yields it. */
    TransitionEvent: {
      /** @description The transition's sequence number */
      id: string;
      /** @constant */
      event: 'transition';
      data: string;
    };
    /** @description One event of a task's stream, as an SSE parser yields it: `step` (a TaskStep, the id its cursor), or the last one, `end` (the task's status, the id the last step's cursor or 0). */
    TaskStepEvent: {
      id: string;
      /** @enum {unknown} */
      event: 'step' | 'end';
      data: string;
    };
    TaskStepsEnd: {
      /** @description The task's status: SUCCESS, SOFT_FAIL, HARD_FAIL, CANCELLED, ... */
      status: string;
    };
    TaskStep: {
      /** @description The dispatch of the task the step belongs to */
      dispatch: number;
      /** @description One run of an agent on the dispatch: a restarted agent is another run */
      runId: string;
      /** @description The step's number in its run */
      seq: number;
      /** @description The trajectory line as the agent recorded it (`ts`, `event`, `taskId`, `dispatch` and the event's fields: `step` a model turn, `tool` a tool call, `check` a check run, `review`, `reward`, `result`, ...), as in `.../trajectory`. */
      step: {
        event: string;
      };
    };
    /** @description proto3 JSON of farm.v1.PhaseTransition, every field present, except that taskState is the task state's short name (farm.v1.TaskState without its TASK_ prefix; empty on request-level events). */
    PhaseTransition: {
      changeRequestId: string;
      fromPhase: components['schemas']['Phase'];
      toPhase: components['schemas']['Phase'];
      /** @description Per request from 1 without gaps; the event id */
      sequence: number;
      reason: string;
      atMs: number;
      /** @description Set on task-level events; empty on request-level ones */
      taskId: string;
      /** @enum {string} */
      taskStatus: 'COMMIT_STATUS_UNSPECIFIED' | 'SUCCESS' | 'SOFT_FAIL' | 'HARD_FAIL';
      branchName: string;
      /** @enum {string} */
      taskState: '' | 'PENDING' | 'DISPATCHED' | 'SUCCESS' | 'SOFT_FAIL' | 'HARD_FAIL' | 'CANCELLED';
    };
    /**
     * @description Where a request came from: `forge` an issue or a review on the forge, `api` this HTTP API (the CLI, the console), `bus` a ChangeRequest published straight on the bus (Kafka).
     * @enum {string}
     */
    RequestOrigin: 'forge' | 'api' | 'bus';
    RequestSource: {
      origin: components['schemas']['RequestOrigin'];
      /** @description The audit's subject that submitted it (none for the bus) */
      submittedBy?: string;
      forge?: components['schemas']['ForgeLink'];
    };
    Caller: {
      /** @description e.g. `token:ci-bot`, as the audit records it */
      subject: string;
      /** @enum {string} */
      via: 'token' | 'kubernetes' | 'component';
      /** @description The farm token's name, when it is one */
      tokenName?: string;
      /** @description Every scope the caller holds (admin holds them all, so they are all listed). */
      scopes: components['schemas']['Scope'][];
    };
    ForgeSite: {
      /** @enum {string} */
      kind?: 'github' | 'gitlab' | 'gitea';
      /** @description The forge's web address (FARM_FORGE_URL) */
      webUrl?: string;
    };
  };
  responses: {
    /** @description Malformed JSON, a missing or invalid field (named in `field`), or a bad query parameter. */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description No such change request (or no such resource). */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The path exists but not for this method; the Allow header lists the methods. */
    MethodNotAllowed: {
      headers: {
        Allow?: string;
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Submit: the id was submitted before with other content. Cancel, approve, reject: the request is in a phase where it does not apply, or another decision on it was taken (the message names the phase, or which decision, who took it and when). Resubmit: the task did not fail. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The body is larger than 1 MiB. */
    TooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The body is not declared as JSON (content-type application/json). */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description No bearer token, or one that is not valid (unknown, revoked, malformed). */
    Unauthorized: {
      headers: {
        'WWW-Authenticate'?: string;
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The token is valid but lacks the scope this operation asks for (named in the message). */
    Forbidden: {
      headers: {
        'WWW-Authenticate'?: string;
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The farm's database is unavailable (PostgreSQL down or restarting): nothing was read or recorded. Ask again after Retry-After. */
    Unavailable: {
      headers: {
        /** @description seconds */
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The server failed; the orchestrator's log says why. Retrying may help. */
    InternalError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
  };
  parameters: {
    ChangeRequestId: string;
    TaskId: string;
  };
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listChangeRequests: {
    parameters: {
      query?: {
        limit?: number;
        /** @description Only requests older than this one (its id); the previous page's `older`. */
        before?: string;
        /** @description Only requests newer than this one (its id); the previous page's `newer`. Alone, the page just above it; with `before`, the requests between the two. */
        after?: string;
        phase?: components['schemas']['Phase'] | 'SUBMITTED';
        /** @description Contained in the repository's URL, or in the URL or path it was submitted with (any case). */
        repo?: string;
        /** @description Who submitted it: the audit's subject (`token:ci-bot`) or a token's name (`ci-bot`). */
        submittedBy?: string;
        origin?: components['schemas']['RequestOrigin'];
        /** @description Created at or after this time. */
        since?: string;
        /** @description Created before this time. */
        until?: string;
        /** @description Contained in the title (any case), or the request's id. */
        q?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The requests, including SUBMITTED ones not yet consumed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            changeRequests: components['schemas']['RequestSummary'][];
            /** @description The requests matching the filters, on every page. */
            total: number;
            /** @description Matching requests newer than this page's first: the page holds the (offset + 1)th to the (offset + its length)th, newest first. */
            offset: number;
            /** @description By request id, each listed request's origin, submitter and forge link. */
            sources: {
              [key: string]: components['schemas']['RequestSource'];
            };
            /** @description The `before` of the next older page; absent on the oldest. */
            older?: string;
            /** @description The `after` of the next newer page; absent on the newest. */
            newer?: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  submitChangeRequest: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "title": "Add retry to the HTTP client",
         *       "repo": {
         *         "url": "https://git.example.com/app.git",
         *         "baseRef": "main"
         *       }
         *     }
         */
        'application/json': components['schemas']['ChangeRequestInput'];
      };
    };
    responses: {
      /** @description The same request was accepted before; nothing changed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SubmitResult'];
        };
      };
      /** @description Accepted; the request is SUBMITTED until the orchestrator consumes it. */
      202: {
        headers: {
          /** @description the new request, /v1/change-requests/{id} */
          Location?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SubmitResult'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['TooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      /** @description The farm cannot take new work now (its state cannot be written: a full disk; or its database is unavailable); /healthz says why. Nothing was recorded: submit again after Retry-After. */
      503: {
        headers: {
          /** @description seconds */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getChangeRequest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The request (phase SUBMITTED and no tasks while not yet consumed) and its tasks. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChangeRequestDetail'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  streamChangeRequestEvents: {
    parameters: {
      query?: {
        /** @description Resume after this sequence number; the header wins when both are given. */
        after?: number;
      };
      header?: {
        /** @description Resume after this sequence number (sent by EventSource when it reconnects); empty is none. */
        'Last-Event-ID'?: string;
      };
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': unknown;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getChangeRequestDiff: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The diff. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestDiff'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  cancelChangeRequest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['CancelInput'];
      };
    };
    responses: {
      /** @description The cancel command is on its way. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CancelResult'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['TooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  approvePlan: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['ApproveInput'];
      };
    };
    responses: {
      /** @description The approval is on its way. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DecisionResult'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['TooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  rejectPlan: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RejectInput'];
      };
    };
    responses: {
      /** @description The rejection is on its way. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DecisionResult'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['TooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getTaskTrajectory: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The dispatches that reported, in order. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskTrajectory'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getTaskChecks: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every run of the checks (one per attempt that got that far), in order. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskChecks'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getTaskDiff: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The diff. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskDiff'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  streamTaskSteps: {
    parameters: {
      query?: {
        /** @description Resume after this cursor; the header wins when both are given. */
        after?: number;
      };
      header?: {
        /** @description Resume after this cursor (sent by EventSource when it reconnects); empty is none. */
        'Last-Event-ID'?: string;
      };
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': unknown;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  resubmitTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: components['parameters']['ChangeRequestId'];
        taskId: components['parameters']['TaskId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The task was resubmitted before; that request. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ResubmitResult'];
        };
      };
      /** @description The new request is accepted (SUBMITTED until the orchestrator consumes it). */
      202: {
        headers: {
          /** @description the new request, /v1/change-requests/{id} */
          Location?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ResubmitResult'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  receiveForgeWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description Verified and taken; `acted` says whether the event is one the farm acts on. Nothing verified is refused for its rate (forges do not deliver again): beyond FARM_FORGE_WEBHOOK_RATE_PER_MIN deliveries a minute for a repository, a delivery is kept and acted on `deferredSeconds` later. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deliveryId: string;
            acted: boolean;
            deferredSeconds: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      /** @description The delivery is not signed with the webhook secret (logged without its body). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      409: components['responses']['Conflict'];
      413: components['responses']['TooLarge'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  listLessons: {
    parameters: {
      query?: {
        /** @description Only the lessons of this repository (its clone URL as the tasks used it, or the path of a local repository `farm up` served); empty is all. */
        repo?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The lessons. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            lessons: components['schemas']['Lesson'][];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  listTokens: {
    parameters: {
      query?: {
        includeRevoked?: boolean;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Live tokens (and revoked ones when asked), live first, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            tokens: components['schemas']['Token'][];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  createToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "ci-bot",
         *       "scopes": [
         *         "read",
         *         "submit"
         *       ]
         *     }
         */
        'application/json': components['schemas']['TokenInput'];
      };
    };
    responses: {
      /** @description The token, with its secret. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NewToken'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['TooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  revokeToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The token's id or its name. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The revoked token. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Token'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  queryAudit: {
    parameters: {
      query?: {
        /** @description e.g. token:ci-bot */
        subject?: string;
        /** @description submit, cancel, approve, reject, token.create or token.revoke */
        action?: string;
        changeRequestId?: string;
        before?: number;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The events. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            events: components['schemas']['AuditEvent'][];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  whoAmI: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Caller'];
        };
      };
      401: components['responses']['Unauthorized'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getForge: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The forge, or `{}`. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ForgeSite'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
}
