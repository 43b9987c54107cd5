import { NotLobbyMemberError } from '../../src/domain/lobby-errors';
import { LOBBY_MESSAGE_FLAGS } from '../../src/domain/lobby-limits';
import { planLobbyMessage, type MessageLobby } from '../../src/domain/plan-lobby-message';
import { ALICE, APP, BOB, LOBBY } from './fixtures';

const read: MessageLobby = {
  id: LOBBY,
  applicationId: APP,
  isMember: true,
  additionalName: 'Al',
  userIds: [ALICE, BOB],
  overrideEventWebhooksUrl: 'https://example.com/hook',
  linkedChannel: { guild_id: '9001', channel_id: '9002' },
};
const author = { user: { id: ALICE, username: 'alice' }, bot: false };
const body = { content: 'hi', metadata: { k: 'v' } };

describe('planLobbyMessage', () => {
  it('renders a member’s message with their additional_name, for the members, webhooks and linked channel', () => {
    const { message, event } = planLobbyMessage(read, author, body, '5001');
    expect(message).toEqual({
      id: '5001',
      type: 0,
      content: 'hi',
      lobby_id: LOBBY,
      channel_id: LOBBY,
      author: author.user,
      flags: LOBBY_MESSAGE_FLAGS,
      application_id: APP,
      lobby_member: { additional_name: 'Al' },
      metadata: { k: 'v' },
    });
    expect(event).toEqual({
      name: 'lobby.message.created',
      data: {
        application_id: APP,
        lobby_id: LOBBY,
        user_ids: [ALICE, BOB],
        message,
        override_event_webhooks_url: 'https://example.com/hook',
        linked_channel: { guild_id: '9001', channel_id: '9002' },
      },
    });
  });

  it('refuses a user who is not a member', () => {
    expect(() => planLobbyMessage({ ...read, isMember: false }, author, body, '5001')).toThrow(
      NotLobbyMemberError,
    );
  });

  it('lets the application’s bot post to a lobby it is no member of, without lobby_member', () => {
    const bot = { user: { id: APP, bot: true }, bot: true };
    const { message } = planLobbyMessage({ ...read, isMember: false }, bot, body, '5002');
    expect(message.author).toEqual(bot.user);
    expect(message).not.toHaveProperty('lobby_member');
  });
});
