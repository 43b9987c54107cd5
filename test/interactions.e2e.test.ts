import { Client, Events, GatewayIntentBits, MessageFlags } from 'discord.js';
import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import { expectSchema } from './helpers/openapi-validator';
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
import { api, ChatUser } from './support/chat-user';

/**
 * Interactions end to end (issue 10): a user invokes a command through
 * `POST /interactions` with a session token, the app receives it — over HTTP, verified with
 * discord-interactions' verifyKey, or as INTERACTION_CREATE on a discord.js Client — and
 * its answers reach the user: the `wait` outcome, and the user's gateway session
 * (INTERACTION_CREATE, INTERACTION_SUCCESS, MESSAGE_CREATE...).
 */
let stack: TestStack;
let world: DemoWorld;
let endpoint: InteractionsEndpoint;
let httpApp: { id: string; bot_token: string; verify_key: string };
let user: ChatUser;
let client: Client | undefined;
const opened: ChatUser[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  httpApp = await createApplication(stack, { name: 'HTTP App', owner_id: world.user.id });
  endpoint = await new InteractionsEndpoint(httpApp.verify_key).start();
  const saved = await stack.admin('PATCH', `/admin/applications/${httpApp.id}`, {
    interactions_endpoint_url: endpoint.url,
  });
  expect(saved.status).toBe(200);
  await installApplication(stack, {
    applicationId: httpApp.id,
    userId: world.user.id,
    guildId: world.guild.id,
  });
  user = await (await ChatUser.open(stack, world.user.id)).connect();
  opened.push(user);
});

afterAll(async () => {
  for (const u of opened) u.close();
  await client?.destroy();
  await endpoint?.stop();
  await stack?.stop();
});

/** Registers `commands` in the demo guild for `app` (bulk overwrite) and answers them by name. */
async function registerGuildCommands(
  app: { id: string; bot_token?: string; botToken?: string },
  commands: unknown[],
) {
  const put = await api(stack, 'PUT', `/applications/${app.id}/guilds/${world.guild.id}/commands`, {
    token: `Bot ${app.bot_token ?? app.botToken}`,
    body: commands,
  });
  expect(put.status).toBe(200);
  return Object.fromEntries((put.body as any[]).map((c) => [c.name, c]));
}

/** The invocation body of a guild command (its current version) with `options`. */
function invocation(app: { id: string }, command: any, extra: Record<string, unknown> = {}) {
  return {
    type: 2,
    application_id: app.id,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    data: { id: command.id, name: command.name, type: command.type, version: command.version, ...extra },
  };
}

describe('an HTTP endpoint app', () => {
  let commands: Record<string, any>;

  beforeAll(async () => {
    commands = await registerGuildCommands(httpApp, [
      { name: 'ping', description: 'Replies with pong' },
      {
        name: 'echo',
        description: 'Repeats',
        options: [
          { name: 'text', description: 'What', type: 3, required: true, max_length: 10 },
          { name: 'times', description: 'How often', type: 4, min_value: 1, max_value: 3 },
          {
            name: 'mood',
            description: 'How',
            type: 3,
            choices: [
              { name: 'Happy', value: 'happy' },
              { name: 'Sad', value: 'sad' },
            ],
          },
        ],
      },
      {
        name: 'city',
        description: 'Finds a city',
        options: [{ name: 'name', description: 'Its name', type: 3, required: true, autocomplete: true }],
      },
      { name: 'later', description: 'Answers later' },
      { name: 'Inspect', type: 2 },
    ]);
  });

  it('receives a signed, complete interaction and its inline answer reaches the user', async () => {
    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'Pong!' } } });
    const from = endpoint.received.length;
    const seen = user.gateway!.received.length;
    const invoked = await user.invoke(invocation(httpApp, commands.ping));
    expect(invoked.status).toBe(200);
    const interaction = await endpoint.next(from);

    // Every key of the interaction object (facts A1), with the default names.
    expect(interaction).toMatchObject({
      application_id: httpApp.id,
      type: 2,
      data: { id: commands.ping.id, name: 'ping', type: 1 },
      guild_id: world.guild.id,
      guild: { id: world.guild.id, features: expect.any(Array), locale: expect.any(String) },
      channel_id: world.channel.id,
      channel: { id: world.channel.id, type: 0 },
      member: { user: { id: world.user.id }, roles: expect.any(Array), permissions: expect.any(String) },
      version: 1,
      app_permissions: expect.stringMatching(/^\d+$/),
      locale: 'en-US',
      guild_locale: expect.any(String),
      entitlements: [],
      authorizing_integration_owners: { '0': world.guild.id },
      context: 0,
      attachment_size_limit: expect.any(Number),
    });
    expect(interaction.id).toMatch(/^\d+$/);
    expect(typeof interaction.token).toBe('string');
    expect(interaction.user).toBeUndefined();

    expect(invoked.body).toMatchObject({
      interaction: { id: interaction.id, type: 2 },
      outcome: 'success',
      response: { type: 4, data: { content: 'Pong!' } },
    });
    const [message] = invoked.body.messages;
    expect(message).toMatchObject({
      type: 20,
      content: 'Pong!',
      channel_id: world.channel.id,
      author: { id: httpApp.id, bot: true },
      webhook_id: httpApp.id,
      application_id: httpApp.id,
      interaction_metadata: { id: interaction.id, type: 2, user: { id: world.user.id } },
      edited_timestamp: null,
    });
    expect(Date.parse(message.timestamp)).not.toBeNaN();
    expectSchema('MessageResponse', message);

    // The user's session: INTERACTION_CREATE {id, nonce}, INTERACTION_SUCCESS, the message.
    const gateway = user.gateway!;
    const created = await gateway.next(
      (p) => p.t === 'INTERACTION_CREATE' && p.d.id === interaction.id,
      5000,
      seen,
    );
    expect(created.d.nonce).toMatch(/^\d+$/);
    const success = await gateway.next(
      (p) => p.t === 'INTERACTION_SUCCESS' && p.d.id === interaction.id,
      5000,
      seen,
    );
    expect(success.d.nonce).toBe(created.d.nonce);
    const posted = await gateway.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === message.id, 5000, seen);
    expect(posted.d).toMatchObject({ content: 'Pong!', guild_id: world.guild.id });
  });

  it('answers 204 without wait, and a replayed nonce does not invoke twice', async () => {
    const from = endpoint.received.length;
    const body = { ...invocation(httpApp, commands.ping), nonce: user.nonce() };
    const first = await user.invoke(body, { wait: false });
    expect(first.status).toBe(204);
    expect(first.body).toBeNull();
    await endpoint.next(from);
    const replayed = await user.invoke(body, { wait: false });
    expect(replayed.status).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(endpoint.received.length).toBe(from + 1);
  });

  it('refuses invalid invocations with Discord’s codes, and the app never sees them', async () => {
    const from = endpoint.received.length;
    const errorAt = (answer: { status: number; body: any }, path: string[]) => {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(50035);
      let node = answer.body.errors;
      for (const key of path) node = node?.[key];
      return node?._errors?.[0]?.code;
    };

    // An outdated version: the client's read-repair code at `data`.
    const outdated = await user.invoke({
      ...invocation(httpApp, commands.ping),
      data: { ...invocation(httpApp, commands.ping).data, version: '1' },
    });
    expect(errorAt(outdated, ['data'])).toBe('INTERACTION_APPLICATION_COMMAND_INVALID_VERSION');
    expect(outdated.body.errors.data._errors[0].message).toBe(
      'This command is outdated, please try again in a few minutes',
    );

    // Options: missing required, wrong type, out of range, not a choice, too long.
    const echo = (options: unknown[]) => user.invoke(invocation(httpApp, commands.echo, { options }));
    expect(errorAt(await echo([]), ['data', 'options'])).toBe(
      'INTERACTION_APPLICATION_COMMAND_OPTION_MISSING',
    );
    const wrongType = await echo([{ name: 'text', type: 3, value: 5 }]);
    expect(wrongType.status).toBe(400);
    expect(JSON.stringify(wrongType.body.errors)).toContain('data');
    const tooMany = await echo([
      { name: 'text', type: 3, value: 'hi' },
      { name: 'times', type: 4, value: 9 },
    ]);
    expect(errorAt(tooMany, ['data', 'options', '1', 'value'])).toBe(
      'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID',
    );
    const notAChoice = await echo([
      { name: 'text', type: 3, value: 'hi' },
      { name: 'mood', type: 3, value: 'angry' },
    ]);
    expect(errorAt(notAChoice, ['data', 'options', '1', 'value'])).toBe(
      'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID',
    );
    const tooLong = await echo([{ name: 'text', type: 3, value: 'x'.repeat(11) }]);
    expect(errorAt(tooLong, ['data', 'options', '0', 'value'])).toBe(
      'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID',
    );
    const unknownOption = await echo([{ name: 'nope', type: 3, value: 'x' }]);
    expect(unknownOption.status).toBe(400);

    // An unknown command, a renamed one (stale name), another app's command.
    const unknown = await user.invoke(invocation(httpApp, { ...commands.ping, id: '12345' }));
    expect(errorAt(unknown, ['data', 'id'])).toBe('INTERACTION_APPLICATION_COMMAND_INVALID');
    const stale = await user.invoke(invocation(httpApp, { ...commands.ping, name: 'pong' }));
    expect(errorAt(stale, ['data'])).toBe('INTERACTION_APPLICATION_COMMAND_INVALID');
    const foreign = await user.invoke(invocation({ id: world.application.id }, commands.ping));
    expect(foreign.status).toBe(400);

    // Malformed bodies and foreign credentials.
    const malformed = await fetch(`${stack.apiUrl}/api/v10/interactions`, {
      method: 'POST',
      headers: { Authorization: user.token, 'Content-Type': 'application/json' },
      body: '{"type": 2,',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: number }).code).toBe(50109);
    const asBot = await api(stack, 'POST', '/interactions', {
      token: `Bot ${httpApp.bot_token}`,
      body: invocation(httpApp, commands.ping),
    });
    expect(asBot.status).toBe(401);
    const nul = await user.invoke({
      ...invocation(httpApp, commands.echo, { options: [{ name: 'text', type: 3, value: 'a\u0000b' }] }),
    });
    expect(nul.status).toBe(400);

    await new Promise((r) => setTimeout(r, 200));
    expect(endpoint.received.length).toBe(from);
  });

  it('round-trips an autocomplete: one focused option, the choices reach the user', async () => {
    endpoint.answer = (interaction) => {
      const focused = interaction.data.options.find((o: any) => o.focused);
      return {
        status: 200,
        body: { type: 8, data: { choices: [{ name: `${focused.value}is`, value: 'paris' }] } },
      };
    };
    const seen = user.gateway!.received.length;
    const asked = await user.invoke({
      ...invocation(httpApp, commands.city, {
        options: [{ name: 'name', type: 3, value: 'Par', focused: true }],
      }),
      type: 4,
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      outcome: 'success',
      response: { type: 8, data: { choices: [{ name: 'Paris', value: 'paris' }] } },
    });
    const choices = await user.gateway!.next(
      (p) => p.t === 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
      5000,
      seen,
    );
    expect(choices.d.choices).toEqual([{ name: 'Paris', value: 'paris' }]);
    expect(choices.d.nonce).toMatch(/^\d+$/);

    const noFocus = await user.invoke({
      ...invocation(httpApp, commands.city, { options: [{ name: 'name', type: 3, value: 'Par' }] }),
      type: 4,
    });
    expect(noFocus.status).toBe(400);
    // A message answer to an autocomplete is refused at `type`.
    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'no' } } });
  });

  it('defers, then answers through the callback and webhook routes', async () => {
    endpoint.answer = () => ({ status: 202 });
    const from = endpoint.received.length;
    const waiting = user.invoke(invocation(httpApp, commands.later));
    const interaction = await endpoint.next(from);
    const callback = (body: unknown, query = '') =>
      api(stack, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback${query}`, { body });

    // Types that do not apply to a command are refused at `type`; then the defer.
    const wrongType = await callback({ type: 7, data: { content: 'x' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors.type).toBeDefined();
    const deferred = await callback({ type: 5 }, '?with_response=true');
    expect(deferred.status).toBe(200);
    expect(deferred.body).toMatchObject({
      interaction: {
        id: interaction.id,
        type: 2,
        response_message_loading: true,
        response_message_ephemeral: false,
      },
    });
    // A defer has no `resource`: Discord's OpenAPI allows only a message or an Activity there.
    expect(deferred.body.resource).toBeUndefined();
    expectSchema('InteractionCallbackResponse', deferred.body);
    const again = await callback({ type: 4, data: { content: 'twice' } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(40060);
    expect((await waiting).body).toMatchObject({ outcome: 'success', response: { type: 5 } });

    const hook = `/webhooks/${httpApp.id}/${interaction.token}`;
    const loading = await api(stack, 'GET', `${hook}/messages/@original`);
    expect(loading.status).toBe(200);
    expect(loading.body.flags & 128).toBe(128);
    const edited = await api(stack, 'PATCH', `${hook}/messages/@original`, { body: { content: 'Done.' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: loading.body.id, content: 'Done.' });
    // Filling the loading message is its first content, not an edit (the client shows no
    // "(edited)"); a second change is an edit.
    expect(edited.body.edited_timestamp).toBeNull();
    expect(edited.body.flags & 128).toBe(0);
    const reedited = await api(stack, 'PATCH', `${hook}/messages/@original`, { body: { content: 'Done!' } });
    expect(reedited.body.edited_timestamp).not.toBeNull();

    const followUp = await api(stack, 'POST', hook, { body: { content: 'One more thing' } });
    expect(followUp.status).toBe(200);
    expect(followUp.body.interaction_metadata.original_response_message_id).toBe(loading.body.id);
    expectSchema('MessageResponse', followUp.body);
    expectSchema('MessageResponse', reedited.body);
    const fetched = await api(stack, 'GET', `${hook}/messages/${followUp.body.id}`);
    expect(fetched.body.content).toBe('One more thing');
    expect((await api(stack, 'DELETE', `${hook}/messages/${followUp.body.id}`)).status).toBe(204);
    expect((await api(stack, 'GET', `${hook}/messages/${followUp.body.id}`)).body.code).toBe(10008);

    // Messages are validated like Discord's; foreign tokens get Discord's answers.
    const empty = await api(stack, 'POST', hook, { body: { content: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe(50006);
    const long = await api(stack, 'POST', hook, { body: { content: 'x'.repeat(2001) } });
    expect(long.body.errors.content._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    const tooManyEmbeds = await api(stack, 'POST', hook, {
      body: { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) },
    });
    expect(tooManyEmbeds.status).toBe(400);
    const otherApp = await api(
      stack,
      'GET',
      `/webhooks/${world.application.id}/${interaction.token}/messages/@original`,
    );
    expect(otherApp.status).toBe(401);
    expect(otherApp.body.code).toBe(50027);
    const badToken = await api(stack, 'POST', `/interactions/${interaction.id}/not-the-token/callback`, {
      body: { type: 4, data: { content: 'x' } },
    });
    expect(badToken.status).toBe(404);
    expect(badToken.body.code).toBe(10062);
  });

  it('shows an ephemeral answer to the invoking user only', async () => {
    const other = await createUser(stack, { username: 'bystander' });
    const put = await stack.admin('PUT', `/admin/guilds/${world.guild.id}/members/${other.id}`, {});
    expect([200, 201]).toContain(put.status);
    const bystander = await (await ChatUser.open(stack, other.id)).connect();
    opened.push(bystander);
    const seenByInvoker = user.gateway!.received.length;
    const seenByOther = bystander.gateway!.received.length;

    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'for everyone' } } });
    const open = await user.invoke(invocation(httpApp, commands.ping));
    endpoint.answer = () => ({
      status: 200,
      body: { type: 4, data: { content: 'just for you', flags: 64 } },
    });
    const secret = await user.invoke(invocation(httpApp, commands.ping));
    expect(secret.body.messages[0].flags & 64).toBe(64);

    const openId = open.body.messages[0].id;
    const secretId = secret.body.messages[0].id;
    await user.gateway!.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === secretId, 5000, seenByInvoker);
    await bystander.gateway!.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === openId, 5000, seenByOther);
    await new Promise((r) => setTimeout(r, 500));
    const leaked = bystander
      .gateway!.received.slice(seenByOther)
      .filter((p) => p.t === 'MESSAGE_CREATE' && p.d.id === secretId);
    expect(leaked).toEqual([]);
    // The bystander saw no interaction of someone else either.
    expect(
      bystander.gateway!.received.slice(seenByOther).filter((p) => p.t === 'INTERACTION_CREATE'),
    ).toEqual([]);
  });
});

describe('a discord.js bot on the gateway', () => {
  it('gets interactionCreate and its reply reaches the user', async () => {
    const commands = await registerGuildCommands(world.application, [
      {
        name: 'greet',
        description: 'Greets',
        options: [{ name: 'who', description: 'Whom', type: 3, required: true }],
      },
      { name: 'whisper', description: 'Greets quietly' },
    ]);
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
    client.on(Events.InteractionCreate, (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const reply =
        interaction.commandName === 'greet'
          ? interaction.reply(`Hello, ${interaction.options.getString('who')}!`)
          : interaction
              .deferReply({ flags: MessageFlags.Ephemeral })
              .then(() => interaction.editReply('psst'));
      void reply.catch((error: unknown) =>
        process.stderr.write(`discord.js reply failed: ${String(error)}\n`),
      );
    });
    const ready = new Promise<void>((resolve) => client!.once(Events.ClientReady, () => resolve()));
    await client.login(world.application.botToken);
    await ready;

    const greeted = await user.invoke(
      invocation({ id: world.application.id }, commands.greet, {
        options: [{ name: 'who', type: 3, value: 'Ada' }],
      }),
    );
    expect(greeted.status).toBe(200);
    expect(greeted.body).toMatchObject({ outcome: 'success', response: { type: 4 } });
    expect(greeted.body.messages[0]).toMatchObject({
      content: 'Hello, Ada!',
      author: { id: world.application.id },
    });

    const whispered = await user.invoke(invocation({ id: world.application.id }, commands.whisper));
    expect(whispered.body).toMatchObject({ outcome: 'success', response: { type: 5 } });
    const edited = await user.gateway!.next(
      (p) =>
        p.t === 'MESSAGE_UPDATE' &&
        p.d.content === 'psst' &&
        p.d.interaction_metadata?.id === whispered.body.interaction.id,
      10_000,
    );
    expect(edited.d.flags & 64).toBe(64);
  });
});

describe('a user-installed app', () => {
  it('is invocable where its contexts allow, with the user as the authorizing owner', async () => {
    const endpointOwner = await createUser(stack, { username: 'installer' });
    const app = await createApplication(stack, { name: 'User App', integration_types: [0, 1] });
    const receiver = await new InteractionsEndpoint(app.verify_key).start();
    try {
      expect(
        (
          await stack.admin('PATCH', `/admin/applications/${app.id}`, {
            interactions_endpoint_url: receiver.url,
          })
        ).status,
      ).toBe(200);
      const authorized = await stack.admin('POST', '/admin/oauth2/authorize', {
        client_id: app.id,
        user_id: endpointOwner.id,
        scope: 'applications.commands',
        integration_type: 1,
      });
      expect(authorized.status).toBe(200);
      const created = await api(stack, 'POST', `/applications/${app.id}/commands`, {
        token: `Bot ${app.bot_token}`,
        body: { name: 'note', description: 'Takes a note', integration_types: [1], contexts: [0, 1, 2] },
      });
      expect(created.status).toBe(201);
      const command = created.body;

      // A guild the app is not installed in, where the installer is a member.
      const guild = await createGuild(stack, { name: 'Elsewhere', owner_id: endpointOwner.id });
      const channel = await stack.admin('POST', `/admin/guilds/${guild.id}/channels`, {
        name: 'talk',
        type: 0,
      });
      const installer = await ChatUser.open(stack, endpointOwner.id);
      receiver.answer = () => ({ status: 200, body: { type: 4, data: { content: 'noted' } } });
      const inGuild = await installer.invoke({
        type: 2,
        application_id: app.id,
        guild_id: guild.id,
        channel_id: channel.body.id,
        data: { id: command.id, name: 'note', type: 1, version: command.version },
      });
      expect(inGuild.status).toBe(200);
      const received = receiver.received.at(-1);
      expect(received.authorizing_integration_owners).toEqual({ '1': endpointOwner.id });
      expect(received.context).toBe(0);

      // The DM with the app's bot: context 1, `user` instead of `member`.
      const dm = await api(stack, 'POST', '/users/@me/channels', {
        token: installer.token,
        body: { recipient_id: app.id },
      });
      expect(dm.status).toBe(200);
      const inDm = await installer.invoke({
        type: 2,
        application_id: app.id,
        channel_id: dm.body.id,
        data: { id: command.id, name: 'note', type: 1, version: command.version },
      });
      expect(inDm.status).toBe(200);
      const dmInteraction = receiver.received.at(-1);
      expect(dmInteraction).toMatchObject({
        context: 1,
        user: { id: endpointOwner.id },
        channel_id: dm.body.id,
      });
      expect(dmInteraction.member).toBeUndefined();
      expect(dmInteraction.guild_id).toBeUndefined();

      // Authorized only by the user install: at most 5 follow-ups.
      const hook = `/webhooks/${app.id}/${dmInteraction.token}`;
      for (let i = 0; i < 5; i++) {
        expect((await api(stack, 'POST', hook, { body: { content: `follow-up ${i}` } })).status).toBe(200);
      }
      const sixth = await api(stack, 'POST', hook, { body: { content: 'one too many' } });
      expect(sixth.status).toBe(400);
      expect(sixth.body.code).toBe(40094);

      // A user who did not install it cannot invoke it.
      const stranger = await ChatUser.open(stack, world.user.id);
      const refused = await stranger.invoke({
        type: 2,
        application_id: app.id,
        guild_id: world.guild.id,
        channel_id: world.channel.id,
        data: { id: command.id, name: 'note', type: 1, version: command.version },
      });
      expect(refused.status).toBe(400);
    } finally {
      await receiver.stop();
    }
  });
});
