import { ChannelType, Client, Events, GatewayIntentBits, PermissionFlagsBits, type Guild } from 'discord.js';
import { createDemoWorld, startTestStack, type TestStack } from './support';

/**
 * The real discord.js Client, pointed at ACS by its REST base URL alone (it learns the
 * gateway's address from GET /gateway/bot): it must log in, become ready with the bot's
 * guild (its channels and the bot's own member, from GUILD_CREATE), and manage commands
 * through `client.application.commands` and `guild.commands`.
 */
let stack: TestStack;
let client: Client | undefined;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await client?.destroy();
  await stack?.stop();
});

it('logs in, becomes ready with its guild, and manages its commands', async () => {
  const world = await createDemoWorld(stack.admin);
  // The demo world installs with no permissions; a second guild grants MANAGE_ROLES.
  const second = await stack.admin('POST', '/admin/guilds', { name: 'Role Guild', owner_id: world.user.id });
  expect(second.status).toBe(201);
  const installed = await stack.admin('POST', '/admin/oauth2/authorize', {
    client_id: world.application.id,
    user_id: world.user.id,
    guild_id: second.body.id,
    scope: 'bot applications.commands',
    permissions: String(PermissionFlagsBits.ManageRoles),
  });
  expect(installed.status).toBe(200);
  client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
  const ready = new Promise<Client<true>>((resolve) => client!.once(Events.ClientReady, resolve));
  // A guild that arrives before READY is in the cache; one after it comes as GuildCreate.
  const seen = (id: string) =>
    new Promise<Guild>((resolve) =>
      client!.on(Events.GuildCreate, (guild) => {
        if (guild.id === id) resolve(guild);
      }),
    );
  const demoGuild = seen(world.guild.id);
  const roleGuild = seen(second.body.id);
  await client.login(world.application.botToken);
  const readyClient = await ready;

  expect(readyClient.user.id).toBe(world.application.id);
  expect(readyClient.application.id).toBe(world.application.id);
  const guild = readyClient.guilds.cache.get(world.guild.id) ?? (await demoGuild);
  expect(guild.id).toBe(world.guild.id);
  expect(guild.name).toBe(world.guild.name);

  // `members.me` comes from GUILD_CREATE's members: null there makes bots crash on it.
  const me = guild.members.me;
  expect(me?.id).toBe(world.application.id);
  expect(me?.user.bot).toBe(true);
  // The bot holds no role: the demo guild's @everyone permissions are its own.
  expect(me?.permissions.has(PermissionFlagsBits.UseApplicationCommands)).toBe(true);
  expect(me?.permissions.has(PermissionFlagsBits.Administrator)).toBe(false);
  const channel = guild.channels.cache.get(world.channel.id);
  expect(channel?.name).toBe(world.channel.name);
  expect(channel?.type).toBe(ChannelType.GuildText);
  expect(me && channel?.permissionsFor(me)?.has(PermissionFlagsBits.SendMessages)).toBe(true);
  expect(me?.roles.cache.filter((role) => role.managed).size).toBe(0);

  // Installed with MANAGE_ROLES: the bot holds its managed role, which grants it.
  const granted = readyClient.guilds.cache.get(second.body.id) ?? (await roleGuild);
  const managed = granted.roles.cache.find((role) => role.tags?.botId === world.application.id);
  expect(managed?.managed).toBe(true);
  expect(managed?.name).toBe(world.application.name);
  expect(managed?.permissions.bitfield).toBe(PermissionFlagsBits.ManageRoles);
  expect(granted.members.me?.roles.cache.has(managed?.id ?? '')).toBe(true);
  expect(granted.members.me?.permissions.has(PermissionFlagsBits.ManageRoles)).toBe(true);
  expect(guild.members.me?.permissions.has(PermissionFlagsBits.ManageRoles)).toBe(false);

  const created = await readyClient.application.commands.create({ name: 'hello', description: 'Says hello' });
  expect(created.name).toBe('hello');
  const guildCommands = await guild.commands.set([{ name: 'local', description: 'Only here' }]);
  expect([...guildCommands.values()].map((c) => c.name)).toEqual(['local']);
  const fetched = await readyClient.application.commands.fetch();
  expect([...fetched.values()].map((c) => c.name)).toContain('hello');
});
