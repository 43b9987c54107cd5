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
  // A timeout of 1 s (25 idle seconds of 40 ms): wide enough for a call's latency on a busy machine.
  const lobby = await world.call('CreateLobby', bot, {
    body_json: JSON.stringify({ idle_timeout_seconds: 25, members: [{ id: ALICE }] }),
  });
  // A message every ~half timeout for twice the timeout.
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setTimeout(resolve, 550));
    await world.call(
      'CreateMessage',
      { app: APP, user: ALICE },
      { lobby_id: lobby.id, body_json: '{"content":"ping"}' },
    );
  }
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
