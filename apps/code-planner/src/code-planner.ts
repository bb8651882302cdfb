import { farm } from '@farm/proto';
import { Topics, type EventBus, type MessageMeta, type Subscription } from '@farm/bus';
import { RefNotFound, resolveRemoteRef } from '@farm/git';
import { FarmError, errorMessage, type FarmErrorOptions, type Logger } from '@farm/runtime';
import { LeaseConflict } from '@farm/srm-client';
import { bundlePlan } from './bundle-plan';
import { serializeSharedTouches } from './serialize-shared';
import { cloneAndLocateSymbols, type SymbolLocator } from './locate-symbols';

export type { SymbolLocator } from './locate-symbols';

/** Reserves symbols for a change request; answers the leases, one per symbol (the srm client). */
export interface SymbolReserver {
  reserveForChangeRequest(req: {
    repo: string;
    symbols: string[];
    changeRequestId: string;
    ttlSeconds: number;
  }): Promise<{ id: string; symbol: string; fencingToken: string }[]>;
}

export interface CodePlannerDeps {
  bus: EventBus;
  log: Logger;
  group?: string;
  resolveRef?: (url: string, ref: string) => Promise<string>;
  locateSymbols?: SymbolLocator;
  leases?: SymbolReserver;
  leaseTtlSeconds?: number;
  /**
   * How long a request whose symbols another request holds waits for them (asked again with the bus's backoff,
   * up to a minute apart) before it fails naming the holder; default 10 minutes, under the orchestrator's
   * planning deadline.
   */
  leaseWaitMs?: number;
  now?: () => number;
}

/** The symbols are held by another request: asked again later, not failed (the bus redelivers the plan). */
export class SymbolsHeld extends FarmError {
  constructor(readonly conflict: LeaseConflict) {
    super(`waiting for symbols held by another request: ${conflict.message}`, {
      retryable: true,
      waiting: true,
      cause: conflict,
    });
  }
}

/** Handler calls of a plan whose symbols are held, before the wait gives up (the deadline decides first). */
const LEASE_WAIT_ATTEMPTS = 200;
const OTHER_FAILURE_ATTEMPTS = 3;

/** A plan that cannot become a bundle; the request fails with this reason instead of hanging. */
class PlanningFailed extends FarmError {
  constructor(message: string, options: Omit<FarmErrorOptions, 'retryable'> = {}) {
    super(message, { ...options, retryable: false }); // the same plan fails the same way
  }
}

/**
 * Plan -> TaskBundle: resolves the base ref to a commit, finds the files defining each item's symbols,
 * serialises items that touch the same symbol or file (the later one depends on the earlier), reserves the
 * symbols in the srm for the change request, and gives each task the ids of its leases.
 */
export async function planBundle(
  plan: farm.v1.IPlan,
  deps: Omit<CodePlannerDeps, 'bus'>,
): Promise<farm.v1.ITaskBundle> {
  // A consumer must not hold its partition for a host that is down: a short wait, then the bus's retries.
  const resolveRef =
    deps.resolveRef ?? ((url: string, ref: string) => resolveRemoteRef(url, ref, { waitForServerMs: 5_000 }));
  let baseCommit: string;
  try {
    baseCommit = await resolveRef(plan.repo?.url ?? '', plan.repo?.baseRef || 'main');
  } catch (err) {
    if (err instanceof RefNotFound) throw new PlanningFailed(errorMessage(err));
    throw err; // network trouble: the bus retries
  }
  const repo = { ...plan.repo, baseCommit };
  const items = plan.items ?? [];
  const symbols = [...new Set(items.flatMap((i) => i.symbolHints ?? []))];
  // Where each symbol is defined: a later item touching the same file waits too (merges stay clean).
  const locate = deps.locateSymbols ?? defaultLocator();
  const located = symbols.length ? await locate(repo, symbols) : new Map<string, string[]>();
  const pathsOf = (i: farm.v1.IPlanItem) => [
    ...new Set([...(i.pathHints ?? []), ...(i.symbolHints ?? []).flatMap((s) => located.get(s) ?? [])]),
  ];
  const ordered = serializeSharedTouches(
    items.map((i) => ({
      itemId: i.itemId!,
      dependsOn: i.dependsOn ?? [],
      touches: [...(i.symbolHints ?? []).map((s) => `symbol:${s}`), ...pathsOf(i).map((p) => `file:${p}`)],
    })),
  );
  const byId = new Map(items.map((i) => [i.itemId!, i]));
  const bundle = bundlePlan(
    {
      ...plan,
      items: ordered.map((o) => {
        const item = byId.get(o.itemId)!;
        return { ...item, dependsOn: o.dependsOn, pathHints: pathsOf(item) };
      }),
    },
    baseCommit,
  );
  if (deps.leases && symbols.length) {
    let leases: { id: string; symbol: string; fencingToken: string }[];
    try {
      leases = await deps.leases.reserveForChangeRequest({
        repo: plan.repo?.url ?? '',
        symbols,
        changeRequestId: plan.changeRequestId!,
        ttlSeconds: deps.leaseTtlSeconds ?? 4 * 3600,
      });
    } catch (err) {
      if (err instanceof LeaseConflict) throw new SymbolsHeld(err);
      if (err instanceof FarmError && !err.retryable)
        throw new PlanningFailed(`cannot reserve symbols: ${err.message}`);
      throw err;
    }
    const leaseOf = new Map(
      leases.map((l) => [
        l.symbol,
        farm.v1.LeaseRef.create({ id: l.id, fencingToken: l.fencingToken, symbol: l.symbol }),
      ]),
    );
    for (const task of bundle.tasks ?? []) {
      task.reservedLeases = (task.symbols ?? []).map((s) => leaseOf.get(s)).filter((l) => l !== undefined);
    }
  }
  return bundle;
}

/** One clone cache per process (not per plan): requests on a commit already cloned reuse the clone. */
let sharedLocator: SymbolLocator | undefined;
const defaultLocator = () => (sharedLocator ??= cloneAndLocateSymbols());

export async function startCodePlanner(deps: CodePlannerDeps): Promise<Subscription> {
  const now = deps.now ?? Date.now;
  const waitMs = deps.leaseWaitMs ?? 10 * 60_000;
  /** When each waiting request first found its symbols held (a restart starts its wait again). */
  const waitingSince = new Map<string, number>();
  const handler = async (plan: farm.v1.Plan, meta: MessageMeta) => {
    const id = plan.changeRequestId;
    const log = deps.log.child({ changeRequestId: id });
    let bundle: farm.v1.ITaskBundle;
    try {
      bundle = await planBundle(plan, deps);
      waitingSince.delete(id);
    } catch (err) {
      let failed = err;
      if (err instanceof SymbolsHeld) {
        const since = waitingSince.get(id) ?? now();
        waitingSince.set(id, since);
        if (now() - since < waitMs) {
          log.info('symbols held by another request; asking again later', { conflicts: err.conflict.conflicts });
          throw err;
        }
        waitingSince.delete(id);
        failed = new PlanningFailed(
          `${err.conflict.message} for longer than ${Math.round(waitMs / 1000)} s (the wait for its symbols)`,
        );
      }
      // Any other passing failure (a git host away) gets the bus's usual three calls, then the dead-letter topic.
      if (!(failed instanceof PlanningFailed) && meta.attempt >= OTHER_FAILURE_ATTEMPTS) {
        throw new FarmError(errorMessage(failed), { retryable: false, cause: failed });
      }
      if (!(failed instanceof PlanningFailed)) throw failed;
      log.warn('planning failed', { err: failed });
      bundle = {
        changeRequestId: id,
        repo: plan.repo,
        planningError: failed.message,
        ...(plan.planning ? { planning: plan.planning } : {}), // planning was paid for, whatever became of it
      };
    }
    log.info('task bundle ready', {
      baseCommit: bundle.repo?.baseCommit,
      tasks: bundle.tasks?.length ?? 0,
      order: bundle.tasks?.map((t) => `${t.id}<-[${t.dependsOn?.join(',')}]`),
    });
    await deps.bus.publish(Topics.taskBundles, Topics.taskBundles.type.fromObject(bundle));
  };
  // Enough handler calls for the wait: its deadline ends it, not the dead-letter topic.
  return deps.bus.subscribe(Topics.plans, deps.group ?? 'code-planner', handler, { maxAttempts: LEASE_WAIT_ATTEMPTS });
}
