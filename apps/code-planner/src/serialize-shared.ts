export interface PlannedItem {
  itemId: string;
  dependsOn: string[];
  /** What the item will touch: symbol names and file paths (as `file:<path>`). */
  touches: string[];
}

/**
 * Orders items so that two touching the same symbol or file never run in parallel: the later one (in
 * dependency order) gets a dependency on the earlier one. Returns items in that order with the extra edges.
 */
export function serializeSharedTouches(items: PlannedItem[]): PlannedItem[] {
  const ordered = topologicalOrder(items);
  const lastToucher = new Map<string, string>();
  return ordered.map((item) => {
    const deps = new Set(item.dependsOn);
    for (const key of item.touches) {
      const earlier = lastToucher.get(key);
      if (earlier && earlier !== item.itemId) deps.add(earlier);
      lastToucher.set(key, item.itemId);
    }
    return { ...item, dependsOn: [...deps] };
  });
}

/** Kahn's algorithm, stable with respect to the given order; the planner has already refused cycles. */
function topologicalOrder(items: PlannedItem[]): PlannedItem[] {
  const byId = new Map(items.map((i) => [i.itemId, i]));
  const done = new Set<string>();
  const out: PlannedItem[] = [];
  while (out.length < items.length) {
    const next = items.find((i) => !done.has(i.itemId) && i.dependsOn.every((d) => done.has(d) || !byId.has(d)));
    if (!next)
      throw new Error(
        `plan has a dependency cycle among ${items
          .filter((i) => !done.has(i.itemId))
          .map((i) => i.itemId)
          .join(', ')}`,
      );
    done.add(next.itemId);
    out.push(next);
  }
  return out;
}
