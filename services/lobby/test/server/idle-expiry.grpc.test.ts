import { createLogger } from '@acs/service-kit';
import { IdleSweeper } from '../../src/store/idle-sweeper';
import { APP, USERS, startLobbyWorld, type LobbyWorld } from './lobby-world';

const bot = { app: APP };
const [ALICE] = USERS as [string];

// One idle second lasts 40 ms: the minimum timeout (5 s) is 200 ms.
let world: LobbyWorld;
beforeAll(async () => {
  world = await startLobbyWorld({ idleSecondMs: 40 });
}, 60_000);
afterAll(() => world.close());

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('removes a lobby idle past its timeout: unknown at once, swept with LOBBY_DELETE to its members', async () => {
  const idle = await world.call('CreateLobby', bot, {
    body_json: JSON.stringify({ idle_timeout_seconds: 5, members: [{ id: ALICE }] }),
  });
  const lasting = await world.call('CreateLobby', bot, {
    body_json: JSON.stringify({ idle_timeout_seconds: 3600 }),
  });
  const error = await until(() => world.fail('GetLobby', bot, { lobby_id: idle.id }).catch(() => undefined));
  expect(error.code).toBe(10031);
  expect(await world.store.sweep()).toBeGreaterThanOrEqual(1);
  const { rows } = await world.pool.query('SELECT id::text FROM lobby');
  expect(rows.map((r) => r.id)).toEqual([lasting.id]);
  const [deleted] = (await world.events('acs.lobby.lobby.deleted')).filter(
    (e) => e.data.lobby_id === idle.id,
  );
  expect(deleted.data).toEqual({
    application_id: APP,
    lobby_id: idle.id,
    user_ids: [ALICE],
    reason: 'deleted',
  });
});

it('keeps a lobby alive while something happens in it', async () => {
  // Its timer moved (in SQL) to end in 30 s; a message restarts the whole timeout (3600 idle
  // seconds of 40 ms: 144 s), whatever the machine's speed.
  const lobby = await world.call('CreateLobby', bot, {
    body_json: JSON.stringify({ idle_timeout_seconds: 3600, members: [{ id: ALICE }] }),
  });
  const moved = await world.pool.query<{ expires_at: Date }>(
    `UPDATE lobby SET expires_at = now() + interval '30 seconds' WHERE id = $1 RETURNING expires_at`,
    [lobby.id],
  );
  await world.call(
    'CreateMessage',
    { app: APP, user: ALICE },
    { lobby_id: lobby.id, body_json: '{"content":"ping"}' },
  );
  const { rows } = await world.pool.query<{ extended: boolean }>(
    `SELECT expires_at > $2::timestamptz + interval '60 seconds' AS extended FROM lobby WHERE id = $1`,
    [lobby.id, moved.rows[0]!.expires_at],
  );
  expect(rows).toEqual([{ extended: true }]);
  expect((await world.call('GetLobby', bot, { lobby_id: lobby.id })).id).toBe(lobby.id);
});

it('is swept by the IdleSweeper on its own', async () => {
  const sweeper = new IdleSweeper(world.store, 50, createLogger('lobby-test', 'silent'));
  sweeper.start();
  try {
    const lobby = await world.call('CreateLobby', bot, {
      body_json: JSON.stringify({ idle_timeout_seconds: 5 }),
    });
    await until(async () => {
      const { rowCount } = await world.pool.query('SELECT 1 FROM lobby WHERE id = $1', [lobby.id]);
      return rowCount === 0 ? true : undefined;
    });
  } finally {
    await sweeper.stop();
  }
});
