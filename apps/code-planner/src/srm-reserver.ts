import { LeaseConflict, type SymbolLeases } from '@farm/srm-client';
import type { SymbolReserver } from './code-planner';

/**
 * Reserves a change request's symbols in the srm with the request as holder (its tasks run one after the
 * other on a shared symbol). A redelivered plan finds its own leases and reuses them.
 */
export function srmReserver(leases: SymbolLeases): SymbolReserver {
  return {
    async reserveForChangeRequest({ repo, symbols, changeRequestId, ttlSeconds }) {
      try {
        return await leases.reserve({ repo, symbols, holder: changeRequestId, changeRequestId, ttlSeconds });
      } catch (err) {
        if (!(err instanceof LeaseConflict) || err.conflicts.some((c) => c.holder !== changeRequestId)) throw err;
        const mine = await leases.liveLeases({ repo, changeRequestId });
        if (!symbols.every((s) => mine.some((l) => l.symbol === s))) throw err;
        return mine.filter((l) => symbols.includes(l.symbol));
      }
    },
  };
}
