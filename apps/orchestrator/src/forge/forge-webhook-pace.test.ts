import { PerKeyPace } from './forge-webhook-route';

describe('PerKeyPace: the pace of a repository’s webhook deliveries', () => {
  let now = 0;
  const pace = () => new PerKeyPace(3, 60_000, () => now);
  beforeEach(() => {
    now = 1_000_000;
  });

  test('the rate goes now; the rest are scheduled into the minutes after, each taking at most the rate', () => {
    const p = pace();
    const delays = Array.from({ length: 8 }, () => p.schedule('team/busy'));
    expect(delays).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 120_000, 120_000]);
    // Another repository is not held up by this one.
    expect(p.schedule('team/quiet')).toBe(0);
  });

  test('time passing moves the schedule on: a delivery in the second minute goes with that minute', () => {
    const p = pace();
    for (let i = 0; i < 4; i++) p.schedule('r'); // the fourth is due at +60 s
    now += 70_000; // inside the second minute, which holds one of its three
    expect([p.schedule('r'), p.schedule('r'), p.schedule('r')]).toEqual([0, 0, 50_000]);
  });

  test('a key starts afresh once every minute it was scheduled into is over', () => {
    const p = pace();
    for (let i = 0; i < 5; i++) p.schedule('r'); // minutes 1 and 2
    now += 120_000;
    expect([p.schedule('r'), p.schedule('r'), p.schedule('r'), p.schedule('r')]).toEqual([0, 0, 0, 60_000]);
  });

  test('a place given back (a replay) is taken by the next delivery', () => {
    const p = pace();
    for (let i = 0; i < 3; i++) p.schedule('r');
    p.giveBack('r');
    expect(p.schedule('r')).toBe(0);
    expect(p.schedule('r')).toBe(60_000);
  });
});
