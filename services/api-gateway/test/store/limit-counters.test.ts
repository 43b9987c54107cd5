import { randomBytes } from 'node:crypto';
import { TcpProxy } from '@acs/testing';
import { createLimitCounters, type LimitCounters } from '../../src/store/limit-counters';

/**
 * The counters in memory, and in the machine's Redis reached through a TcpProxy that a test
 * cuts (an outage without stopping the shared Redis), each under a key prefix of its own.
 */
const REDIS = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = () => `test:limit-counters:${randomBytes(6).toString('hex')}:`;

describe('createLimitCounters', () => {
  it('counts in memory without a URL: hits past the limit are counted and refused', async () => {
    const counters = createLimitCounters({ keyPrefix: prefix(), replicas: 1 });
    const limit = counters.limit('route', 2, 60);
    expect(counters.store).toBe('memory');
    expect(await limit.peek('a')).toBeUndefined();
    const hits = [await limit.hit('a'), await limit.hit('a'), await limit.hit('a')];
    expect(hits.map(({ allowed, count, remaining }) => ({ allowed, count, remaining }))).toEqual([
      { allowed: true, count: 1, remaining: 1 },
      { allowed: true, count: 2, remaining: 0 },
      { allowed: false, count: 3, remaining: 0 },
    ]);
    expect(hits[2]!.resetAfterMs).toBeGreaterThan(59_000);
    expect(await limit.peek('a')).toMatchObject({ allowed: false, count: 3 });
    // Another key, and the same key under another limit's name, count apart.
    expect(await limit.hit('b')).toMatchObject({ allowed: true, count: 1 });
    expect(await counters.limit('global', 2, 60).hit('a')).toMatchObject({ count: 1 });
  });

  describe('in Redis', () => {
    let proxy: TcpProxy;
    let counters: LimitCounters;

    beforeAll(async () => {
      proxy = new TcpProxy(REDIS.hostname, Number(REDIS.port || 6379));
      await proxy.open();
      counters = createLimitCounters({
        url: `redis://127.0.0.1:${proxy.port}${REDIS.pathname}`,
        keyPrefix: prefix(),
        replicas: 2,
      });
      await counters.ready(5_000);
    });

    afterAll(async () => {
      await counters.close();
      await proxy.close();
    });

    it('shares one count between two clients of one Redis, apart from another prefix', async () => {
      const keyPrefix = prefix();
      const first = createLimitCounters({ url: REDIS.href, keyPrefix, replicas: 1 });
      const second = createLimitCounters({ url: REDIS.href, keyPrefix, replicas: 1 });
      const other = createLimitCounters({ url: REDIS.href, keyPrefix: prefix(), replicas: 1 });
      try {
        await Promise.all([first.ready(5_000), second.ready(5_000), other.ready(5_000)]);
        expect(first.store).toBe('redis');
        await first.limit('route', 3, 60).hit('a');
        await second.limit('route', 3, 60).hit('a');
        expect(await first.limit('route', 3, 60).peek('a')).toMatchObject({ count: 2, remaining: 1 });
        expect(await other.limit('route', 3, 60).peek('a')).toBeUndefined();
      } finally {
        await Promise.all([first.close(), second.close(), other.close()]);
      }
    });

    it('counts its share in memory while Redis is cut, without an error, and in Redis again once it returns', async () => {
      const limit = counters.limit('route', 4, 60);
      expect(await limit.hit('a')).toMatchObject({ allowed: true, count: 1, remaining: 3 });

      await proxy.cut();
      // The share of one of two replicas: 2 of 4.
      const during = [];
      for (let i = 0; i < 3; i++) during.push(await limit.hit('a'));
      expect(during.map((w) => w.allowed)).toEqual([true, true, false]);
      expect(during[0]!.remaining).toBe(1);
      // A peek reads the same insurance meanwhile.
      expect(await limit.peek('a')).toMatchObject({ allowed: false, count: 3 });

      await proxy.open();
      await counters.ready(10_000);
      // Redis held 1 before the outage; counting carries on from there.
      expect(await limit.hit('a')).toMatchObject({ allowed: true, count: 2, remaining: 2 });
      const peek = await limit.peek('a');
      expect(peek).toMatchObject({ allowed: true, count: 2, remaining: 2 });
      expect(peek!.resetAfterMs).toBeGreaterThan(50_000);
    });

    it('answers from the insurance when Redis never answered at all', async () => {
      const dead = new TcpProxy(REDIS.hostname, Number(REDIS.port || 6379));
      await dead.open();
      await dead.cut();
      const unreachable = createLimitCounters({
        url: `redis://127.0.0.1:${dead.port}`,
        keyPrefix: prefix(),
        replicas: 3,
      });
      try {
        const started = Date.now();
        await unreachable.ready(300);
        expect(Date.now() - started).toBeLessThan(2_000);
        const limit = unreachable.limit('global', 5, 1);
        const hits = [];
        for (let i = 0; i < 3; i++) hits.push(await limit.hit('a'));
        expect(hits.map((w) => w.allowed)).toEqual([true, true, false]);
      } finally {
        await unreachable.close();
        await dead.close();
      }
    });
  });
});
