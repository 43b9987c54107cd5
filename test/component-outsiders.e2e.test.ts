import { InteractionResponseType, InteractionType, MessageComponentTypes } from 'discord-interactions';
import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import {
  createApplication,
  createDemoWorld,
  createGuild,
  createUser,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser, type Answer } from './support/chat-user';

/**
 * Components and modals are used by members only (issue 28, finding 2): in a guild, a
 * component interaction or a modal submit is refused exactly as a command invocation is
 * when the user is not a member now (never one, removed after the message was posted, a
 * member of another guild, removed between opening a modal and submitting it) or cannot
 * view the channel, and the application receives nothing. A member still uses them and the
 * app receives the member as stored; DMs and user installs keep working.
 */
let stack: TestStack;
let world: DemoWorld;
let owner: ChatUser;
let app: { id: string; bot_token: string; verify_key: string };
let endpoint: InteractionsEndpoint;
let command: { id: string; name: string; type: number; version: string };
let extraRole: { id: string };

const VIEW_CHANNEL = 1n << 10n;

/** The message the app posts: a button that replies, a button that opens a modal, a select. */
const panel = {
  content: 'Front door',
  components: [
    {
      type: MessageComponentTypes.ACTION_ROW,
      components: [
        { type: MessageComponentTypes.BUTTON, style: 1, label: 'Knock', custom_id: 'knock' },
        { type: MessageComponentTypes.BUTTON, style: 2, label: 'Sign', custom_id: 'sign' },
      ],
    },
    {
      type: MessageComponentTypes.ACTION_ROW,
      components: [
        {
          type: MessageComponentTypes.STRING_SELECT,
          custom_id: 'mood',
          options: [
            { label: 'Happy', value: 'happy' },
            { label: 'Sad', value: 'sad' },
          ],
        },
      ],
    },
  ],
};

const guestbook = {
  custom_id: 'guestbook',
  title: 'Guest book',
  components: [
    {
      type: 18,
      label: 'Your name',
      component: { type: 4, custom_id: 'name', style: 1 },
    },
  ],
};

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  owner = await ChatUser.open(stack, world.user.id);
  app = await createApplication(stack, {
    name: 'Door App',
    owner_id: world.user.id,
    integration_types: [0, 1],
  });
  endpoint = await new InteractionsEndpoint(app.verify_key).start();
  endpoint.answer = (interaction) => {
    if (interaction.type === InteractionType.APPLICATION_COMMAND) {
      return {
        status: 200,
        body: { type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: panel },
      };
    }
    if (interaction.type === InteractionType.MESSAGE_COMPONENT && interaction.data.custom_id === 'sign') {
      return { status: 200, body: { type: InteractionResponseType.MODAL, data: guestbook } };
    }
    return {
      status: 200,
      body: { type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { content: 'Come in' } },
    };
  };
  expect(
    (await stack.admin('PATCH', `/admin/applications/${app.id}`, { interactions_endpoint_url: endpoint.url }))
      .status,
  ).toBe(200);
  await installApplication(stack, { applicationId: app.id, userId: world.user.id, guildId: world.guild.id });
  const put = await api(stack, 'PUT', `/applications/${app.id}/guilds/${world.guild.id}/commands`, {
    token: `Bot ${app.bot_token}`,
    body: [{ name: 'door', description: 'Shows the door' }],
  });
  expect(put.status).toBe(200);
  command = put.body[0];
  const role = await stack.admin('POST', `/admin/guilds/${world.guild.id}/roles`, {
    name: 'guest',
    permissions: '0',
  });
  expect(role.status).toBe(201);
  extraRole = role.body;
});

afterAll(async () => {
  await endpoint?.stop();
  await stack?.stop();
});

/** The member objects the admin API answered when each user was added, by user id. */
const addedMembers = new Map<string, { joined_at: string; roles: string[] }>();

/** A new user with a session; a member of the demo guild (with the demo and guest roles) when asked. */
async function newUser(username: string, { member }: { member: boolean }): Promise<ChatUser> {
  const user = await createUser(stack, { username });
  if (member) {
    const roles = [world.role.id, extraRole.id];
    const put = await stack.admin('PUT', `/admin/guilds/${world.guild.id}/members/${user.id}`, { roles });
    expect(put.status).toBe(201);
    addedMembers.set(user.id, put.body);
  }
  return ChatUser.open(stack, user.id);
}

async function removeMember(user: ChatUser): Promise<void> {
  const removed = await stack.admin('DELETE', `/admin/guilds/${world.guild.id}/members/${user.userId}`);
  expect(removed.status).toBe(204);
}

/** The owner runs /door: the app posts the panel in the demo channel. */
async function postPanel(): Promise<string> {
  const invoked = await owner.invoke({
    type: 2,
    application_id: app.id,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    data: { id: command.id, name: command.name, type: command.type, version: command.version },
  });
  expect(invoked.body).toMatchObject({ outcome: 'success', response: { type: 4 } });
  return invoked.body.messages[0].id as string;
}

const knock = (messageId: string, guildId = world.guild.id) => ({
  type: 3,
  application_id: app.id,
  guild_id: guildId,
  channel_id: world.channel.id,
  message_id: messageId,
  data: { component_type: 2, custom_id: 'knock' },
});

const pickMood = (messageId: string) => ({
  ...knock(messageId),
  data: { component_type: 3, custom_id: 'mood', values: ['sad'] },
});

const sign = (messageId: string) => ({
  ...knock(messageId),
  data: { component_type: 2, custom_id: 'sign' },
});

const submitGuestbook = (openedBy: string) => ({
  type: 5,
  application_id: app.id,
  guild_id: world.guild.id,
  channel_id: world.channel.id,
  data: {
    id: openedBy,
    custom_id: 'guestbook',
    components: [{ type: 18, component: { type: 4, custom_id: 'name', value: 'Eve' } }],
  },
});

/** What a command invocation by `user` answers (the reference a refusal is compared with). */
async function invokeCommand(user: ChatUser): Promise<Answer> {
  return user.invoke({
    type: 2,
    application_id: app.id,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    data: { id: command.id, name: command.name, type: command.type, version: command.version },
  });
}

const NOT_A_MEMBER = {
  status: 400,
  body: {
    code: 50035,
    message: 'Invalid Form Body',
    errors: {
      data: {
        _errors: [
          {
            code: 'INTERACTION_APPLICATION_COMMAND_INVALID',
            message: 'You do not have permission to use this command here',
          },
        ],
      },
    },
  },
};

/** Sends `body` as `user` and expects the refusal `expected`, with nothing delivered to the app. */
async function expectRefused(user: ChatUser, body: Record<string, unknown>, expected: unknown) {
  const before = endpoint.received.length;
  const answer = await user.invoke(body);
  expect({ status: answer.status, body: answer.body }).toEqual(expected);
  // Let a delivery that should not have happened arrive before counting.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(endpoint.received.length).toBe(before);
}

describe('components and modals in a guild', () => {
  it('a member uses them, and the app receives the member as stored', async () => {
    const messageId = await postPanel();
    const guest = await newUser('guest', { member: true });
    const from = endpoint.received.length;
    const knocked = await guest.invoke(knock(messageId));
    expect(knocked.status).toBe(200);
    expect(knocked.body).toMatchObject({ outcome: 'success', response: { type: 4 } });
    const received = await endpoint.next(from);
    expect(received).toMatchObject({ type: 3, guild_id: world.guild.id, data: { custom_id: 'knock' } });
    const stored = addedMembers.get(guest.userId);
    expect(received.member).toMatchObject({
      roles: expect.arrayContaining([world.role.id, extraRole.id]),
      joined_at: stored?.joined_at,
      permissions: expect.stringMatching(/^\d+$/),
      user: { id: guest.userId },
    });
    expect(received.member.roles).toHaveLength(2);
    expect(BigInt(received.member.permissions) & VIEW_CHANNEL).toBe(VIEW_CHANNEL);
  });

  it('refuses a user who was never a member, as a command invocation by them is refused', async () => {
    const messageId = await postPanel();
    const stranger = await newUser('stranger', { member: false });
    const asCommand = await invokeCommand(stranger);
    expect({ status: asCommand.status, body: asCommand.body }).toEqual(NOT_A_MEMBER);
    await expectRefused(stranger, knock(messageId), NOT_A_MEMBER);
    await expectRefused(stranger, pickMood(messageId), NOT_A_MEMBER);
    await expectRefused(stranger, sign(messageId), NOT_A_MEMBER);
  });

  it('refuses a member removed after the message was posted', async () => {
    const messageId = await postPanel();
    const leaver = await newUser('leaver', { member: true });
    const from = endpoint.received.length;
    expect((await leaver.invoke(knock(messageId))).status).toBe(200);
    await endpoint.next(from);
    await removeMember(leaver);
    await expectRefused(leaver, knock(messageId), NOT_A_MEMBER);
    await expectRefused(leaver, pickMood(messageId), NOT_A_MEMBER);
  });

  it("refuses a member of another guild who names this guild's message", async () => {
    const messageId = await postPanel();
    const elsewhere = await newUser('elsewhere', { member: false });
    const other = await createGuild(stack, { name: 'Other place', owner_id: elsewhere.userId });
    expect(other.id).not.toBe(world.guild.id);
    await expectRefused(elsewhere, knock(messageId), NOT_A_MEMBER);
    // Naming their own guild instead: the message is not there.
    const misplaced = await elsewhere.invoke(knock(messageId, other.id));
    expect({ status: misplaced.status, code: misplaced.body.code }).toEqual({ status: 404, code: 10008 });
  });

  it('refuses a modal opened by a member and submitted after they were removed', async () => {
    const messageId = await postPanel();
    const signer = await newUser('signer', { member: true });
    const opened = await signer.invoke(sign(messageId));
    expect(opened.body).toMatchObject({ outcome: 'success', response: { type: 9 } });
    await removeMember(signer);
    await expectRefused(signer, submitGuestbook(opened.body.interaction.id), NOT_A_MEMBER);
  });

  it('refuses a member who cannot view the channel with 403 / 50001, as a command', async () => {
    const messageId = await postPanel();
    const blind = await newUser('blind', { member: true });
    // The demo channel has no overwrites of its own: this one is the only one.
    const patched = await stack.admin('PATCH', `/admin/channels/${world.channel.id}`, {
      permission_overwrites: [{ id: blind.userId, type: 1, allow: '0', deny: VIEW_CHANNEL.toString() }],
    });
    expect(patched.status).toBe(200);
    const missingAccess = { status: 403, body: { code: 50001, message: 'Missing Access' } };
    const asCommand = await invokeCommand(blind);
    expect({ status: asCommand.status, body: asCommand.body }).toEqual(missingAccess);
    await expectRefused(blind, knock(messageId), missingAccess);
    await expectRefused(blind, pickMood(messageId), missingAccess);
  });
});

describe('outside a guild and through a user install', () => {
  it('a user-installed app’s components work in its installer’s DM with the bot and in a guild it is not in', async () => {
    const installer = await newUser('installer', { member: false });
    const authorized = await stack.admin('POST', '/admin/oauth2/authorize', {
      client_id: app.id,
      user_id: installer.userId,
      scope: 'applications.commands',
      integration_type: 1,
    });
    expect(authorized.status).toBe(200);
    const created = await api(stack, 'POST', `/applications/${app.id}/commands`, {
      token: `Bot ${app.bot_token}`,
      body: { name: 'porch', description: 'Anywhere', integration_types: [1], contexts: [0, 1, 2] },
    });
    expect(created.status).toBe(201);
    const porch = created.body;
    const use = async (guildId: string | null, channelId: string) => {
      const place = { ...(guildId !== null ? { guild_id: guildId } : {}), channel_id: channelId };
      const invoked = await installer.invoke({
        type: 2,
        application_id: app.id,
        ...place,
        data: { id: porch.id, name: 'porch', type: 1, version: porch.version },
      });
      expect(invoked.body).toMatchObject({ outcome: 'success', response: { type: 4 } });
      const from = endpoint.received.length;
      const clicked = await installer.invoke({
        type: 3,
        application_id: app.id,
        ...place,
        message_id: invoked.body.messages[0].id,
        data: { component_type: 2, custom_id: 'knock' },
      });
      expect(clicked.status).toBe(200);
      expect(clicked.body).toMatchObject({ outcome: 'success', response: { type: 4 } });
      return endpoint.next(from);
    };

    // The DM with the app's bot: `user`, no member.
    const dm = await api(stack, 'POST', '/users/@me/channels', {
      token: installer.token,
      body: { recipient_id: app.id },
    });
    expect(dm.status).toBe(200);
    const inDm = await use(null, dm.body.id);
    expect(inDm).toMatchObject({ type: 3, context: 1, user: { id: installer.userId } });
    expect(inDm.member).toBeUndefined();

    // A guild of theirs the app is not installed in: authorized by the user install.
    const own = await createGuild(stack, { name: 'Home', owner_id: installer.userId });
    const talk = await stack.admin('POST', `/admin/guilds/${own.id}/channels`, { name: 'talk', type: 0 });
    expect(talk.status).toBe(201);
    const inGuild = await use(own.id, talk.body.id);
    expect(inGuild).toMatchObject({
      type: 3,
      context: 0,
      authorizing_integration_owners: { '1': installer.userId },
      member: { user: { id: installer.userId } },
    });
  });
});
