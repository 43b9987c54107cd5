import type { ApplicationSettings, OAuthClient } from '../../src/clients/oauth-client';
import type { PermissionsClient } from '../../src/clients/permissions-client';
import type { DispatchedEvent } from '../../src/domain/plan-event';
import { deliveryUrlOf } from '../../src/domain/plan-lobby-event';
import { planDeliveries } from '../../src/events/plan-deliveries';

const APP = '1700000000000000001';
const ALICE = '1700000000000000002';
const BOB = '1700000000000000003';
const LOBBY = '1700000000000000009';

const settings: ApplicationSettings = {
  applicationId: APP,
  webhookUrl: 'https://example.com/events',
  webhookTypes: ['LOBBY_MESSAGE_CREATE'],
  verifyKey: 'ab'.repeat(32),
  signingKeyPem: 'pem',
  flags: 0,
  botUser: { id: APP, username: 'bot', bot: true },
};

const permissions = {} as PermissionsClient;

function oauthWith(answer: Partial<ApplicationSettings>): OAuthClient {
  return { settings: async () => ({ ...settings, ...answer }) } as Partial<OAuthClient> as OAuthClient;
}

const message = { id: '1700000000000000010', content: 'hi', lobby_id: LOBBY };

function messageEvent(
  override: string | null,
  name: 'lobby.message.created' | 'lobby.message.updated' = 'lobby.message.created',
): DispatchedEvent {
  return {
    id: 'e1',
    name,
    occurredAt: '2026-01-01T00:00:00.000Z',
    data: {
      application_id: APP,
      lobby_id: LOBBY,
      user_ids: [ALICE, BOB, ALICE],
      message,
      override_event_webhooks_url: override,
      linked_channel: null,
    },
  };
}

describe('lobby events', () => {
  it('sends LOBBY_MESSAGE_CREATE to each member once and a webhook event to the application', async () => {
    const plan = await planDeliveries(messageEvent(null), oauthWith({}), permissions);
    expect(plan.gateway).toEqual([
      {
        to: 'user',
        userId: ALICE,
        message: { t: 'LOBBY_MESSAGE_CREATE', d: message, sessionId: null, lobbyOf: APP },
      },
      {
        to: 'user',
        userId: BOB,
        message: { t: 'LOBBY_MESSAGE_CREATE', d: message, sessionId: null, lobbyOf: APP },
      },
    ]);
    expect(plan.webhook).toMatchObject({ eventType: 'LOBBY_MESSAGE_CREATE', url: settings.webhookUrl });
    expect(JSON.parse(plan.webhook!.body)).toEqual({
      version: 1,
      application_id: APP,
      type: 1,
      event: { type: 'LOBBY_MESSAGE_CREATE', timestamp: '2026-01-01T00:00:00.000Z', data: message },
    });
  });

  it('posts to the lobby’s override URL, even when the application has none', async () => {
    const plan = await planDeliveries(
      messageEvent('https://lobby.example/hook'),
      oauthWith({ webhookUrl: null }),
      permissions,
    );
    expect(plan.webhook?.url).toBe('https://lobby.example/hook');
    expect(
      deliveryUrlOf({ eventType: 'LOBBY_MESSAGE_CREATE', url: 'https://lobby.example/hook' }, 'https://app'),
    ).toBe('https://lobby.example/hook');
    expect(deliveryUrlOf({ eventType: 'APPLICATION_AUTHORIZED', url: 'https://old' }, 'https://app')).toBe(
      'https://app',
    );
  });

  it('records no webhook when the application did not subscribe to the type', async () => {
    const plan = await planDeliveries(
      messageEvent('https://lobby.example/hook', 'lobby.message.updated'),
      oauthWith({}),
      permissions,
    );
    expect(plan.webhook).toBeNull();
    expect(plan.gateway.map((r) => r.to === 'user' && r.message.t)).toEqual([
      'LOBBY_MESSAGE_UPDATE',
      'LOBBY_MESSAGE_UPDATE',
    ]);
  });

  it('maps lobby and member events to the LOBBY_* dispatches of UD', async () => {
    const oauth = oauthWith({});
    const base = { id: 'e2', occurredAt: '2026-01-01T00:00:00.000Z' };
    const audience = { application_id: APP, lobby_id: LOBBY, user_ids: [ALICE] };
    const cases: [DispatchedEvent, string, unknown][] = [
      [
        { ...base, name: 'lobby.lobby.created', data: { ...audience, lobby: { id: LOBBY } } },
        'LOBBY_CREATE',
        { id: LOBBY },
      ],
      [
        { ...base, name: 'lobby.lobby.updated', data: { ...audience, lobby: { id: LOBBY } } },
        'LOBBY_UPDATE',
        { id: LOBBY },
      ],
      [
        { ...base, name: 'lobby.lobby.deleted', data: { ...audience, reason: 'removed' } },
        'LOBBY_DELETE',
        { id: LOBBY, reason: 'removed' },
      ],
      [
        {
          ...base,
          name: 'lobby.member.changed',
          data: { ...audience, change: 'removed', member: { id: ALICE } },
        },
        'LOBBY_MEMBER_REMOVE',
        { member: { id: ALICE }, lobby_id: LOBBY, application_id: APP },
      ],
      [
        {
          ...base,
          name: 'lobby.member.changed',
          data: { ...audience, change: 'added', member: { id: ALICE } },
        },
        'LOBBY_MEMBER_ADD',
        { member: { id: ALICE }, lobby_id: LOBBY, application_id: APP },
      ],
    ];
    for (const [event, t, d] of cases) {
      const plan = await planDeliveries(event, oauth, permissions);
      expect(plan).toEqual({
        webhook: null,
        gateway: [{ to: 'user', userId: ALICE, message: { t, d, sessionId: null, lobbyOf: APP } }],
      });
    }
  });
});
