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
  guild: async (guildId: string) => ({ guild: { id: guildId, name: 'Guild', roles: [] }, channels: [] }),
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
