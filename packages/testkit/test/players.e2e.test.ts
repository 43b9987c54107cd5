import { startTestStack, type TestStack } from '../../../test/support';
import { connectAcs, type World } from '../src';

/**
 * Players of a game without a chat account (Social SDK provisional accounts): the world's
 * app makes them with its Bot Token Endpoint, they meet in a lobby by its secret and chat;
 * destroying the world deletes them.
 */
let stack: TestStack;
let world: World;

beforeAll(async () => {
  stack = await startTestStack();
  const acs = await connectAcs({ url: stack.apiUrl, adminToken: stack.adminToken, quietMs: 300 });
  world = await acs.createWorld({ users: ['alice'] });
});

afterAll(async () => {
  await world?.destroy();
  await stack?.stop();
});

it('makes provisional players who meet in a lobby and chat, and deletes them with the world', async () => {
  const ada = await world.player('steam-1001', { name: 'Ada' });
  const bo = await world.player('steam-1002');
  expect(ada.id).not.toBe(bo.id);
  // The same player id in the game is the same account.
  expect((await world.player('steam-1001')).id).toBe(ada.id);
  expect(await ada.me()).toMatchObject({ id: ada.id, global_name: 'Ada', public_flags: 1 << 23 });

  const lobby = await ada.joinLobby('match-1', { metadata: { map: 'dust' } });
  expect((await bo.joinLobby('match-1')).id).toBe(lobby.id);
  expect(lobby.metadata).toEqual({ map: 'dust' });
  await ada.sendLobbyMessage(lobby, 'gl hf');
  const sent = await bo.sendLobbyMessage(lobby.id, 'you too');
  expect(sent.author).toMatchObject({ id: bo.id });
  expect((await ada.lobbyMessages(lobby)).map((m) => m.content)).toEqual(['you too', 'gl hf']);
  await bo.leaveLobby(lobby);
  expect((await bo.call('GET', `/lobbies/${lobby.id}/messages`)).status).toBe(403);
  await expect(bo.sendLobbyMessage(lobby, 'back?')).rejects.toThrow(/as player steam-1002 failed:\nHTTP 403/);
  expect(world.transcript()).toContain('steam-1001 in lobby');

  await world.destroy();
  expect((await ada.call('GET', '/users/@me')).status).toBe(401);
});

it('takes a deleted player out of their lobbies', async () => {
  const world2 = await (
    await connectAcs({ url: stack.apiUrl, adminToken: stack.adminToken, quietMs: 300 })
  ).createWorld();
  try {
    const cy = await world2.player('steam-2001');
    const di = await world2.player('steam-2002');
    const lobby = await cy.joinLobby('match-2');
    await di.joinLobby('match-2');
    expect((await stack.admin('DELETE', `/admin/users/${cy.id}`)).status).toBe(204);
    const members = async () => {
      const read = await fetch(`${stack.apiUrl}/api/v10/lobbies/${lobby.id}`, {
        headers: { Authorization: `Bot ${world2.app.botToken}` },
      });
      return ((await read.json()) as { members: { id: string }[] }).members.map((m) => m.id);
    };
    // The deletion reaches lobby through its event: read until it has (30 s at most).
    let left = await members();
    for (const until = Date.now() + 30_000; left.includes(cy.id) && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await members();
    }
    expect(left).toEqual([di.id]);
  } finally {
    await world2.destroy();
  }
});
