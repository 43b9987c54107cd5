import { copyUnmergedMembers } from '../../src/store/copy-unmerged-members';
import { APP, OTHER_APP, USERS, startLobbyWorld, type LobbyWorld } from './lobby-world';

// The lobby side of an unmerge (oauth.user.unmerged, facts A.4b): the full account's
// memberships of the application's lobbies are copied to the new provisional account, with
// their metadata, flags and additional name; the full account stays a member ([Inf]: the
// facts say "copied"), other applications' lobbies are not touched, and a redelivered
// event copies nothing more.

const [FULL, PROVISIONAL, OTHER] = USERS.slice(20, 23) as [string, string, string];

let world: LobbyWorld;
beforeAll(async () => {
  world = await startLobbyWorld();
}, 60_000);
afterAll(() => world.close());

async function newLobby(members: object[], app = APP): Promise<string> {
  return (await world.call('CreateLobby', { app }, { body_json: JSON.stringify({ members }) })).id as string;
}

async function membersOf(lobbyId: string): Promise<Record<string, unknown>[]> {
  const { rows } = await world.pool.query(
    `SELECT user_id::text AS id, metadata, flags FROM "lobby"."lobby_member" WHERE lobby_id = $1 ORDER BY user_id`,
    [lobbyId],
  );
  return rows as Record<string, unknown>[];
}

it('copies the full account’s memberships of the app to the new provisional account, once', async () => {
  const shared = await newLobby([{ id: FULL, metadata: { role: 'captain' }, flags: 1 }, { id: OTHER }]);
  const elsewhere = await newLobby([{ id: FULL }], OTHER_APP);
  const unmerge = { applicationId: APP, fullUserId: FULL, provisionalUserId: PROVISIONAL };
  expect(await copyUnmergedMembers(world.pool, unmerge)).toBe(1);
  expect(await membersOf(shared)).toEqual(
    [
      { id: FULL, metadata: { role: 'captain' }, flags: 1 },
      { id: PROVISIONAL, metadata: { role: 'captain' }, flags: 1 },
      { id: OTHER, metadata: null, flags: 0 },
    ].sort((a, b) => a.id.localeCompare(b.id)),
  );
  expect((await membersOf(elsewhere)).map((m) => m.id)).toEqual([FULL]);
  // The event again: nothing more.
  expect(await copyUnmergedMembers(world.pool, unmerge)).toBe(0);
  expect(await membersOf(shared)).toHaveLength(3);
});
