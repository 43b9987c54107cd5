import { APP, OTHER_APP, UNKNOWN_USER, USERS, startLobbyWorld, type LobbyWorld } from './lobby-world';

const bot = { app: APP };
const otherBot = { app: OTHER_APP };
const [ALICE, BOB, CAROL] = USERS as [string, string, string];
const as = (user: string, app = APP) => ({ app, user });

let world: LobbyWorld;
beforeAll(async () => {
  world = await startLobbyWorld();
}, 60_000);
afterAll(() => world.close());

async function newLobby(members: object[] = []): Promise<string> {
  return (await world.call('CreateLobby', bot, { body_json: JSON.stringify({ members }) })).id;
}

describe('PUT /lobbies (create or join by secret)', () => {
  it('creates a lobby for a new secret and joins the same one for the same secret', async () => {
    const first = await world.call('CreateOrJoinLobby', as(ALICE), {
      body_json: JSON.stringify({
        secret: 's-1',
        lobby_metadata: { a: '1' },
        member_metadata: { m: 'alice' },
      }),
    });
    expect(first.members).toEqual([{ id: ALICE, metadata: { m: 'alice' }, flags: 0 }]);
    const second = await world.call('CreateOrJoinLobby', as(BOB), {
      body_json: JSON.stringify({ secret: 's-1', lobby_metadata: { b: '2' } }),
    });
    expect(second.id).toBe(first.id);
    expect(second.metadata).toEqual({ b: '2' });
    expect(second.members.map((m: { id: string }) => m.id)).toEqual([ALICE, BOB]);
    // Joining again with member metadata sets only the caller's.
    const again = await world.call('CreateOrJoinLobby', as(ALICE), {
      body_json: JSON.stringify({ secret: 's-1', member_metadata: { m: 'again' } }),
    });
    expect(again.metadata).toEqual({ b: '2' });
    expect(again.members).toEqual([
      { id: ALICE, metadata: { m: 'again' }, flags: 0 },
      { id: BOB, metadata: null, flags: 0 },
    ]);
  });

  it('keeps secrets per application', async () => {
    const mine = await world.call('CreateOrJoinLobby', as(ALICE), { body_json: '{"secret":"shared"}' });
    const theirs = await world.call('CreateOrJoinLobby', as(ALICE, OTHER_APP), {
      body_json: '{"secret":"shared"}',
    });
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.application_id).toBe(OTHER_APP);
  });

  it('ends two users joining with one new secret at once in one lobby', async () => {
    const joins = await Promise.all(
      USERS.slice(0, 12).map((user) =>
        world.call('CreateOrJoinLobby', as(user), { body_json: JSON.stringify({ secret: 'race' }) }),
      ),
    );
    const ids = new Set(joins.map((l: { id: string }) => l.id));
    expect(ids.size).toBe(1);
    const lobby = await world.call('GetLobby', bot, { lobby_id: [...ids][0] });
    expect(lobby.members).toHaveLength(12);
    const { rows } = await world.pool.query("SELECT count(*)::int AS n FROM lobby WHERE secret = 'race'");
    expect(rows[0].n).toBe(1);
  });

  it('makes a new lobby once the secret expired (30 days)', async () => {
    const old = await world.call('CreateOrJoinLobby', as(ALICE), { body_json: '{"secret":"aging"}' });
    await world.pool.query("UPDATE lobby SET secret_expires_at = now() - interval '1 second' WHERE id = $1", [
      old.id,
    ]);
    const fresh = await world.call('CreateOrJoinLobby', as(BOB), { body_json: '{"secret":"aging"}' });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.members.map((m: { id: string }) => m.id)).toEqual([BOB]);
  });

  it('lets a bot create by secret without joining, and refuses bad bodies', async () => {
    const lobby = await world.call('CreateOrJoinLobby', bot, { body_json: '{"secret":"bot-made"}' });
    expect(lobby.members).toEqual([]);
    for (const body of [
      {},
      { secret: '' },
      { secret: 'x'.repeat(251) },
      { secret: 5 },
      { secret: 'a', member_metadata: [] },
    ]) {
      const error = await world.fail('CreateOrJoinLobby', as(ALICE), { body_json: JSON.stringify(body) });
      expect([error.httpStatus, error.code]).toEqual([400, 50035]);
    }
  });
});

describe('members', () => {
  it('PUT adds then updates a member: metadata and flags reset when absent, additional_name kept unless null', async () => {
    const lobbyId = await newLobby();
    const added = await world.call('PutMember', bot, {
      lobby_id: lobbyId,
      user_id: ALICE,
      body_json: JSON.stringify({ metadata: { a: '1' }, flags: 1, additional_name: 'Ally' }),
    });
    expect(added).toEqual({ id: ALICE, metadata: { a: '1' }, flags: 1, additional_name: 'Ally' });
    const updated = await world.call('PutMember', bot, {
      lobby_id: lobbyId,
      user_id: ALICE,
      body_json: '{}',
    });
    expect(updated).toEqual({ id: ALICE, metadata: null, flags: 0, additional_name: 'Ally' });
    const cleared = await world.call('PutMember', bot, {
      lobby_id: lobbyId,
      user_id: ALICE,
      body_json: '{"additional_name":null}',
    });
    expect(cleared).toEqual({ id: ALICE, metadata: null, flags: 0 });
    const changes = (await world.events('acs.lobby.member.changed')).filter(
      (e) => e.data.lobby_id === lobbyId,
    );
    expect(changes.map((e) => e.data.change)).toEqual(['added', 'updated', 'updated']);
  });

  it('PUT refuses an unknown lobby, a foreign one, an unknown user and bad fields', async () => {
    const lobbyId = await newLobby();
    expect(
      (await world.fail('PutMember', bot, { lobby_id: '1', user_id: ALICE, body_json: '{}' })).code,
    ).toBe(10031);
    expect(
      (await world.fail('PutMember', otherBot, { lobby_id: lobbyId, user_id: ALICE, body_json: '{}' })).code,
    ).toBe(10031);
    expect(
      (await world.fail('PutMember', bot, { lobby_id: lobbyId, user_id: UNKNOWN_USER, body_json: '{}' }))
        .code,
    ).toBe(10013);
    expect(
      (await world.fail('PutMember', bot, { lobby_id: lobbyId, user_id: 'me', body_json: '{}' })).code,
    ).toBe(50035);
    const long = await world.fail('PutMember', bot, {
      lobby_id: lobbyId,
      user_id: ALICE,
      body_json: JSON.stringify({ additional_name: 'x'.repeat(81) }),
    });
    expect(long.toBody().errors).toHaveProperty('additional_name');
    expect((await world.call('GetLobby', bot, { lobby_id: lobbyId })).members).toEqual([]);
  });

  it('DELETE removes a member idempotently, @me leaves, and an unknown lobby is 10031', async () => {
    const lobbyId = await newLobby([{ id: ALICE }, { id: BOB }]);
    expect(await world.call('RemoveMember', bot, { lobby_id: lobbyId, user_id: ALICE })).toBeUndefined();
    expect(await world.call('RemoveMember', bot, { lobby_id: lobbyId, user_id: ALICE })).toBeUndefined();
    expect(await world.call('RemoveMember', as(BOB), { lobby_id: lobbyId, user_id: '@me' })).toBeUndefined();
    expect((await world.call('GetLobby', bot, { lobby_id: lobbyId })).members).toEqual([]);
    expect((await world.fail('RemoveMember', bot, { lobby_id: '42', user_id: ALICE })).code).toBe(10031);
    expect(
      (await world.fail('RemoveMember', as(ALICE, OTHER_APP), { lobby_id: lobbyId, user_id: '@me' })).code,
    ).toBe(10031);
    const left = (await world.events('acs.lobby.lobby.deleted')).filter((e) => e.data.lobby_id === lobbyId);
    expect(left.map((e) => [e.data.reason, e.data.user_ids])).toEqual([
      ['removed', [ALICE]],
      ['removed', [BOB]],
    ]);
  });
});

describe('POST /lobbies/{id}/members/bulk', () => {
  it('adds, updates and removes, answering the upserted members', async () => {
    const lobbyId = await newLobby([{ id: ALICE }, { id: BOB }]);
    const result = await world.call('BulkUpdateMembers', bot, {
      lobby_id: lobbyId,
      body_json: JSON.stringify([
        { id: ALICE, metadata: { x: '1' } },
        { id: BOB, remove_member: true },
        { id: CAROL, flags: 1 },
      ]),
    });
    expect(result).toEqual([
      { id: ALICE, metadata: { x: '1' }, flags: 0 },
      { id: CAROL, metadata: null, flags: 1 },
    ]);
    const lobby = await world.call('GetLobby', bot, { lobby_id: lobbyId });
    expect(lobby.members.map((m: { id: string }) => m.id)).toEqual([ALICE, CAROL]);
  });

  it.each([
    ['0 entries', []],
    ['26 entries', USERS.slice(0, 26).map((id) => ({ id }))],
    ['an object', { id: USERS[0] }],
    ['a bad remove_member', [{ id: USERS[0], remove_member: 'yes' }]],
    ['a missing id', [{ metadata: {} }]],
  ])('refuses %s with 400 / 50035 and writes nothing', async (_name, body) => {
    const lobbyId = await newLobby([{ id: ALICE }]);
    const error = await world.fail('BulkUpdateMembers', bot, {
      lobby_id: lobbyId,
      body_json: JSON.stringify(body),
    });
    expect([error.httpStatus, error.code]).toEqual([400, 50035]);
    expect((await world.call('GetLobby', bot, { lobby_id: lobbyId })).members).toHaveLength(1);
  });

  it('accepts 25 entries, and refuses an unknown user with 404 / 10013 writing nothing', async () => {
    const lobbyId = await newLobby();
    const ok = await world.call('BulkUpdateMembers', bot, {
      lobby_id: lobbyId,
      body_json: JSON.stringify(USERS.slice(0, 25).map((id) => ({ id }))),
    });
    expect(ok).toHaveLength(25);
    const error = await world.fail('BulkUpdateMembers', bot, {
      lobby_id: lobbyId,
      body_json: JSON.stringify([{ id: USERS[0], remove_member: true }, { id: UNKNOWN_USER }]),
    });
    expect([error.httpStatus, error.code]).toEqual([404, 10013]);
    expect((await world.call('GetLobby', bot, { lobby_id: lobbyId })).members).toHaveLength(25);
    expect(
      (await world.fail('BulkUpdateMembers', otherBot, { lobby_id: lobbyId, body_json: '[{"id":"1"}]' }))
        .code,
    ).toBe(10031);
  });

  it('drops users past 1,000 members or at 100 lobbies silently; PUT refuses them', async () => {
    const lobbyId = await newLobby();
    // 999 members already (made-up user ids: the limit counts rows, not users oauth knows).
    await world.pool.query(
      `INSERT INTO lobby_member (lobby_id, user_id, application_id)
       SELECT $1, 1900000000000000000 + n, $2 FROM generate_series(1, 999) AS n`,
      [lobbyId, APP],
    );
    const result = await world.call('BulkUpdateMembers', bot, {
      lobby_id: lobbyId,
      body_json: JSON.stringify([{ id: ALICE }, { id: BOB }]),
    });
    expect(result.map((m: { id: string }) => m.id)).toEqual([ALICE]);
    const full = await world.fail('PutMember', bot, { lobby_id: lobbyId, user_id: CAROL, body_json: '{}' });
    expect([full.httpStatus, full.code]).toEqual([400, 50035]);

    // CAROL in 100 lobbies of the application.
    const other = await newLobby();
    const lobbies = await world.pool.query<{ id: string }>(
      `INSERT INTO lobby (id, application_id, idle_timeout_seconds, expires_at)
       SELECT 1950000000000000000 + n, $1, 300, now() + interval '1 hour' FROM generate_series(1, 100) AS n RETURNING id::text`,
      [APP],
    );
    await world.pool.query(
      `INSERT INTO lobby_member (lobby_id, user_id, application_id) SELECT unnest($1::bigint[]), $2, $3`,
      [lobbies.rows.map((r) => r.id), CAROL, APP],
    );
    const dropped = await world.call('BulkUpdateMembers', bot, {
      lobby_id: other,
      body_json: JSON.stringify([{ id: CAROL }, { id: BOB }]),
    });
    expect(dropped.map((m: { id: string }) => m.id)).toEqual([BOB]);
    expect(
      (await world.fail('PutMember', bot, { lobby_id: other, user_id: CAROL, body_json: '{}' })).code,
    ).toBe(50035);
    // CAROL in another application's lobby is not counted.
    const elsewhere = await world.call('CreateLobby', otherBot, {
      body_json: JSON.stringify({ members: [{ id: CAROL }] }),
    });
    expect(elsewhere.members).toHaveLength(1);
  });
});
