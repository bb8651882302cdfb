// POST /v1/forge/webhooks: the forge's deliveries, signed with the farm's webhook secret (no bearer token).
// Verified, rate-limited per repository, taken once by delivery id (a replay is refused), then left in the
// inbox for the bridge: the forge gets its answer at once, whatever the bridge has to ask the forge back.
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
  /** Deliveries accepted per repository per minute. */
  ratePerMinute: number;
  log: Logger;
  now?: () => number;
}

export function forgeWebhookRoutes(deps: ForgeWebhookDeps): Route[] {
  const log = deps.log.child({ api: 'forge-webhooks', forge: deps.webhooks.kind });
  const rate = new PerKeyRate(deps.ratePerMinute, 60_000, deps.now ?? Date.now);
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
    const wait = rate.take(repo);
    if (wait > 0) {
      count('rate-limited');
      log.warn('webhook deliveries over the rate of the repository', { repo, deliveryId: delivery.deliveryId });
      throw new HttpError(429, `more than ${deps.ratePerMinute} deliveries a minute for ${repo || 'this forge'}`, {
        headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
      });
    }
    const deliveryId = `${deps.webhooks.kind}:${delivery.deliveryId}`;
    if (!(await takeDelivery(deps.store, { deliveryId, repo, event }))) {
      count('replayed');
      log.warn('webhook delivery replayed', { deliveryId, event: delivery.event, repo });
      throw new HttpError(409, `delivery ${delivery.deliveryId} was received before`);
    }
    count('accepted');
    log.info('webhook delivery accepted', { deliveryId, event: delivery.event, repo, acts: !!event });
    return json(202, { deliveryId: delivery.deliveryId, acted: !!event });
  }

  return [{ method: 'POST', path: '/v1/forge/webhooks', handler: receive, authorize: allowAll }];
}

/** At most `limit` per key per window; take() answers 0, or how long until the key may go again. */
export class PerKeyRate {
  private readonly windows = new Map<string, { start: number; used: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  take(key: string): number {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.prune(now);
      w = { start: now, used: 0 };
      this.windows.set(key, w);
    }
    if (w.used >= this.limit) return w.start + this.windowMs - now;
    w.used++;
    return 0;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
