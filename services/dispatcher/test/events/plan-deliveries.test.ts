import { UnknownResourceError } from '@acs/discord-errors';
import { PeerUnavailableError } from '@acs/service-kit';
import type { ApplicationSettings, OAuthClient } from '../../src/clients/oauth-client';
import type { PermissionsClient } from '../../src/clients/permissions-client';
import type { DispatchedEvent } from '../../src/domain/plan-event';
import { planDeliveries } from '../../src/events/plan-deliveries';

const APP = '1700000000000000001';
const USER = '1700000000000000002';
const GUILD = '1700000000000000003';

const authorized: DispatchedEvent = {
  id: 'e1',
  name: 'oauth.application.authorized',
  occurredAt: '2026-01-01T00:00:00.000Z',
  data: { application_id: APP, integration_type: 0, user_id: USER, guild_id: GUILD, scopes: ['bot'] },
};

const settings: ApplicationSettings = {
  applicationId: APP,
  webhookUrl: 'https://example.com/events',
  webhookTypes: ['APPLICATION_AUTHORIZED'],
  verifyKey: 'ab'.repeat(32),
  signingKeyPem: 'pem',
  flags: 0,
  botUser: { id: APP, username: 'bot', bot: true },
};

/** oauth as the clients wrapper answers: `answer` is what `settings` gives (or throws). */
function oauthWith(answer: () => Promise<ApplicationSettings>): OAuthClient {
  return {
    settings: answer,
    user: async (userId) => ({ id: userId, username: 'someone' }),
  } as Partial<OAuthClient> as OAuthClient;
}

const permissions = {
  guild: async (guildId: string) => ({
    guild: { id: guildId, name: 'Guild', roles: [] },
    channels: [],
    memberCount: 12,
  }),
} as Partial<PermissionsClient> as PermissionsClient;

describe('planDeliveries', () => {
  it('embeds the user and the guild in the webhook, and builds the GUILD_CREATE', async () => {
    const plan = await planDeliveries(
      authorized,
      oauthWith(async () => settings),
      permissions,
    );
    expect(plan.webhook).toMatchObject({ eventId: 'e1', applicationId: APP, url: settings.webhookUrl });
    expect(JSON.parse(plan.webhook!.body).event.data).toMatchObject({
      user: { id: USER },
      guild: { id: GUILD },
    });
    expect(plan.gateway).toMatchObject([
      { to: 'bot', applicationId: APP, message: { t: 'GUILD_CREATE', guildId: GUILD } },
    ]);
    // The guild's whole count, though only the bot is listed.
    const route = plan.gateway[0] as { message: { d: { member_count: number; members: unknown[] } } };
    expect(route.message.d.member_count).toBe(12);
    expect(route.message.d.members).toHaveLength(1);
  });

  it("asks for the application's settings as of the event or later, not an older cached answer", async () => {
    const asked: Array<Date | undefined> = [];
    const oauth = {
      ...oauthWith(async () => settings),
      settings: async (_id: string, options?: { notBefore?: Date }) => {
        asked.push(options?.notBefore);
        return settings;
      },
    } as OAuthClient;
    await planDeliveries(authorized, oauth, permissions);
    expect(asked.length).toBeGreaterThan(0);
    for (const notBefore of asked) expect(notBefore?.toISOString()).toBe(authorized.occurredAt);
  });

  it('sends ENTITLEMENT_CREATE as the webhook event (the entitlement as data) and to the bot, UPDATE and DELETE only to the bot', async () => {
    const entitlement = {
      id: '1700000000000000020',
      sku_id: '1700000000000000021',
      application_id: APP,
      user_id: USER,
      type: 1,
      deleted: false,
      consumed: false,
      starts_at: '2026-01-01T00:00:00.000000+00:00',
      ends_at: null,
      promotion_id: null,
      gift_code_flags: 0,
    };
    const subscribed = oauthWith(async () => ({
      ...settings,
      webhookTypes: ['ENTITLEMENT_CREATE', 'ENTITLEMENT_UPDATE', 'ENTITLEMENT_DELETE'],
    }));
    const event = (
      name: 'oauth.entitlement.created' | 'oauth.entitlement.updated' | 'oauth.entitlement.deleted',
    ) =>
      ({
        id: name,
        name,
        occurredAt: '2026-01-01T00:00:00.000Z',
        data: { application_id: APP, entitlement },
      }) as DispatchedEvent;
    const created = await planDeliveries(event('oauth.entitlement.created'), subscribed, permissions);
    expect(JSON.parse(created.webhook!.body)).toMatchObject({
      type: 1,
      event: { type: 'ENTITLEMENT_CREATE', data: entitlement },
    });
    // A user's entitlement goes to shard 0, as a DM does.
    expect(created.gateway).toEqual([
      {
        to: 'bot',
        applicationId: APP,
        message: { kind: 'dispatch', t: 'ENTITLEMENT_CREATE', d: entitlement, guildId: null },
      },
    ]);
    for (const [name, t] of [
      ['oauth.entitlement.updated', 'ENTITLEMENT_UPDATE'],
      ['oauth.entitlement.deleted', 'ENTITLEMENT_DELETE'],
    ] as const) {
      const plan = await planDeliveries(event(name), subscribed, permissions);
      expect(plan.webhook).toBeNull();
      expect(plan.gateway).toMatchObject([{ message: { t, d: entitlement } }]);
    }
    const forGuild = await planDeliveries(
      {
        ...event('oauth.entitlement.deleted'),
        data: { application_id: APP, entitlement: { ...entitlement, guild_id: GUILD } },
      } as DispatchedEvent,
      subscribed,
      permissions,
    );
    expect(forGuild.gateway).toMatchObject([{ message: { guildId: GUILD } }]);
  });

  it('sends SUBSCRIPTION_CREATE and SUBSCRIPTION_UPDATE to the bot only', async () => {
    const subscription = {
      id: '1700000000000000030',
      user_id: USER,
      sku_ids: ['1700000000000000021'],
      entitlement_ids: [],
      renewal_sku_ids: null,
      current_period_start: '2026-01-01T00:00:00.000000+00:00',
      current_period_end: '2026-02-01T00:00:00.000000+00:00',
      status: 0 as const,
      canceled_at: null,
    };
    for (const [name, t] of [
      ['oauth.subscription.created', 'SUBSCRIPTION_CREATE'],
      ['oauth.subscription.updated', 'SUBSCRIPTION_UPDATE'],
    ] as const) {
      const event = {
        id: name,
        name,
        occurredAt: '2026-01-01T00:00:00.000Z',
        data: { application_id: APP, subscription },
      };
      const plan = await planDeliveries(
        event as DispatchedEvent,
        oauthWith(async () => settings),
        permissions,
      );
      expect(plan).toEqual({
        webhook: null,
        gateway: [
          { to: 'bot', applicationId: APP, message: { kind: 'dispatch', t, d: subscription, guildId: null } },
        ],
      });
    }
  });

  it('plans nothing for an application oauth does not know (its 404)', async () => {
    const unknown = oauthWith(() => Promise.reject(new UnknownResourceError(10002, 'Unknown Application')));
    await expect(planDeliveries(authorized, unknown, permissions)).resolves.toEqual({
      webhook: null,
      gateway: [],
    });
  });

  it('routes an interactions event with what it carries, asking no one (a peer that is down holds nothing up)', async () => {
    const down = oauthWith(() => Promise.reject(new PeerUnavailableError('oauth')));
    const created: DispatchedEvent = {
      id: 'e2',
      name: 'interactions.interaction.created',
      occurredAt: '2026-01-01T00:00:00.000Z',
      data: {
        interaction_id: '1700000000000000010',
        application_id: APP,
        user_id: USER,
        session_id: null,
        nonce: 'n',
        guild_id: GUILD,
        channel_id: '1700000000000000004',
        type: 2,
        bot_payload: { id: '1700000000000000010', token: 't' },
      },
    };
    await expect(planDeliveries(created, down, {} as PermissionsClient)).resolves.toEqual({
      webhook: null,
      gateway: [
        expect.objectContaining({ to: 'user', userId: USER }),
        expect.objectContaining({ to: 'bot', applicationId: APP }),
      ],
    });
  });

  it('throws when oauth cannot be reached, so the event is retried, not half delivered', async () => {
    const down = oauthWith(() => Promise.reject(new PeerUnavailableError('oauth')));
    await expect(planDeliveries(authorized, down, permissions)).rejects.toBeInstanceOf(PeerUnavailableError);
  });
});
