'use strict';
/**
 * An app that receives interactions over the gateway with discord.js, written as any
 * discord.js bot is: only the REST base URL points at ACS (the client learns the gateway's
 * address from GET /gateway/bot). It registers /hello in GUILD_ID (globally without it) and
 * answers it in its `interactionCreate` handler.
 *
 *   ACS_URL=http://127.0.0.1:8080 BOT_TOKEN=... GUILD_ID=... node examples/gateway-bot
 */
const { Client, Events, GatewayIntentBits, MessageFlags } = require('discord.js');

const ACS_URL = (process.env.ACS_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const BOT_TOKEN = process.env.BOT_TOKEN;
const GUILD_ID = process.env.GUILD_ID;
if (!BOT_TOKEN) throw new Error('BOT_TOKEN is not set');

const COMMANDS = [
  { name: 'hello', description: 'Says hello from a discord.js bot' },
  {
    name: 'roll',
    description: 'Rolls a die',
    options: [{ name: 'sides', description: 'How many sides', type: 4, min_value: 2, max_value: 100 }],
  },
];

const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${ACS_URL}/api` } });

client.once(Events.ClientReady, (ready) => {
  const registered = GUILD_ID
    ? ready.guilds.fetch(GUILD_ID).then((guild) => guild.commands.set(COMMANDS))
    : ready.application.commands.set(COMMANDS);
  registered.then(
    () => console.log(`gateway-bot ready as ${ready.user.username}`),
    (error) => {
      console.error('registering commands failed:', error);
      process.exit(1);
    },
  );
});

client.on(Events.InteractionCreate, (interaction) => {
  if (interaction.isChatInputCommand()) void answer(interaction);
});

/** Answers one slash command; a failure is logged, as the interaction then fails for the user. */
async function answer(interaction) {
  try {
    if (interaction.commandName === 'hello') {
      await interaction.reply(`Hello, ${interaction.user.username}! (answered over the gateway)`);
    } else if (interaction.commandName === 'roll') {
      const sides = interaction.options.getInteger('sides') ?? 6;
      const value = 1 + Math.floor(Math.random() * sides);
      await interaction.reply({ content: `🎲 ${value} (d${sides})`, flags: MessageFlags.Ephemeral });
    }
  } catch (error) {
    console.error(`answering /${interaction.commandName} failed:`, error);
  }
}

client.login(BOT_TOKEN).catch((error) => {
  console.error(error.message);
  process.exit(1);
});

process.on('SIGTERM', () => {
  void client.destroy().then(() => process.exit(0));
});
