import { CachedOAuthClient } from '../../src/clients/cached-oauth-client';
import type { DescribeInvocationQuery, OAuthClient } from '../../src/clients/oauth-client';
import type { InvocationParties } from '../../src/domain/invocation/invocation-facts';

/** oauth answering with a counter in the endpoint, so that each answer is told apart. */
function fakeOAuth(entitlementsChangeAtMs?: number) {
  const asked: DescribeInvocationQuery[] = [];
  let pending: Array<() => void> = [];
  let hold = false;
  const client: OAuthClient = {
    async describeInvocation(query) {
      asked.push(query);
      const n = asked.length;
      if (hold) await new Promise<void>((resolve) => pending.push(resolve));
      return {
        interactionsEndpointUrl: `https://app.example/${n}`,
        ...(entitlementsChangeAtMs !== undefined ? { entitlementsChangeAtMs } : {}),
      } as InvocationParties;
    },
    users: async () => new Map(),
  };
  return {
    client,
    asked,
    holdAnswers: () => (hold = true),
    release: () => {
      hold = false;
      for (const resolve of pending) resolve();
      pending = [];
    },
  };
}

const query = (over: Partial<DescribeInvocationQuery> = {}): DescribeInvocationQuery => ({
  applicationId: '10',
  userId: '20',
  guildId: '30',
  resolveUserIds: [],
  ...over,
});

describe('CachedOAuthClient', () => {
  it('answers a repeated invocation from memory until its application is dropped', async () => {
    const oauth = fakeOAuth();
    const cache = new CachedOAuthClient(oauth.client, () => true);
    expect((await cache.describeInvocation(query())).interactionsEndpointUrl).toBe('https://app.example/1');
    expect((await cache.describeInvocation(query())).interactionsEndpointUrl).toBe('https://app.example/1');
    expect(oauth.asked).toHaveLength(1);
    cache.dropApplication('11');
    expect((await cache.describeInvocation(query())).interactionsEndpointUrl).toBe('https://app.example/1');
    cache.dropApplication('10');
    expect((await cache.describeInvocation(query())).interactionsEndpointUrl).toBe('https://app.example/2');
    expect(cache.stats()).toEqual({ hits: 2, misses: 2, size: 1 });
  });

  it('keys by invoker and guild, and asks oauth whenever users are to be resolved', async () => {
    const oauth = fakeOAuth();
    const cache = new CachedOAuthClient(oauth.client, () => true);
    await cache.describeInvocation(query());
    await cache.describeInvocation(query({ userId: '21' }));
    await cache.describeInvocation(query({ guildId: null }));
    await cache.describeInvocation(query({ resolveUserIds: ['40'] }));
    await cache.describeInvocation(query({ resolveUserIds: ['40'] }));
    expect(oauth.asked).toHaveLength(5);
  });

  it('asks oauth and forgets everything while the event feed is not live', async () => {
    const oauth = fakeOAuth();
    let live = true;
    const cache = new CachedOAuthClient(oauth.client, () => live);
    await cache.describeInvocation(query());
    live = false;
    await cache.describeInvocation(query());
    live = true;
    expect((await cache.describeInvocation(query())).interactionsEndpointUrl).toBe('https://app.example/3');
  });

  it('does not remember an answer read while its application was dropped', async () => {
    const oauth = fakeOAuth();
    const cache = new CachedOAuthClient(oauth.client, () => true);
    oauth.holdAnswers();
    const inFlight = cache.describeInvocation(query());
    cache.dropApplication('10');
    oauth.release();
    await inFlight;
    await cache.describeInvocation(query());
    expect(oauth.asked).toHaveLength(2);
    // After dropAll as well.
    oauth.holdAnswers();
    const again = cache.describeInvocation(query({ userId: '22' }));
    cache.dropAll();
    oauth.release();
    await again;
    await cache.describeInvocation(query({ userId: '22' }));
    expect(oauth.asked).toHaveLength(4);
  });

  it('keeps an answer only until its entitlements start or end', async () => {
    let now = 1_000;
    const oauth = fakeOAuth(5_000);
    const cache = new CachedOAuthClient(
      oauth.client,
      () => true,
      () => now,
    );
    await cache.describeInvocation(query());
    now = 4_999;
    await cache.describeInvocation(query());
    expect(oauth.asked).toHaveLength(1);
    now = 5_000;
    await cache.describeInvocation(query());
    expect(oauth.asked).toHaveLength(2);
  });
});
