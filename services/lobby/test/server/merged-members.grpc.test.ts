import { moveMergedMembers } from '../../src/store/move-merged-members';
import { APP, OTHER_APP, USERS, startLobbyWorld, type LobbyWorld } from './lobby-world';

// The lobby side of a merge (oauth.user.merged): the provisional account's memberships of
// the application's lobbies move to the full account in one transaction, idempotently, so
// that a redelivered event (after a crash before its ack) changes nothing more.

const [PROVISIONAL, FULL, OTHER] = USERS as [string, string, string];

let world: LobbyWorld;
beforeAll(async () => {
  world = await startLobbyWorld();
}, 60_000);
afterAll(() => world.close());

async function newLobby(members: string[], app = APP): Promise<string> {
  const body = JSON.stringify({ members: members.map((id) => ({ id })) });
  return (await world.call('CreateLobby', { app }, { body_json: body })).id as string;
}

async function membersOf(lobbyId: string): Promise<string[]> {
  const { rows } = await world.pool.query(
    `SELECT user_id::text AS id FROM "lobby"."lobby_member" WHERE lobby_id = $1 ORDER BY user_id`,
    [lobbyId],
  );
  return rows.map((row) => row.id as string);
}

it('moves the memberships, keeps the full account’s where both were members, and is idempotent', async () => {
  const alone = await newLobby([PROVISIONAL, OTHER]);
  const both = await newLobby([PROVISIONAL, FULL]);
  const elsewhere = await newLobby([PROVISIONAL], OTHER_APP);
  const merge = { applicationId: APP, sourceUserId: PROVISIONAL, destinationUserId: FULL };
  expect(await moveMergedMembers(world.pool, merge)).toBe(1);
  expect(await membersOf(alone)).toEqual([OTHER, FULL].sort());
  expect(await membersOf(both)).toEqual([FULL]);
  // Another application's lobby is not the merge's.
  expect(await membersOf(elsewhere)).toEqual([PROVISIONAL]);
  // The event again (JetStream redelivers after a crash before the ack): nothing changes.
  expect(await moveMergedMembers(world.pool, merge)).toBe(0);
  expect(await membersOf(alone)).toEqual([OTHER, FULL].sort());
  expect(await membersOf(both)).toEqual([FULL]);
});
