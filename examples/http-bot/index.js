'use strict';
/**
 * An app that receives interactions over HTTP, built the way Discord's own examples build
 * one: every request is verified with `discord-interactions`' verifyKey (401 when the
 * signature is wrong, as Discord requires), PING is answered with PONG, and commands are
 * answered inline with a message. Nothing here knows it talks to ACS but the base URL.
 *
 *   ACS_URL=http://127.0.0.1:8080 APPLICATION_ID=... BOT_TOKEN=... PUBLIC_KEY=... \
 *   GUILD_ID=... PORT=3000 node examples/http-bot
 *
 * Then set the app's Interactions Endpoint URL to http://127.0.0.1:3000/interactions
 * (`npm start -- --with-examples` does all of this for the demo world).
 */
const http = require('node:http');
const {
  verifyKey,
  InteractionType,
  InteractionResponseType,
  InteractionResponseFlags,
} = require('discord-interactions');

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const ACS_URL = (process.env.ACS_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const APPLICATION_ID = env('APPLICATION_ID');
const BOT_TOKEN = env('BOT_TOKEN');
const PUBLIC_KEY = env('PUBLIC_KEY');
const GUILD_ID = process.env.GUILD_ID;
const PORT = Number(process.env.PORT ?? 3000);

/** The commands this app registers (in GUILD_ID when set, else globally). */
const COMMANDS = [
  { name: 'ping', description: 'Replies with Pong!' },
  {
    name: 'echo',
    description: 'Says it back',
    options: [
      { name: 'text', description: 'What to say', type: 3, required: true },
      { name: 'secret', description: 'Only you see the answer', type: 5 },
    ],
  },
];

/** The answer to one verified interaction. */
function answer(interaction) {
  if (interaction.type === InteractionType.PING) return { type: InteractionResponseType.PONG };
  if (interaction.type !== InteractionType.APPLICATION_COMMAND) return undefined;
  const { name, options = [] } = interaction.data;
  const user = interaction.member?.user ?? interaction.user;
  if (name === 'ping') {
    return {
      type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
      data: { content: `Pong! (answered over HTTP to ${user.username})` },
    };
  }
  if (name === 'echo') {
    const option = (key) => options.find((o) => o.name === key)?.value;
    return {
      type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
      data: {
        content: String(option('text')),
        flags: option('secret') ? InteractionResponseFlags.EPHEMERAL : 0,
      },
    };
  }
  return undefined;
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    void (async () => {
      const raw = Buffer.concat(chunks);
      const signature = req.headers['x-signature-ed25519'];
      const timestamp = req.headers['x-signature-timestamp'];
      const valid =
        req.method === 'POST' &&
        typeof signature === 'string' &&
        typeof timestamp === 'string' &&
        (await verifyKey(raw, signature, timestamp, PUBLIC_KEY));
      if (!valid) {
        res.writeHead(401).end('invalid request signature');
        return;
      }
      const response = answer(JSON.parse(raw.toString('utf8')));
      if (!response) {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"error":"unknown interaction"}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(response));
    })().catch((error) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
});

async function registerCommands() {
  const route = GUILD_ID
    ? `/applications/${APPLICATION_ID}/guilds/${GUILD_ID}/commands`
    : `/applications/${APPLICATION_ID}/commands`;
  const response = await fetch(`${ACS_URL}/api/v10${route}`, {
    method: 'PUT',
    headers: { Authorization: `Bot ${BOT_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(COMMANDS),
  });
  if (!response.ok)
    throw new Error(`registering commands failed: ${response.status} ${await response.text()}`);
}

registerCommands()
  .then(
    () =>
      new Promise((resolve) => {
        server.listen(PORT, '127.0.0.1', resolve);
      }),
  )
  .then(() => {
    const address = server.address();
    // The launcher reads this line to learn the port (PORT=0 lets the system choose).
    console.log(`http-bot listening on http://127.0.0.1:${address.port}/interactions`);
  })
  .catch((error) => {
    console.error(error.message);
    process.exit(1);
  });

process.on('SIGTERM', () => server.close(() => process.exit(0)));
