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
