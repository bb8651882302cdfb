// POST /v1/forge/webhooks: the forge's deliveries, signed with the farm's webhook secret (no bearer token).
// Verified, taken once by delivery id (a replay is refused and counts toward nothing), then left in the inbox for
// the bridge: the forge gets its answer at once, whatever the bridge has to ask the forge back. Forges do not
// deliver again, so nothing verified is refused for its rate: deliveries beyond a repository's rate are kept and
// become due in the following minutes, each minute taking at most the rate.
import { WebhookRejected, type WebhookReader } from '@farm/forge';
import { allowAll, HttpError, json, readRawBody, type EdgeRequest, type Reply, type Route } from '@farm/http-edge';
import type { Logger } from '@farm/runtime';
import { orchestratorMetrics } from '../metrics';
import type { SqlExecutor } from '@farm/store';
import { takeDelivery } from './forge-store';

/** GitHub sends payloads up to 25 MB; the farm acts on issues and reviews, far smaller. */
const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

export interface ForgeWebhookDeps {
  store: SqlExecutor;
  webhooks: WebhookReader;
  secret: string;
  /** Deliveries acted on per repository per minute; more are kept and acted on in the minutes after. */
  ratePerMinute: number;
  log: Logger;
  now?: () => number;
}

export function forgeWebhookRoutes(deps: ForgeWebhookDeps): Route[] {
  const log = deps.log.child({ api: 'forge-webhooks', forge: deps.webhooks.kind });
  const pace = new PerKeyPace(deps.ratePerMinute, 60_000, deps.now ?? Date.now);
  const count = (answer: string) => orchestratorMetrics.forgeWebhooks.inc({ forge: deps.webhooks.kind, answer });

  async function receive(r: EdgeRequest): Promise<Reply> {
    const raw = await readRawBody(r.req, WEBHOOK_BODY_LIMIT);
    let delivery;
    try {
      delivery = deps.webhooks.verify(r.req.headers, raw, deps.secret);
    } catch (err) {
      if (!(err instanceof WebhookRejected)) throw err;
      count('unverified');
      // Who sent what, never the body: an unverified body is anyone's text.
      log.warn('webhook delivery refused', {
        reason: err.message,
        remote: r.req.socket.remoteAddress,
        bytes: raw.length,
        userAgent: r.req.headers['user-agent'],
      });
      throw new HttpError(401, `the delivery is not verified: ${err.message}`);
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      count('malformed');
      throw new HttpError(400, 'the delivery is not JSON (configure the webhook with content type application/json)');
    }
    const event = deps.webhooks.parse(delivery, payload);
    const repo = event?.repo.fullName ?? '';
    const deliveryId = `${deps.webhooks.kind}:${delivery.deliveryId}`;
    // Only an event the farm acts on takes a place in the repository's pace; one it ignores is done at once.
    const delayMs = event ? pace.schedule(repo) : 0;
    if (!(await takeDelivery(deps.store, { deliveryId, repo, event, delayMs }))) {
      if (event) pace.giveBack(repo);
      count('replayed');
      log.warn('webhook delivery replayed', { deliveryId, event: delivery.event, repo });
      throw new HttpError(409, `delivery ${delivery.deliveryId} was received before`);
    }
    const deferredSeconds = Math.ceil(delayMs / 1000);
    count(deferredSeconds > 0 ? 'deferred' : 'accepted');
    log.info('webhook delivery accepted', { deliveryId, event: delivery.event, repo, acts: !!event, deferredSeconds });
    return json(202, { deliveryId: delivery.deliveryId, acted: !!event, deferredSeconds });
  }

  return [{ method: 'POST', path: '/v1/forge/webhooks', handler: receive, authorize: allowAll }];
}

/**
 * Paces work per key: at most `limit` items a window, the rest scheduled into the windows after. schedule()
 * answers how long until the item may go (0: now); giveBack() returns the last place taken (a replay).
 */
export class PerKeyPace {
  private readonly windows = new Map<string, { start: number; used: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  schedule(key: string): number {
    const now = this.now();
    let w = this.windows.get(key);
    // Every window its items were scheduled into is over: the key starts afresh.
    if (!w || now >= this.endOf(w)) {
      if (this.windows.size > 10_000) this.prune(now);
      w = { start: now, used: 0 };
      this.windows.set(key, w);
    }
    const slot = w.start + Math.floor(w.used / this.limit) * this.windowMs;
    w.used++;
    return Math.max(0, slot - now);
  }

  giveBack(key: string): void {
    const w = this.windows.get(key);
    if (w && w.used > 0) w.used--;
  }

  private endOf(w: { start: number; used: number }): number {
    return w.start + Math.max(1, Math.ceil(w.used / this.limit)) * this.windowMs;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now >= this.endOf(w)) this.windows.delete(k);
  }
}
