import type { Pool, PoolClient } from 'pg';
import { moveMergedMembers } from '../../src/store/move-merged-members';
import { APP, OTHER_APP, USERS, startLobbyWorld, type LobbyWorld } from './lobby-world';

// The lobby side of a merge (oauth.user.merged): the provisional account's memberships of
// the application's lobbies move to the full account in one transaction, idempotently, so
// that a redelivered event (after a crash before its ack) changes nothing more; the same
// transaction announces the merge's completion (lobby.merge.completed), so a crash midway
// leaves nothing moved and nothing announced, and the redelivery finishes the merge.

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
  const merge = {
    mergeOperationId: '5000',
    applicationId: APP,
    sourceUserId: PROVISIONAL,
    destinationUserId: FULL,
  };
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

async function completions(operationId: string): Promise<unknown[]> {
  return (await world.events('acs.lobby.merge.completed'))
    .map((event) => event.data as Record<string, unknown>)
    .filter((data) => data.merge_operation_id === operationId);
}

/** The pool, but its connections fail the membership UPDATE: a process dying midway through the move. */
function crashingBeforeUpdate(pool: Pool): Pool {
  return {
    connect: async () => {
      const client = await pool.connect();
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      return new Proxy(client, {
        get(target, key, receiver) {
          if (key !== 'query') return Reflect.get(target, key, receiver) as unknown;
          return (text: unknown, ...rest: unknown[]) =>
            typeof text === 'string' && text.includes('UPDATE "lobby"."lobby_member"')
              ? Promise.reject(new Error('the process died'))
              : query(text, ...rest);
        },
      }) as PoolClient;
    },
  } as unknown as Pool;
}

it('leaves everything as it was when the move dies midway, and finishes on the redelivery', async () => {
  const [source, destination, other] = USERS.slice(10, 13) as [string, string, string];
  const alone = await newLobby([source, other]);
  const both = await newLobby([source, destination]);
  const merge = {
    mergeOperationId: '5001',
    applicationId: APP,
    sourceUserId: source,
    destinationUserId: destination,
  };

  // The first delivery dies after the DELETE of the shared lobby's membership: it rolls back.
  await expect(moveMergedMembers(crashingBeforeUpdate(world.pool), merge)).rejects.toThrow(
    'the process died',
  );
  expect(await membersOf(alone)).toEqual([source, other].sort());
  expect(await membersOf(both)).toEqual([source, destination].sort());
  expect(await completions('5001')).toEqual([]);

  // The redelivery (the event was not acknowledged) completes the merge and announces it.
  expect(await moveMergedMembers(world.pool, merge)).toBe(1);
  expect(await membersOf(alone)).toEqual([destination, other].sort());
  expect(await membersOf(both)).toEqual([destination]);
  expect(await completions('5001')).toEqual([
    {
      merge_operation_id: '5001',
      application_id: APP,
      source_user_id: source,
      destination_user_id: destination,
    },
  ]);
});
