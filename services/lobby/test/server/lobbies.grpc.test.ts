import { APP, OTHER_APP, UNKNOWN_USER, USERS, startLobbyWorld, type LobbyWorld } from './lobby-world';

const bot = { app: APP };
const otherBot = { app: OTHER_APP };
const [ALICE, BOB, CAROL] = USERS as [string, string, string];

let world: LobbyWorld;
beforeAll(async () => {
  world = await startLobbyWorld();
}, 60_000);
afterAll(() => world.close());

async function lobbyCount(): Promise<number> {
  const { rows } = await world.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM lobby');
  return rows[0]?.n ?? 0;
}

describe('POST /lobbies', () => {
  it('creates a lobby with its metadata, members, flags and default idle timeout', async () => {
    const lobby = await world.call('CreateLobby', bot, {
      body_json: JSON.stringify({
        metadata: { mode: 'duel' },
        members: [{ id: ALICE, metadata: { team: 'red' }, flags: 1 }, { id: BOB }],
        flags: 1,
        override_event_webhooks_url: 'https://example.com/hooks',
      }),
    });
    expect(lobby).toEqual({
      id: expect.stringMatching(/^\d+$/),
      application_id: APP,
      metadata: { mode: 'duel' },
      members: [
        { id: ALICE, metadata: { team: 'red' }, flags: 1 },
        { id: BOB, metadata: null, flags: 0 },
      ],
      flags: 1,
      override_event_webhooks_url: 'https://example.com/hooks',
    });
    const { rows } = await world.pool.query('SELECT idle_timeout_seconds FROM lobby WHERE id = $1', [
      lobby.id,
    ]);
    expect(rows[0].idle_timeout_seconds).toBe(300);
    const [created] = (await world.events('acs.lobby.lobby.created')).filter(
      (e) => e.data.lobby_id === lobby.id,
    );
    expect(created.data.user_ids).toEqual([ALICE, BOB]);
    expect(created.data.lobby.members[0]).toMatchObject({ id: ALICE, connected: false });
  });

  it('answers an empty body with an empty lobby: metadata null, no members', async () => {
    const lobby = await world.call('CreateLobby', bot, { body_json: '' });
    expect(lobby).toMatchObject({ metadata: null, members: [], flags: 0 });
  });

  it('refuses an unknown member with 404 / 10013 and writes nothing', async () => {
    const before = await lobbyCount();
    const error = await world.fail('CreateLobby', bot, {
      body_json: JSON.stringify({ members: [{ id: ALICE }, { id: UNKNOWN_USER }] }),
    });
    expect([error.httpStatus, error.code]).toEqual([404, 10013]);
    expect(await lobbyCount()).toBe(before);
  });

  it.each([
    [
      '26 metadata keys',
      { metadata: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v'])) },
      'metadata',
    ],
    ['a value over 1024', { metadata: { k: 'v'.repeat(1025) } }, 'metadata'],
    ['a key over 1024', { metadata: { ['k'.repeat(1025)]: 'v' } }, 'metadata'],
    ['over 1000 characters in all', { metadata: { a: 'x'.repeat(600), b: 'y'.repeat(600) } }, 'metadata'],
    ['a non-string value', { metadata: { a: 1 } }, 'metadata'],
    ['a NUL character', { metadata: { a: 'x\u0000' } }, 'metadata'],
    ['idle timeout below 5', { idle_timeout_seconds: 4 }, 'idle_timeout_seconds'],
    ['idle timeout above 7 days', { idle_timeout_seconds: 604_801 }, 'idle_timeout_seconds'],
    ['26 members', { members: USERS.slice(0, 26).map((id) => ({ id })) }, 'members'],
    ['a member flag other than 1', { members: [{ id: USERS[0], flags: 2 }] }, 'members'],
    ['a member id that is no snowflake', { members: [{ id: 'x' }] }, 'members'],
    ['lobby flags other than 1', { flags: 4 }, 'flags'],
    ['a webhook URL that is no URL', { override_event_webhooks_url: 'nope' }, 'override_event_webhooks_url'],
  ])('refuses %s with 400 / 50035 naming the field', async (_name, body, field) => {
    const before = await lobbyCount();
    const error = await world.fail('CreateLobby', bot, { body_json: JSON.stringify(body) });
    expect([error.httpStatus, error.code]).toEqual([400, 50035]);
    expect(Object.keys(error.toBody().errors ?? {})).toEqual([field]);
    expect(await lobbyCount()).toBe(before);
  });

  it('refuses malformed JSON with 50109 and a non-object body with 50035', async () => {
    expect((await world.fail('CreateLobby', bot, { body_json: '{' })).code).toBe(50109);
    expect((await world.fail('CreateLobby', bot, { body_json: '[]' })).code).toBe(50035);
  });

  it('accepts metadata at exactly the limits', async () => {
    const metadata = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`k${String(i).padStart(2, '0')}`, 'v'.repeat(37)]),
    );
    const lobby = await world.call('CreateLobby', bot, { body_json: JSON.stringify({ metadata }) });
    expect(Object.keys(lobby.metadata)).toHaveLength(25);
  });
});

describe('GET, PATCH and DELETE /lobbies/{id}', () => {
  it('gets a lobby of its application and 404 / 10031 for another application, an unknown id or a bad one', async () => {
    const lobby = await world.call('CreateLobby', bot, { body_json: '{}' });
    expect(await world.call('GetLobby', bot, { lobby_id: lobby.id })).toEqual(lobby);
    for (const [caller, id] of [
      [otherBot, lobby.id],
      [bot, '1234567890123456789'],
    ] as const) {
      const error = await world.fail('GetLobby', caller, { lobby_id: id });
      expect([error.httpStatus, error.code, error.message]).toEqual([404, 10031, 'Unknown Lobby']);
    }
    expect((await world.fail('GetLobby', bot, { lobby_id: 'abc' })).code).toBe(50035);
  });

  it('overwrites metadata and replaces members when given, keeps them when not', async () => {
    const lobby = await world.call('CreateLobby', bot, {
      body_json: JSON.stringify({ metadata: { a: '1' }, members: [{ id: ALICE }, { id: BOB }] }),
    });
    const kept = await world.call('UpdateLobby', bot, {
      lobby_id: lobby.id,
      body_json: JSON.stringify({ idle_timeout_seconds: 60 }),
    });
    expect(kept.metadata).toEqual({ a: '1' });
    expect(kept.members.map((m: { id: string }) => m.id)).toEqual([ALICE, BOB]);
    const replaced = await world.call('UpdateLobby', bot, {
      lobby_id: lobby.id,
      body_json: JSON.stringify({ metadata: { b: '2' }, members: [{ id: BOB, flags: 1 }, { id: CAROL }] }),
    });
    expect(replaced.metadata).toEqual({ b: '2' });
    expect(replaced.members).toEqual([
      { id: BOB, metadata: null, flags: 1 },
      { id: CAROL, metadata: null, flags: 0 },
    ]);
    const removed = (await world.events('acs.lobby.member.changed')).filter(
      (e) => e.data.lobby_id === lobby.id && e.data.change === 'removed',
    );
    expect(removed.map((e) => e.data.member.id)).toEqual([ALICE]);
    expect(
      (await world.call('UpdateLobby', bot, { lobby_id: lobby.id, body_json: '{"metadata":null}' })).metadata,
    ).toBeNull();
  });

  it("refuses PATCH of another application's lobby, an unknown member, and bad fields without writing", async () => {
    const lobby = await world.call('CreateLobby', bot, {
      body_json: JSON.stringify({ metadata: { a: '1' } }),
    });
    expect((await world.fail('UpdateLobby', otherBot, { lobby_id: lobby.id, body_json: '{}' })).code).toBe(
      10031,
    );
    const unknown = await world.fail('UpdateLobby', bot, {
      lobby_id: lobby.id,
      body_json: JSON.stringify({ metadata: { b: '2' }, members: [{ id: UNKNOWN_USER }] }),
    });
    expect(unknown.code).toBe(10013);
    expect(
      (
        await world.fail('UpdateLobby', bot, {
          lobby_id: lobby.id,
          body_json: '{"metadata":{"a":"x","b":5}}',
        })
      ).code,
    ).toBe(50035);
    expect((await world.call('GetLobby', bot, { lobby_id: lobby.id })).metadata).toEqual({ a: '1' });
  });

  it('deletes idempotently, and never the lobby of another application', async () => {
    const lobby = await world.call('CreateLobby', bot, {
      body_json: JSON.stringify({ members: [{ id: ALICE }] }),
    });
    expect(await world.call('DeleteLobby', otherBot, { lobby_id: lobby.id })).toBeUndefined();
    await world.call('GetLobby', bot, { lobby_id: lobby.id });
    expect(await world.call('DeleteLobby', bot, { lobby_id: lobby.id })).toBeUndefined();
    expect(await world.call('DeleteLobby', bot, { lobby_id: lobby.id })).toBeUndefined();
    expect((await world.fail('GetLobby', bot, { lobby_id: lobby.id })).code).toBe(10031);
    const [deleted] = (await world.events('acs.lobby.lobby.deleted')).filter(
      (e) => e.data.lobby_id === lobby.id,
    );
    expect(deleted.data).toMatchObject({ reason: 'deleted', user_ids: [ALICE] });
  });
});
