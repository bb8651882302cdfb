/** The statistics of an evaluation report: a rate's confidence interval, and the significance of a paired difference. */

/** Wilson score interval of `successes` out of `n` at confidence `z` (1.96: 95 %); [0, 0] for n = 0. */
export function wilsonInterval(successes: number, n: number, z = 1.96): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 0 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Exact (binomial) McNemar test of paired outcomes: `b` instances only the first run resolved, `c` only the
 * second. The two-sided p-value is min(1, 2 · P(X ≤ min(b, c))) for X ~ Binomial(b + c, 1/2); 1 with no
 * discordant pair.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // Sum of C(n, i) / 2^n for i ≤ k, in logs so that large n does not overflow.
  let logC = 0; // log C(n, 0)
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}
