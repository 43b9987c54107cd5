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
}, 120_000);

afterAll(async () => {
  await client?.destroy();
  await stack?.stop();
});

it('logs in, becomes ready with its guild, and manages its commands', async () => {
  const world = await createDemoWorld(stack.admin);
  client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
  const ready = new Promise<Client<true>>((resolve) => client!.once(Events.ClientReady, resolve));
  const guildSeen = new Promise<Guild>((resolve) => client!.on(Events.GuildCreate, resolve));
  await client.login(world.application.botToken);
  const readyClient = await ready;

  expect(readyClient.user.id).toBe(world.application.id);
  expect(readyClient.application.id).toBe(world.application.id);
  const guild = readyClient.guilds.cache.get(world.guild.id) ?? (await guildSeen);
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

  const created = await readyClient.application.commands.create({ name: 'hello', description: 'Says hello' });
  expect(created.name).toBe('hello');
  const guildCommands = await guild.commands.set([{ name: 'local', description: 'Only here' }]);
  expect([...guildCommands.values()].map((c) => c.name)).toEqual(['local']);
  const fetched = await readyClient.application.commands.fetch();
  expect([...fetched.values()].map((c) => c.name)).toContain('hello');
}, 60_000);
