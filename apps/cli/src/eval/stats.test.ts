import { mcnemarExact, wilsonInterval } from './stats';

test('Wilson interval: known values, bounds kept within [0, 1], empty sample', () => {
  const half = wilsonInterval(5, 10);
  expect(half.low).toBeCloseTo(0.2366, 4);
  expect(half.high).toBeCloseTo(0.7634, 4);
  const none = wilsonInterval(0, 20);
  expect(none.low).toBe(0);
  expect(none.high).toBeCloseTo(0.1611, 4);
  const all = wilsonInterval(20, 20);
  expect(all.high).toBe(1);
  expect(all.low).toBeCloseTo(0.8389, 4);
  expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 0 });
});

test('exact McNemar: two-sided binomial p-value of the discordant pairs', () => {
  expect(mcnemarExact(0, 0)).toBe(1);
  expect(mcnemarExact(0, 5)).toBeCloseTo(0.0625, 10);
  expect(mcnemarExact(9, 1)).toBeCloseTo(22 / 1024, 10);
  expect(mcnemarExact(3, 3)).toBe(1);
  expect(mcnemarExact(0, 1)).toBe(1);
  // large samples stay finite: 40 vs 60 discordant pairs
  const p = mcnemarExact(40, 60);
  expect(p).toBeGreaterThan(0.05);
  expect(p).toBeLessThan(0.06);
});
