import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';

export type LiveLeaseCounts = Partial<Record<'ACTIVE' | 'CLAIMED', number>>;

/** Where the gauge reads live leases from at scrape time (the database, so expiry is counted too). */
const gaugeSources = new Set<() => Promise<LiveLeaseCounts | undefined>>();

function createMetrics() {
  return {
    grants: new Counter({
      name: 'farm_srm_lease_grants_total',
      help: 'Symbol leases granted',
      registers: [metricsRegistry],
    }),
    conflicts: new Counter({
      name: 'farm_srm_lease_conflicts_total',
      help: 'Reservations refused because a symbol was held by another task',
      registers: [metricsRegistry],
    }),
    claims: new Counter({
      name: 'farm_srm_lease_claims_total',
      help: 'Lease claims, by result (claimed, lost, not_found)',
      labelNames: ['result'],
      registers: [metricsRegistry],
    }),
    active: new Gauge({
      name: 'farm_srm_leases_active',
      help: 'Leases currently blocking a symbol, by state (ACTIVE unexpired, CLAIMED)',
      labelNames: ['state'],
      registers: [metricsRegistry],
      async collect() {
        const totals = { ACTIVE: 0, CLAIMED: 0 };
        for (const read of gaugeSources) {
          const counts = await read();
          if (!counts) return; // the source could not be read (and said so): keep the last value
          totals.ACTIVE += counts.ACTIVE ?? 0;
          totals.CLAIMED += counts.CLAIMED ?? 0;
        }
        for (const [state, n] of Object.entries(totals)) this.set({ state }, n);
      },
    }),
  };
}

let metrics: ReturnType<typeof createMetrics> | undefined;

/** Created on first use, so processes that only use the HTTP client do not export srm metrics. */
export function srmMetrics(): ReturnType<typeof createMetrics> {
  if (!metrics) {
    metrics = createMetrics();
    // Counted from 0, so a dashboard shows a farm that claimed nothing yet as 0, not as no data.
    for (const result of ['claimed', 'lost', 'not_found', 'error']) metrics.claims.inc({ result }, 0);
  }
  return metrics;
}

export function trackLiveLeases(read: () => Promise<LiveLeaseCounts | undefined>): () => void {
  srmMetrics();
  gaugeSources.add(read);
  return () => gaugeSources.delete(read);
}
