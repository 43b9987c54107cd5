import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { expectSchema } from './helpers/openapi-validator';
import { createDemoWorld, createUser, startTestStack, type DemoWorld, type TestStack } from './support';

/**
 * POST /users/@me/channels through the whole stack: api-gateway asks oauth for the
 * recipients and permissions opens the channel; a bot (through @discordjs/rest, as
 * discord.js's `User.createDM` sends it) and a user's session reach the same DM.
 */
let stack: TestStack;
let world: DemoWorld;
let session: string;

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  session = (await stack.admin('POST', `/admin/users/${world.user.id}/sessions`)).body.token;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

async function open(authorization: string, body: unknown) {
  const answer = await fetch(`${stack.apiUrl}/api/v10/users/@me/channels`, {
    method: 'POST',
    headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as any };
}

describe('POST /users/@me/channels', () => {
  it('gives a bot and a user the same DM, each seeing the other as recipient', async () => {
    const rest = new REST({ api: `${stack.apiUrl}/api`, version: '10' }).setToken(world.application.botToken);
    const fromBot = (await rest.post(Routes.userChannels(), {
      body: { recipient_id: world.user.id },
    })) as any;
    expectSchema('PrivateChannelResponse', fromBot);
    expect(fromBot).toMatchObject({ type: 1, last_message_id: null, flags: 0 });
    expect(fromBot.recipients).toEqual([
      expect.objectContaining({ id: world.user.id, username: world.user.username }),
    ]);
    expect(fromBot.recipients[0]).not.toHaveProperty('email');
    expect(fromBot.recipients[0]).not.toHaveProperty('locale');

    const fromUser = await open(session, { recipients: [world.application.id] });
    expect(fromUser.status).toBe(200);
    expect(fromUser.body.id).toBe(fromBot.id);
    expect(fromUser.body.recipients).toEqual([
      expect.objectContaining({ id: world.application.id, bot: true }),
    ]);
  });

  it('opens a group DM for a user with several others', async () => {
    const friend = await createUser(stack, { username: 'friend' });
    const group = await open(session, { recipients: [friend.id, world.application.id] });
    expect(group.status).toBe(200);
    expectSchema('PrivateGroupChannelResponse', group.body);
    expect(group.body).toMatchObject({ type: 3, owner_id: world.user.id, name: null, icon: null });
    expect(group.body.recipients.map((u: { id: string }) => u.id).sort()).toEqual(
      [friend.id, world.application.id].sort(),
    );
  });

  it('refuses unknown recipients and oneself with 50033, and a Bearer token with 401', async () => {
    const invalid = { status: 400, body: { code: 50033, message: 'Invalid Recipient(s)' } };
    expect(await open(`Bot ${world.application.botToken}`, { recipient_id: '99999999999999999' })).toEqual(
      invalid,
    );
    expect(await open(session, { recipient_id: world.user.id })).toEqual(invalid);
    expect(await open('Bearer not-a-token', { recipient_id: world.user.id })).toEqual({
      status: 401,
      body: { code: 0, message: '401: Unauthorized' },
    });
  });
});
