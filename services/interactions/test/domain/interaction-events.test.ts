import { interactionAudienceOf, messageAudienceOf } from '../../src/domain/interaction-events';

const parties = {
  id: '1300000000000000500',
  applicationId: '1300000000000000001',
  userId: '1300000000000000010',
  sessionId: 'session-1',
  nonce: null,
  guildId: null,
  channelId: '1300000000000000200',
  recipientIds: ['1300000000000000010', '1300000000000000011'],
};

describe('interaction audiences', () => {
  it("an interaction's events go to the invoking user (their named session) and the app", () => {
    expect(interactionAudienceOf(parties)).toEqual({
      interaction_id: '1300000000000000500',
      application_id: '1300000000000000001',
      user_id: '1300000000000000010',
      session_id: 'session-1',
      nonce: null,
      guild_id: null,
      channel_id: '1300000000000000200',
    });
  });

  it('a message is seen by the channel (a DM: its members), an ephemeral one by the invoking user only', () => {
    const visible = messageAudienceOf(parties, false);
    expect(visible).toEqual({
      application_id: '1300000000000000001',
      channel_id: '1300000000000000200',
      guild_id: null,
      ephemeral_user_id: null,
      recipient_ids: ['1300000000000000010', '1300000000000000011'],
    });
    expect(messageAudienceOf(parties, true)).toEqual({
      ...visible,
      ephemeral_user_id: '1300000000000000010',
    });
  });
});
