import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import type { RunningConsumer } from '@acs/events';
import { createLogger } from '@acs/service-kit';
import { findTestServers } from '@acs/testing';
import { followCredentialChanges } from '../../src/events/follow-credential-changes';
import type { Principal } from '../../src/domain/principal';
import { TokenCache } from '../../src/auth/token-cache';

const suffix = randomBytes(4).toString('hex');
const events = { stream: `FOLLOW_T${suffix}`, subjectPrefix: `fo${suffix}` };
const logger = createLogger('api-gateway', process.env.TEST_LOG ?? 'silent');
const bot = (applicationId: string): Principal => ({
  kind: 'bot',
  applicationId,
  userId: applicationId,
  scopes: [],
  applicationFlags: 0,
  userLocale: '',
});

let nats: NatsConnection;
let replicas: Array<{ cache: TokenCache; follower: RunningConsumer }>;

beforeAll(async () => {
  const { natsUrl } = await findTestServers();
  nats = await connect({ servers: natsUrl });
  // Two gateway replicas, each with its own cache.
  replicas = [new TokenCache(), new TokenCache()].map((cache) => ({
    cache,
    follower: followCredentialChanges({ natsUrl, events, cache, logger }),
  }));
  await Promise.all(replicas.map((r) => r.follower.ready));
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.follower.stop()));
  await (await nats.jetstreamManager()).streams.delete(events.stream).catch(() => undefined);
  await nats.close();
});

const publish = (type: string, data: unknown) =>
  nats
    .jetstream()
    .publish(
      `${events.subjectPrefix}.oauth.${type}`,
      JSON.stringify({ id: randomUUID(), type, occurred_at: new Date().toISOString(), data }),
    );

async function until(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !probe(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!probe()) throw new Error(`timed out waiting for ${what}`);
}

describe('followCredentialChanges', () => {
  it.each([
    ['application.bot_token_reset', { application_id: '4001' }],
    ['application.deauthorized', { application_id: '4001', user_id: '1000' }],
    ['application.credentials_changed', { application_id: '4001', changed: ['tokens_revoked'] }],
  ])("drops the application's principals in every replica on %s", async (type, data) => {
    for (const { cache } of replicas) {
      cache.set('a', bot('4001'), 300);
      cache.set('b', bot('4002'), 300);
    }
    await publish(type, data);
    await until('every replica', () => replicas.every(({ cache }) => cache.get('a') === undefined));
    // Another application's entries stay.
    for (const { cache } of replicas) expect(cache.get('b')).toEqual(bot('4002'));
  });

  it.each([
    ['user.deleted', { user_id: '1000' }],
    ['user.banned', { user_id: '1000' }],
  ])("drops the user's tokens and sessions in every replica on %s", async (type, data) => {
    const session: Principal = { ...bot('4005'), kind: 'user', userId: '1000' };
    for (const { cache } of replicas) {
      cache.set('e', session, 300);
      cache.set('f', { ...session, userId: '1001' }, 300);
    }
    await publish(type, data);
    await until('every replica', () => replicas.every(({ cache }) => cache.get('e') === undefined));
    // Another user's entries stay.
    for (const { cache } of replicas) expect(cache.get('f')).toMatchObject({ userId: '1001' });
  });

  it('ignores what is not a credential change', async () => {
    for (const { cache } of replicas) cache.set('c', bot('4003'), 300);
    await publish('application.authorized', {
      application_id: '4003',
      integration_type: 1,
      user_id: '1000',
      scopes: ['applications.commands'],
    });
    // A later credential change of another application shows the first was read past.
    for (const { cache } of replicas) cache.set('d', bot('4004'), 300);
    await publish('application.bot_token_reset', { application_id: '4004' });
    await until('the later change', () => replicas.every(({ cache }) => cache.get('d') === undefined));
    for (const { cache } of replicas) expect(cache.get('c')).toEqual(bot('4003'));
  });
});
