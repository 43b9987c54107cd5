import { planModeration } from '../../src/domain/plan-moderation';
import { ALICE, APP, BOB, LOBBY, lobby, member } from './fixtures';

describe('planModeration', () => {
  const stored = { message: { id: '5001', content: 'hi' }, createdAt: new Date('2026-01-01T00:00:00.000Z') };
  const now = new Date('2026-01-01T00:05:00.000Z');

  it('sends LOBBY_MESSAGE_UPDATE with the metadata and both timestamps to the members and webhooks', () => {
    const linked = lobby([member(ALICE), member(BOB)], {
      overrideEventWebhooksUrl: 'https://example.com/hook',
      linkedChannel: { id: '9002', guild_id: '9001', name: 'general' },
    });
    expect(planModeration(linked, stored, { flagged: 'yes' }, now)).toEqual({
      name: 'lobby.message.updated',
      data: {
        application_id: APP,
        lobby_id: LOBBY,
        user_ids: [ALICE, BOB],
        message: {
          id: '5001',
          content: 'hi',
          moderation_metadata: { flagged: 'yes' },
          timestamp: '2026-01-01T00:00:00.000Z',
          edited_timestamp: '2026-01-01T00:05:00.000Z',
        },
        override_event_webhooks_url: 'https://example.com/hook',
        linked_channel: { guild_id: '9001', channel_id: '9002' },
      },
    });
  });

  it('carries no linked channel for an unlinked lobby', () => {
    const event = planModeration(lobby([]), stored, {}, now);
    expect(event.data).toMatchObject({
      user_ids: [],
      linked_channel: null,
      override_event_webhooks_url: null,
    });
  });
});
