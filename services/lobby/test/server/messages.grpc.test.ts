import { APP, CHANNEL, GUILD, OTHER_APP, USERS, startLobbyWorld, type LobbyWorld } from './lobby-world';

const bot = { app: APP };
const [ALICE, BOB, CAROL] = USERS as [string, string, string];
const as = (user: string, app = APP) => ({ app, user });

let world: LobbyWorld;
beforeAll(async () => {
  world = await startLobbyWorld();
}, 60_000);
afterAll(() => world.close());

async function newLobby(
  body: object = {
    members: [
      { id: ALICE, flags: 1 },
      { id: BOB, additional_name: 'Bobby' },
    ],
  },
) {
  return (await world.call('CreateLobby', bot, { body_json: JSON.stringify(body) })).id as string;
}

describe('POST /lobbies/{id}/messages', () => {
  it('stores a member’s message and announces it to the members with the lobby’s webhook URL', async () => {
    const lobbyId = await newLobby({
      members: [{ id: ALICE }, { id: BOB, additional_name: 'Bobby' }],
      override_event_webhooks_url: 'https://hooks.example/lobby',
    });
    const message = await world.call('CreateMessage', as(BOB), {
      lobby_id: lobbyId,
      body_json: JSON.stringify({ content: 'hello', metadata: { k: 'v' } }),
    });
    expect(message).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 0,
      content: 'hello',
      lobby_id: lobbyId,
      channel_id: lobbyId,
      author: expect.objectContaining({ id: BOB }),
      lobby_member: { additional_name: 'Bobby' },
      metadata: { k: 'v' },
      flags: 65536,
      application_id: APP,
    });
    const [event] = (await world.events('acs.lobby.message.created')).filter(
      (e) => e.data.lobby_id === lobbyId,
    );
    expect(event.data).toEqual({
      application_id: APP,
      lobby_id: lobbyId,
      user_ids: [ALICE, BOB],
      message,
      override_event_webhooks_url: 'https://hooks.example/lobby',
      linked_channel: null,
    });
  });

  it('refuses a non-member (403 / 50001), another application (10031), empty content and oversize metadata', async () => {
    const lobbyId = await newLobby();
    const outsider = await world.fail('CreateMessage', as(CAROL), {
      lobby_id: lobbyId,
      body_json: '{"content":"hi"}',
    });
    expect([outsider.httpStatus, outsider.code]).toEqual([403, 50001]);
    expect(
      (
        await world.fail('CreateMessage', as(ALICE, OTHER_APP), {
          lobby_id: lobbyId,
          body_json: '{"content":"hi"}',
        })
      ).code,
    ).toBe(10031);
    for (const body of [
      {},
      { content: '' },
      { content: '   ' },
      { content: 7 },
      { content: 'x'.repeat(4001) },
      { content: 'a', metadata: { a: 'x'.repeat(1001) } },
    ]) {
      const error = await world.fail('CreateMessage', as(ALICE), {
        lobby_id: lobbyId,
        body_json: JSON.stringify(body),
      });
      expect([error.httpStatus, error.code]).toEqual([400, 50035]);
    }
    const { rows } = await world.pool.query(
      'SELECT count(*)::int AS n FROM lobby_message WHERE lobby_id = $1',
      [lobbyId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('lets the application’s bot post (as its bot user, without lobby_member)', async () => {
    const lobbyId = await newLobby();
    const message = await world.call('CreateMessage', bot, {
      lobby_id: lobbyId,
      body_json: '{"content":"from the game"}',
    });
    expect(message.author.id).toBe(APP);
    expect(message).not.toHaveProperty('lobby_member');
  });
});

describe('GET /lobbies/{id}/messages', () => {
  it('lists newest first, 50 by default, up to limit, for members only', async () => {
    const lobbyId = await newLobby();
    for (let i = 0; i < 55; i++) {
      await world.call('CreateMessage', as(i % 2 ? ALICE : BOB), {
        lobby_id: lobbyId,
        body_json: JSON.stringify({ content: `m${i}` }),
      });
    }
    const page = await world.call('ListMessages', as(ALICE), { lobby_id: lobbyId });
    expect(page).toHaveLength(50);
    expect(page[0].content).toBe('m54');
    expect(page[49].content).toBe('m5');
    expect((await world.call('ListMessages', as(BOB), { lobby_id: lobbyId, limit: '200' })).length).toBe(55);
    expect(
      (await world.call('ListMessages', as(BOB), { lobby_id: lobbyId, limit: '1' })).map(
        (m: { content: string }) => m.content,
      ),
    ).toEqual(['m54']);
    for (const limit of ['0', '201', 'abc', '-1', '1.5']) {
      const error = await world.fail('ListMessages', as(ALICE), { lobby_id: lobbyId, limit });
      expect([error.httpStatus, error.code]).toEqual([400, 50035]);
    }
    expect((await world.fail('ListMessages', as(CAROL), { lobby_id: lobbyId })).code).toBe(50001);
    expect((await world.fail('ListMessages', as(ALICE, OTHER_APP), { lobby_id: lobbyId })).code).toBe(10031);
  });

  it('leaves out messages older than 72 hours', async () => {
    const lobbyId = await newLobby();
    const old = await world.call('CreateMessage', as(ALICE), {
      lobby_id: lobbyId,
      body_json: '{"content":"old"}',
    });
    await world.call('CreateMessage', as(ALICE), { lobby_id: lobbyId, body_json: '{"content":"new"}' });
    await world.pool.query(
      "UPDATE lobby_message SET created_at = now() - interval '73 hours' WHERE id = $1",
      [old.id],
    );
    const page = await world.call('ListMessages', as(ALICE), { lobby_id: lobbyId });
    expect(page.map((m: { content: string }) => m.content)).toEqual(['new']);
  });
});

describe('PUT …/messages/{id}/moderation-metadata', () => {
  it('sets it (204), shows it in the history and announces LOBBY_MESSAGE_UPDATE', async () => {
    const lobbyId = await newLobby();
    const message = await world.call('CreateMessage', as(ALICE), {
      lobby_id: lobbyId,
      body_json: '{"content":"x"}',
    });
    const answer = await world.call('SetModerationMetadata', bot, {
      lobby_id: lobbyId,
      message_id: message.id,
      body_json: '{"verdict":"ok"}',
    });
    expect(answer).toBeUndefined();
    const [listed] = await world.call('ListMessages', as(ALICE), { lobby_id: lobbyId });
    expect(listed.moderation_metadata).toEqual({ verdict: 'ok' });
    const [updated] = (await world.events('acs.lobby.message.updated')).filter(
      (e) => e.data.lobby_id === lobbyId,
    );
    expect(updated.data.message).toMatchObject({
      id: message.id,
      moderation_metadata: { verdict: 'ok' },
      edited_timestamp: expect.any(String),
    });
  });

  it('refuses 6 keys, a long value, an unknown message and another application', async () => {
    const lobbyId = await newLobby();
    const message = await world.call('CreateMessage', as(ALICE), {
      lobby_id: lobbyId,
      body_json: '{"content":"x"}',
    });
    const six = JSON.stringify(Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`k${i}`, 'v'])));
    expect(
      (
        await world.fail('SetModerationMetadata', bot, {
          lobby_id: lobbyId,
          message_id: message.id,
          body_json: six,
        })
      ).code,
    ).toBe(50035);
    expect(
      (
        await world.fail('SetModerationMetadata', bot, {
          lobby_id: lobbyId,
          message_id: message.id,
          body_json: JSON.stringify({ k: 'x'.repeat(2001) }),
        })
      ).code,
    ).toBe(50035);
    expect(
      (
        await world.fail('SetModerationMetadata', bot, {
          lobby_id: lobbyId,
          message_id: '99',
          body_json: '{}',
        })
      ).code,
    ).toBe(10008);
    expect(
      (
        await world.fail(
          'SetModerationMetadata',
          { app: OTHER_APP },
          { lobby_id: lobbyId, message_id: message.id, body_json: '{}' },
        )
      ).code,
    ).toBe(10031);
  });
});

describe('PATCH /lobbies/{id}/channel-linking', () => {
  it('links a channel the member may manage, posts carry it, and unlinks', async () => {
    const lobbyId = await newLobby();
    world.linkable.set(CHANNEL, new Set([ALICE]));
    const linked = await world.call('LinkChannel', as(ALICE), {
      lobby_id: lobbyId,
      body_json: JSON.stringify({ channel_id: CHANNEL }),
    });
    expect(linked.linked_channel).toEqual({ id: CHANNEL, type: 0, guild_id: GUILD, name: 'general' });
    const message = await world.call('CreateMessage', as(BOB), {
      lobby_id: lobbyId,
      body_json: '{"content":"to both"}',
    });
    const [event] = (await world.events('acs.lobby.message.created')).filter(
      (e) => e.data.message.id === message.id,
    );
    expect(event.data.linked_channel).toEqual({ guild_id: GUILD, channel_id: CHANNEL });
    // Another lobby cannot take the same channel.
    const other = await newLobby();
    const taken = await world.fail('LinkChannel', as(ALICE), {
      lobby_id: other,
      body_json: JSON.stringify({ channel_id: CHANNEL }),
    });
    expect([taken.httpStatus, taken.code]).toEqual([400, 50035]);
    const unlinked = await world.call('LinkChannel', as(ALICE), { lobby_id: lobbyId, body_json: '{}' });
    expect(unlinked).not.toHaveProperty('linked_channel');
  });

  it('refuses a member without CanLinkLobby, a non-member, a channel the user may not manage, an unknown one', async () => {
    const lobbyId = await newLobby();
    world.linkable.set(CHANNEL, new Set([ALICE]));
    const body = JSON.stringify({ channel_id: CHANNEL });
    expect((await world.fail('LinkChannel', as(BOB), { lobby_id: lobbyId, body_json: body })).code).toBe(
      50001,
    );
    expect((await world.fail('LinkChannel', as(CAROL), { lobby_id: lobbyId, body_json: body })).code).toBe(
      50001,
    );
    await world.call('PutMember', bot, { lobby_id: lobbyId, user_id: BOB, body_json: '{"flags":1}' });
    expect((await world.fail('LinkChannel', as(BOB), { lobby_id: lobbyId, body_json: body })).code).toBe(
      50013,
    );
    expect(
      (await world.fail('LinkChannel', as(ALICE), { lobby_id: lobbyId, body_json: '{"channel_id":"77"}' }))
        .code,
    ).toBe(10003);
    expect(
      (await world.fail('LinkChannel', as(ALICE), { lobby_id: lobbyId, body_json: '{"channel_id":"x"}' }))
        .code,
    ).toBe(50035);
    expect(await world.call('GetLobby', bot, { lobby_id: lobbyId })).not.toHaveProperty('linked_channel');
  });
});
