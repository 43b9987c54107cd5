import { UnknownTokenCache } from '../../src/auth/unknown-token-cache';

describe('UnknownTokenCache', () => {
  it('forgets an entry when its time is up', () => {
    let clock = 1_000;
    const cache = new UnknownTokenCache(10, 100, () => clock);
    cache.add('a');
    clock += 9_999;
    expect(cache.has('a')).toBe(true);
    clock += 2;
    expect(cache.has('a')).toBe(false);
  });

  it('holds at most maxEntries, forgetting the oldest first', () => {
    const cache = new UnknownTokenCache(10, 3);
    for (const key of ['a', 'b', 'c']) cache.add(key);
    // Added again, `a` is the newest: `b` goes first.
    cache.add('a');
    cache.add('d');
    expect(['a', 'b', 'c', 'd'].map((key) => cache.has(key))).toEqual([true, false, true, true]);
  });
});
