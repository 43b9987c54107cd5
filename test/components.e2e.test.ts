import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  ComponentType,
  Events,
  GatewayIntentBits,
  LabelBuilder,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ChatInputCommandInteraction,
} from 'discord.js';
import { InteractionResponseType, InteractionType, MessageComponentTypes } from 'discord-interactions';
import { runCli } from '../packages/testkit/src/cli/acs-cli';
import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import { expectSchema } from './helpers/openapi-validator';
import {
  createApplication,
  createDemoWorld,
  createUser,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser } from './support/chat-user';

/**
 * Components and modals end to end (issue 11): an HTTP app answers with select menus and
 * the user picks values through `POST /interactions` type 3; a discord.js bot's button
 * collector opens a modal that the user submits (type 5), and `npx acs click` and
 * `submit-modal` do the same from a terminal. Every refusal is Discord's error, never a 5xx.
 */
let stack: TestStack;
let world: DemoWorld;
let user: ChatUser;
let client: Client | undefined;
let dataDir: string;
const opened: ChatUser[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  user = await (await ChatUser.open(stack, world.user.id)).connect();
  opened.push(user);
  dataDir = mkdtempSync(join(tmpdir(), 'acs-cli-'));
  writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(world));
  writeFileSync(join(dataDir, 'stack.json'), JSON.stringify({ apiUrl: stack.apiUrl }));
  writeFileSync(join(dataDir, 'admin-token'), `${stack.adminToken}\n`);
});

afterAll(async () => {
  for (const u of opened) u.close();
  await client?.destroy();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function registerGuildCommands(app: { id: string; token: string }, commands: unknown[]) {
  const put = await api(stack, 'PUT', `/applications/${app.id}/guilds/${world.guild.id}/commands`, {
    token: `Bot ${app.token}`,
    body: commands,
  });
  expect(put.status).toBe(200);
  return Object.fromEntries((put.body as any[]).map((c) => [c.name, c]));
}

function invocation(appId: string, command: any) {
  return {
    type: 2,
    application_id: appId,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    data: { id: command.id, name: command.name, type: command.type, version: command.version },
  };
}

/** A component interaction on `messageId`, as the chat client sends it (A8). */
function use(appId: string, messageId: string, data: Record<string, unknown>) {
  return {
    type: 3,
    application_id: appId,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    message_id: messageId,
    data,
  };
}

describe('an HTTP endpoint app with select menus', () => {
  let app: { id: string; bot_token: string; verify_key: string };
  let endpoint: InteractionsEndpoint;
  let commands: Record<string, any>;

  beforeAll(async () => {
    app = await createApplication(stack, { name: 'Select App', owner_id: world.user.id });
    endpoint = await new InteractionsEndpoint(app.verify_key).start();
    expect(
      (
        await stack.admin('PATCH', `/admin/applications/${app.id}`, {
          interactions_endpoint_url: endpoint.url,
        })
      ).status,
    ).toBe(200);
    await installApplication(stack, {
      applicationId: app.id,
      userId: world.user.id,
      guildId: world.guild.id,
    });
    commands = await registerGuildCommands({ id: app.id, token: app.bot_token }, [
      { name: 'pick', description: 'Pick things' },
      { name: 'wide', description: 'Answers later' },
    ]);
  });

  afterAll(async () => {
    await endpoint?.stop();
  });

  const menu = {
    content: 'Pick colours, and someone',
    components: [
      {
        type: MessageComponentTypes.ACTION_ROW,
        components: [
          {
            type: MessageComponentTypes.STRING_SELECT,
            custom_id: 'colours',
            max_values: 2,
            options: [
              { label: 'Red', value: 'red' },
              { label: 'Blue', value: 'blue' },
              { label: 'Green', value: 'green' },
            ],
          },
        ],
      },
      {
        type: MessageComponentTypes.ACTION_ROW,
        components: [{ type: MessageComponentTypes.USER_SELECT, custom_id: 'who' }],
      },
    ],
  };

  it('posts the menu, then receives each pick with the message and resolved users, and updates it', async () => {
    endpoint.answer = (interaction) => {
      if (interaction.type === InteractionType.APPLICATION_COMMAND) {
        return {
          status: 200,
          body: { type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: menu },
        };
      }
      if (interaction.data.custom_id === 'who') {
        return { status: 200, body: { type: InteractionResponseType.DEFERRED_UPDATE_MESSAGE } };
      }
      return {
        status: 200,
        body: {
          type: InteractionResponseType.UPDATE_MESSAGE,
          data: { content: `You picked ${interaction.data.values.join(' and ')}`, components: [] },
        },
      };
    };
    const invoked = await user.invoke(invocation(app.id, commands.pick));
    expect(invoked.status).toBe(200);
    const message = invoked.body.messages[0];
    expectSchema('MessageResponse', message);
    expect(message.components).toEqual([
      {
        type: 1,
        id: 1,
        components: [expect.objectContaining({ type: 3, id: 2, custom_id: 'colours', max_values: 2 })],
      },
      { type: 1, id: 3, components: [{ type: 5, id: 4, custom_id: 'who', min_values: 1, max_values: 1 }] },
    ]);

    // A user select: the app gets the message and the user resolved; it defers the update.
    const from = endpoint.received.length;
    const picked = await user.invoke(
      use(app.id, message.id, { component_type: 5, custom_id: 'who', values: [world.user.id] }),
    );
    expect(picked.status).toBe(200);
    expect(picked.body).toMatchObject({ outcome: 'success', response: { type: 6 } });
    const received = await endpoint.next(from);
    expect(received).toMatchObject({
      type: 3,
      application_id: app.id,
      channel_id: world.channel.id,
      member: { user: { id: world.user.id } },
      message: { id: message.id, components: message.components },
      data: { custom_id: 'who', component_type: 5, values: [world.user.id] },
    });
    expect(received.data.resolved.users[world.user.id]).toMatchObject({ id: world.user.id });
    expect(typeof received.token).toBe('string');

    // After a deferred update, the token's @original is the component's message, and a
    // follow-up names the message whose component was used.
    const hook = `/webhooks/${app.id}/${received.token}`;
    const original = await api(stack, 'GET', `${hook}/messages/@original`);
    expect(original.body).toMatchObject({ id: message.id, content: 'Pick colours, and someone' });
    const followUp = await api(stack, 'POST', hook, { body: { content: 'Noted' } });
    expect(followUp.status).toBe(200);
    expectSchema('MessageResponse', followUp.body);
    expect(followUp.body.interaction_metadata).toMatchObject({
      id: received.id,
      type: 3,
      interacted_message_id: message.id,
      user: { id: world.user.id },
    });
    const tooMany = await api(stack, 'PATCH', `${hook}/messages/@original`, {
      body: {
        components: [
          {
            type: 1,
            components: Array.from({ length: 2 }, () => ({
              type: 3,
              custom_id: 'x',
              options: [{ label: 'a', value: 'a' }],
            })),
          },
        ],
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.components['0'].components['1']._errors[0].code).toBe(
      'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
    );

    // A string select: the app updates the message (7); the user's session sees the update.
    const updated = await user.invoke(
      use(app.id, message.id, { component_type: 3, custom_id: 'colours', values: ['red', 'green'] }),
    );
    expect(updated.body).toMatchObject({ outcome: 'success', response: { type: 7 } });
    expect(updated.body.messages).toEqual([
      expect.objectContaining({ id: message.id, content: 'You picked red and green', components: [] }),
    ]);
    const seen = await user.gateway!.next(
      (p) => p.t === 'MESSAGE_UPDATE' && p.d.id === message.id && p.d.content === 'You picked red and green',
      10_000,
    );
    expect(seen.d.edited_timestamp).toEqual(expect.any(String));

    // The select is gone from the message: picking again names no component.
    const gone = await user.invoke(
      use(app.id, message.id, { component_type: 3, custom_id: 'colours', values: ['red'] }),
    );
    expect(gone.status).toBe(400);
    expect(gone.body.errors.data.custom_id._errors[0].code).toBe('INTERACTION_COMPONENT_NOT_FOUND');
  });

  it('refuses picks the menu does not offer, and unknown messages, with Discord errors', async () => {
    endpoint.answer = () => ({ status: 200, body: { type: 4, data: menu } });
    const invoked = await user.invoke(invocation(app.id, commands.pick));
    const message = invoked.body.messages[0];
    const cases: Array<[Record<string, unknown>, number, number]> = [
      [use(app.id, message.id, { component_type: 3, custom_id: 'colours', values: ['purple'] }), 400, 50035],
      [
        use(app.id, message.id, {
          component_type: 3,
          custom_id: 'colours',
          values: ['red', 'blue', 'green'],
        }),
        400,
        50035,
      ],
      [use(app.id, message.id, { component_type: 2, custom_id: 'colours' }), 400, 50035],
      [use(app.id, message.id, { component_type: 2, custom_id: 'nothing-here' }), 400, 50035],
      [use(app.id, '1500000000000000999', { component_type: 2, custom_id: 'x' }), 404, 10008],
      [
        {
          ...use(app.id, message.id, { component_type: 3, custom_id: 'colours', values: ['red'] }),
          channel_id: '1',
        },
        404,
        10008,
      ],
    ];
    for (const [body, status, code] of cases) {
      const refused = await user.invoke(body);
      expect({ status: refused.status, code: refused.body?.code }).toEqual({ status, code });
    }
  });

  it('checks the components of a callback at their path, at and over the limits', async () => {
    endpoint.answer = () => ({ status: 202 });
    const from = endpoint.received.length;
    const invoking = user.invoke(invocation(app.id, commands.wide));
    const interaction = await endpoint.next(from);
    const callback = `/interactions/${interaction.id}/${interaction.token}/callback`;
    const buttons = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: 2, style: 1, label: `B${i}`, custom_id: `b${i}` }));
    const tooWide = await api(stack, 'POST', callback, {
      body: { type: 4, data: { components: [{ type: 1, components: buttons(6) }] } },
    });
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.errors.data.components['0'].components['5']._errors[0].code).toBe(
      'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
    );
    const duplicated = await api(stack, 'POST', callback, {
      body: { type: 4, data: { components: [{ type: 1, components: [...buttons(1), ...buttons(1)] }] } },
    });
    expect(duplicated.body.errors.data.components['0'].components['1'].custom_id._errors[0].code).toBe(
      'COMPONENT_CUSTOM_ID_DUPLICATED',
    );
    const v2WithoutFlag = await api(stack, 'POST', callback, {
      body: { type: 4, data: { components: [{ type: 10, content: 'hi' }] } },
    });
    expect(v2WithoutFlag.body.errors.data.components['0'].type._errors[0].code).toBe('UNION_TYPE_CHOICES');
    const premium = await api(stack, 'POST', callback, {
      body: {
        type: 4,
        data: { components: [{ type: 1, components: [{ type: 2, style: 6, custom_id: 'buy' }] }] },
      },
    });
    expect(Object.keys(premium.body.errors.data.components['0'].components['0']).sort()).toEqual([
      'custom_id',
      'sku_id',
    ]);
    const ok = await api(stack, 'POST', `${callback}?with_response=true`, {
      body: {
        type: 4,
        data: {
          flags: 1 << 15,
          components: [
            {
              type: 17,
              accent_color: 0x5865f2,
              components: [
                { type: 10, content: '# Wide' },
                { type: 1, components: buttons(5) },
              ],
            },
            {
              type: 9,
              components: [{ type: 10, content: 'Buy it' }],
              accessory: { type: 2, style: 6, sku_id: '1500000000000000998' },
            },
          ],
        },
      },
    });
    expect(ok.status).toBe(200);
    expectSchema('InteractionCallbackResponse', ok.body);
    expect(ok.body.resource.message.components[0].components[1].components).toHaveLength(5);
    expect((await invoking).body.outcome).toBe('success');
  });
});

describe('a discord.js bot with a button collector and a modal', () => {
  let commands: Record<string, any>;

  beforeAll(async () => {
    commands = await registerGuildCommands({ id: world.application.id, token: world.application.botToken }, [
      { name: 'profile', description: 'Fill in your profile' },
    ]);
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
    const fail = (error: unknown) => process.stderr.write(`discord.js bot failed: ${String(error)}\n`);
    client.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isChatInputCommand()) void startProfile(interaction).catch(fail);
    });
    const ready = new Promise<void>((resolve) => client!.once(Events.ClientReady, () => resolve()));
    await client.login(world.application.botToken);
    await ready;
  });

  /** /profile: a button whose collector opens a modal; the thanks replace the button's message. */
  async function startProfile(interaction: ChatInputCommandInteraction): Promise<void> {
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('open').setLabel('Open the form').setStyle(ButtonStyle.Primary),
    );
    const response = await interaction.reply({
      content: 'Tell me about you',
      components: [row],
      withResponse: true,
    });
    const message = response.resource!.message!;
    const collector = message.createMessageComponentCollector({
      componentType: ComponentType.Button,
      time: 120_000,
    });
    collector.on('collect', (click) => {
      const modal = new ModalBuilder()
        .setCustomId(`profile-${click.id}`)
        .setTitle('Your profile')
        .addLabelComponents(
          new LabelBuilder()
            .setLabel('Your name')
            .setTextInputComponent(
              new TextInputBuilder().setCustomId('name').setStyle(TextInputStyle.Short).setMaxLength(20),
            ),
        );
      void click
        .showModal(modal)
        .then(() =>
          click.awaitModalSubmit({
            time: 120_000,
            filter: (submit) => submit.customId === `profile-${click.id}`,
          }),
        )
        .then((submit) =>
          // A modal opened from a button may update the button's message (callback 7, A3).
          submit.isFromMessage()
            ? submit.update({
                content: `Thanks, ${submit.fields.getTextInputValue('name')}!`,
                components: [],
              })
            : submit.reply('Thanks!'),
        )
        .catch((error: unknown) => process.stderr.write(`discord.js modal failed: ${String(error)}\n`));
    });
  }

  it('opens a modal from a button; the user submits it once, and the bot updates the message', async () => {
    const invoked = await user.invoke(invocation(world.application.id, commands.profile));
    expect(invoked.body).toMatchObject({ outcome: 'success', response: { type: 4 } });
    const message = invoked.body.messages[0];
    expect(message.components[0].components[0]).toMatchObject({ type: 2, custom_id: 'open', style: 1 });

    const clicked = await user.invoke(
      use(world.application.id, message.id, { component_type: 2, custom_id: 'open' }),
    );
    expect(clicked.status).toBe(200);
    expect(clicked.body).toMatchObject({
      outcome: 'success',
      response: { type: 9, data: { title: 'Your profile', components: [{ type: 18, label: 'Your name' }] } },
    });
    const clickId = clicked.body.interaction.id;
    const modalCustomId = clicked.body.response.data.custom_id;
    const modalEvent = await user.gateway!.next(
      (p) => p.t === 'INTERACTION_MODAL_CREATE' && p.d.id === clickId,
      10_000,
    );
    expect(modalEvent.d).toMatchObject({
      channel_id: world.channel.id,
      custom_id: modalCustomId,
      title: 'Your profile',
      application: { id: world.application.id },
      components: [{ type: 18, component: { type: 4, custom_id: 'name', max_length: 20 } }],
    });

    const answer = (value: string) => ({
      type: 5,
      application_id: world.application.id,
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      data: {
        id: clickId,
        custom_id: modalCustomId,
        components: [{ type: 18, component: { type: 4, custom_id: 'name', value } }],
      },
    });
    // Another user cannot submit this user's modal; a text over max_length is refused.
    const stranger = await ChatUser.open(stack, (await createUser(stack, { username: 'stranger' })).id);
    const foreign = await stranger.invoke(answer('Mallory'));
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 10062 });
    const tooLong = await user.invoke(answer('x'.repeat(21)));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors.data.components['0'].component.value._errors[0].code).toBe(
      'INTERACTION_MODAL_ANSWER_INVALID',
    );

    const submitted = await user.invoke(answer('Ada'));
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ outcome: 'success', response: { type: 7 } });
    expect(submitted.body.messages).toEqual([
      expect.objectContaining({
        id: message.id,
        content: 'Thanks, Ada!',
        components: [],
        author: expect.objectContaining({ id: world.application.id }),
      }),
    ]);
    expect(submitted.body.interaction).toMatchObject({
      type: 5,
      message: { id: message.id },
      data: {
        custom_id: modalCustomId,
        components: [{ type: 18, component: { type: 4, custom_id: 'name', value: 'Ada' } }],
      },
    });

    const again = await user.invoke(answer('Ada'));
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 404, code: 10062 });
  });

  it('`npx acs click` and `npx acs submit-modal` take the same steps from a terminal', async () => {
    const acs = async (...argv: string[]) => {
      const lines: string[] = [];
      const code = await runCli(argv, { dataDir, env: {}, out: (line) => lines.push(line) });
      return { code, output: lines.join('\n') };
    };
    const invoked = await acs('invoke', '/profile');
    expect(invoked.code).toBe(0);
    const messageId = /components of message (\d+):/.exec(invoked.output)?.[1];
    expect(invoked.output).toContain('[button "Open the form"] open');
    const clicked = await acs('click', messageId as string, 'open');
    expect(clicked.code).toBe(0);
    const modal = /modal "Your profile" \((\S+)\), opened by interaction (\d+)/.exec(clicked.output);
    expect(modal).not.toBeNull();
    const submitted = await acs('submit-modal', modal![2] as string, modal![1] as string, 'name=Grace');
    expect(submitted).toEqual({ code: 0, output: `${world.application.name}: Thanks, Grace!` });
    const unknown = await acs('click', messageId as string, 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('INTERACTION_COMPONENT_NOT_FOUND');
  });
});
